// DELETE /data/{name} (docs/content-model.md, docs/revisions.md): the shared set, or with
// `?lang=xx` that variant.
// The set's last state is kept as its last revision and it goes to the trash in the deleting
// transaction (data/revision.ts), so POST /trash/data/{id}/restore brings it back. `?dry_run=1`
// runs the same delete in its transaction, answers what it would answer (`rebaked` planned: the
// frames that read the set and the published pages on them) and rolls it all back.
import { gmt } from "../clock.ts";
import { plannedRebake, type PlannedRebake } from "../effects/planned.ts";
import { siteIndex } from "../frames/graph.ts";
import type { Change, Rebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { textBytes } from "../quotas/bytes.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import type { SiteRow } from "../site/sites.ts";
import { datasetNameFrom, datasetNotFound } from "./datasets.ts";
import { datasetObjectId, trashDataset } from "./revision.ts";

export interface DatasetDeleteAnswer {
  deleted: { name: string; lang: string | null; total: number };
  rebaked: Rebaked | PlannedRebake;
}

/** DELETE /data/{name}: the shared set, or with `?lang=xx` that variant; with `dryRun` nothing is changed. */
export async function deleteDataset(
  ctx: ServiceContext,
  site: SiteRow,
  rawName: string,
  query: { lang?: unknown },
  dryRun = false,
): Promise<DatasetDeleteAnswer> {
  const name = datasetNameFrom(rawName);
  const lang = checkLangIn(await languageState(ctx.db, site.id), query.lang) ?? "";
  const change: Change = { kind: "dataset", name };
  const done = await runWrite(ctx, {
    siteId: site.id,
    dryRun,
    apply: async (trx) => {
      const row = await trx
        .selectFrom("datasets")
        .select(["total", textBytes(trx, "items_json").as("bytes")])
        .where("site_id", "=", site.id)
        .where("name", "=", name)
        .where("lang", "=", lang)
        .executeTakeFirst();
      if (!row) throw datasetNotFound(name, lang);
      // Its last state kept as its last revision, then its trash entry (revision.ts).
      await trashDataset(trx, site.id, name, lang, gmt(ctx.clock()));
      await trx
        .deleteFrom("datasets")
        .where("site_id", "=", site.id)
        .where("name", "=", name)
        .where("lang", "=", lang)
        .execute();
      return {
        // A dry run plans through its transaction, which sees the set gone.
        value: {
          total: row.total,
          planned: dryRun ? await plannedRebake(trx, site.id, await siteIndex(trx, site.id), change) : undefined,
        },
        wrote: [{ kind: "dataset", id: datasetObjectId(name, lang), action: "deleted" }],
        changes: [change],
        room: { data_items: -row.total, stored_bytes: -Number(row.bytes) },
      };
    },
  });
  const rebaked = done.value.planned ?? done.rebaked;
  return { deleted: { name, lang: lang === "" ? null : lang, total: done.value.total }, rebaked };
}
