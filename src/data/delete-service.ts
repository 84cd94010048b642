// DELETE /data/{name} (CONTRACT §6; issue 22): the shared set, or with `?lang=xx` that variant.
// The set's last state is kept as its last revision and it goes to the trash in the deleting
// transaction (data/revision.ts), so POST /trash/data/{id}/restore brings it back. `?dry_run=1`
// runs the same delete in its transaction, answers what it would answer (`rebaked` planned: the
// frames that read the set and the published pages on them) and rolls it all back.
import { gmt } from "../clock.ts";
import { plannedRebake, type PlannedRebake } from "../frames/planned-rebake.ts";
import type { Change, Rebaked } from "../write/change.ts";
import { oweChanges, type ServiceContext } from "../write/context.ts";
import { textBytes } from "../quotas/bytes.ts";
import { holdRoom, requireRoom } from "../quotas/usage.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Db } from "../store/database.ts";
import { dryRunnable } from "../store/dry-run.ts";
import { datasetNameFrom, datasetNotFound } from "./datasets.ts";
import { trashDataset } from "./revision.ts";

export interface DatasetDeleteAnswer {
  deleted: { name: string; lang: string | null; total: number };
  rebaked: Rebaked | PlannedRebake;
}

/** DELETE /data/{name}: the shared set, or with `?lang=xx` that variant; with `dryRun` nothing is changed. */
export async function deleteDataset(ctx: ServiceContext, site: SiteRow, rawName: string, query: { lang?: unknown }, dryRun = false): Promise<DatasetDeleteAnswer> {
  const name = datasetNameFrom(rawName);
  const lang = checkLangIn(await languageState(ctx.db, site.id), query.lang) ?? "";
  const change: Change = { kind: "dataset", name };
  const done = await dryRunnable<{ total: number; planned: PlannedRebake | undefined; owed?: number }>(dryRun, (work) => ctx.db.transaction().execute(work), async (trx) => {
    await holdRoom(trx, site.id);
    const row = await trx.selectFrom("datasets").select(["total", textBytes(trx, "items_json").as("bytes")]).where("site_id", "=", site.id).where("name", "=", name).where("lang", "=", lang).executeTakeFirst();
    if (!row) throw datasetNotFound(name, lang);
    await trashDataset(trx, site.id, name, lang, gmt(ctx.clock()));
    await trx.deleteFrom("datasets").where("site_id", "=", site.id).where("name", "=", name).where("lang", "=", lang).execute();
    await requireRoom(trx, site.id, { data_items: -row.total, stored_bytes: -Number(row.bytes) });
    return { total: row.total, planned: dryRun ? await plannedRebake(trx, site.id, change) : undefined, owed: await oweChanges(ctx, trx, site.id, [change]) };
  });
  const rebaked = done.planned ?? (await ctx.publisher.changed(site.id, [change], { owed: done.owed }));
  return { deleted: { name, lang: lang === "" ? null : lang, total: done.total }, rebaked };
}
