// A data set's state as its revisions keep it (docs/revisions.md "Data sets"). Each
// language variant is an object of its own: the shared set is kept under its name (`team`), a
// variant under its name and language (`team:de`); data-set names and language codes hold no `:`.
// The content is {name, lang, items} as JSON, pretty-printed one field per line with sorted keys
// (revisions.ts prettyJson); the same fields decide the summary (`["items"]`). Key order inside an
// item is not kept (JSON objects have none): a write that only reorders keys is no change.
import { prettyJson, recordRevision, type Snapshot } from "../revisions/revisions.ts";
import { toTrash } from "../revisions/trash.ts";
import type { Db } from "../store/database.ts";
import { revisedBy } from "../write/pipeline.ts";
import { DATASET_ITEMS } from "./items-column.ts";

/** The id a set's history is kept under: `name` for the shared set (`lang` ""), `name:lang` for a variant. */
export function datasetObjectId(name: string, lang: string): string {
  return lang === "" ? name : `${name}:${lang}`;
}

/** The name and language ("" for the shared set) an object id stands for. */
export function datasetOfObjectId(id: string): { name: string; lang: string } {
  const at = id.indexOf(":");
  return at < 0 ? { name: id, lang: "" } : { name: id.slice(0, at), lang: id.slice(at + 1) };
}

export function datasetSnapshot(name: string, lang: string, items: readonly unknown[]): Snapshot {
  const fields = { name, lang: lang === "" ? null : lang, items };
  return { content: prettyJson(fields), fields };
}

/** Records the set's state as stored now as its next revision, unless unchanged (inside the writing transaction). */
export async function reviseDataset(trx: Db, siteId: number, name: string, lang: string, now: string): Promise<void> {
  const row = await trx
    .selectFrom("datasets")
    .select("items_json")
    .where("site_id", "=", siteId)
    .where("name", "=", name)
    .where("lang", "=", lang)
    .executeTakeFirst();
  if (row)
    await recordRevision(
      trx,
      siteId,
      "data",
      datasetObjectId(name, lang),
      datasetSnapshot(name, lang, DATASET_ITEMS.readOr(row.items_json, [])),
      now,
    );
}

/**
 * Before the set is deleted (inside the deleting transaction): its state kept as its last revision
 * (a set older than revisions gets its first here), then its trash entry (slug: its name).
 */
export async function trashDataset(trx: Db, siteId: number, name: string, lang: string, now: string): Promise<void> {
  await reviseDataset(trx, siteId, name, lang, now);
  await toTrash(trx, siteId, "data", datasetObjectId(name, lang), name, now);
}

// The write pipeline names a written set by its object id (datasetObjectId).
revisedBy("dataset", async (trx, siteId, ids, now) => {
  for (const id of ids) {
    const { name, lang } = datasetOfObjectId(id);
    await reviseDataset(trx, siteId, name, lang, now);
  }
});
