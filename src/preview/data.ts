// The `data` of a preview: each `{<name>: items}` replaces the shared data set of that name, or
// adds it, and `{<name>.<lang>: items}` that language's variant, inside the preview's
// transaction, checked as PUT /data/{name} checks it (400 invalid_dataset_name, invalid_field,
// unknown_language), an editor's HTML sanitised as a save would store it. They are written before
// the frames, so a frame previewed with them knows the sets (no `unknown_source`). Data-set names
// hold no dot, so `team.de` can only be the set `team` in `de`.
import { gmt } from "../clock.ts";
import { fail, ServiceError } from "../errors.ts";
import { datasetNameFrom, itemsFrom, itemsJson } from "../data/datasets.ts";
import { datasetObjectId } from "../data/revision.ts";
import type { ContentGate } from "../pages/authored-html.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import type { Db } from "../store/database.ts";

/** The most data sets one preview may replace or add. */
export const MAX_PREVIEW_DATA = 50;

/** A data set or variant as the preview writes it (`lang` "" for the shared set). */
export interface PreviewDataset {
  name: string;
  lang: string;
  json: string;
  total: number;
}

/** A refusal of one entry, naming it as `data.<key>`. */
function named<T>(key: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof ServiceError)
      throw new ServiceError(error.code, error.message, { ...error.details, field: `data.${key}` });
    throw error;
  }
}

/** The `data` object of the body, each entry checked as PUT /data/{name} checks its set. */
export async function dataInputs(
  db: Db,
  siteId: number,
  value: Readonly<Record<string, unknown>> | null | undefined,
  gate: ContentGate,
): Promise<PreviewDataset[]> {
  if (value === undefined || value === null) return [];
  const entries = Object.entries(value);
  if (entries.length > MAX_PREVIEW_DATA)
    throw fail(
      "invalid_field",
      { field: "data", max_items: MAX_PREVIEW_DATA },
      `data holds more than ${MAX_PREVIEW_DATA} data sets.`,
    );
  const langs = entries.some(([key]) => key.includes(".")) ? await languageState(db, siteId) : null;
  return entries.map(([key, raw]) =>
    named(key, () => {
      const dot = key.indexOf(".");
      const name = datasetNameFrom(dot === -1 ? key : key.slice(0, dot));
      const lang = dot === -1 || langs === null ? "" : (checkLangIn(langs, key.slice(dot + 1)) ?? "");
      const items = gate.values(itemsFrom(raw), `data.${key}`);
      return { name, lang, json: itemsJson(items), total: items.length };
    }),
  );
}

/** Writes the previewed sets in `trx`; answers their object ids (`team`, `team:de`). */
export async function writePreviewData(
  trx: Db,
  siteId: number,
  now: number,
  sets: readonly PreviewDataset[],
): Promise<string[]> {
  const at = gmt(now);
  for (const set of sets) {
    const updated = await trx
      .updateTable("datasets")
      .set({ items_json: set.json, total: set.total, updated_at_gmt: at })
      .where("site_id", "=", siteId)
      .where("name", "=", set.name)
      .where("lang", "=", set.lang)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0)
      await trx
        .insertInto("datasets")
        .values({
          site_id: siteId,
          name: set.name,
          lang: set.lang,
          items_json: set.json,
          total: set.total,
          created_at_gmt: at,
          updated_at_gmt: at,
        })
        .execute();
  }
  return sets.map((set) => datasetObjectId(set.name, set.lang));
}
