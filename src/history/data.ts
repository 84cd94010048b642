// Data sets' history (docs/revisions.md "Data sets"): one object per name and language
// variant, kept under `name` (the shared set) or `name:lang` (data/revision.ts), found by the name
// and `?lang`. A restore writes the revision's items back through PUT /data/{name} (checked,
// revised, published); a set brought back from the trash is written again under its name and
// language, unless one was made there meanwhile (409 slug_taken with its id).
import { datasetNameFrom, datasetNotFound, putDataset, type DatasetWriteAnswer } from "../data/datasets.ts";
import { datasetOfObjectId, datasetSnapshot, datasetObjectId } from "../data/revision.ts";
import { DATASET_ITEMS } from "../data/items-column.ts";
import { Type } from "@sinclair/typebox";
import { jsonColumn } from "../store/json-column.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import type { HistoryKind, RestoreAnswer, StoredState } from "./kind.ts";

/** A data set's revision content: `{name, lang, items}` as JSON (data/revision.ts). */
const REVISION_CONTENT = jsonColumn("revisions.content (data)", Type.Object({ items: Type.Optional(Type.Unknown()) }));

/** The items a revision holds (its fields; its content when they lack them). */
function itemsOf(state: StoredState): unknown {
  if (Array.isArray(state.fields.items)) return state.fields.items;
  return REVISION_CONTENT.read(state.content).items;
}

function answerOf(done: DatasetWriteAnswer): RestoreAnswer {
  return { body: { dataset: done.dataset, created: done.created, rebaked: done.rebaked, warnings: done.warnings } };
}

export const dataHistory: HistoryKind = {
  kind: "data",
  written: "dataset",
  path: "/data/:name",
  param: "name",
  addressOf(id) {
    const { name, lang } = datasetOfObjectId(id);
    return `/data/${encodeURIComponent(name)}${lang === "" ? "" : `?lang=${encodeURIComponent(lang)}`}`;
  },
  noun: "data set",
  langVariants: true,

  async locate(call, ref) {
    const name = datasetNameFrom(ref);
    const lang = checkLangIn(await languageState(call.ctx.db, call.site.id), call.query.lang) ?? "";
    const row = await call.ctx.db
      .selectFrom("datasets")
      .select("items_json")
      .where("site_id", "=", call.site.id)
      .where("name", "=", name)
      .where("lang", "=", lang)
      .executeTakeFirst();
    if (!row) throw datasetNotFound(name, lang);
    return {
      id: datasetObjectId(name, lang),
      current: datasetSnapshot(name, lang, DATASET_ITEMS.read(row.items_json)),
    };
  },

  async restore(call, id, state) {
    const { name, lang } = datasetOfObjectId(id);
    return answerOf(
      // A revision's items go back as they were stored (history/pages.ts says why).
      await putDataset(
        call.ctx,
        call.site,
        name,
        { items: itemsOf(state), lang: lang === "" ? null : lang },
        { markup: "raw" },
      ),
    );
  },

  async undelete(call, entry, state) {
    // putDataset takes it out of the trash when it makes the set, in its transaction.
    const { name, lang } = datasetOfObjectId(entry.id);
    return answerOf(
      await putDataset(
        call.ctx,
        call.site,
        name,
        { items: itemsOf(state), lang: lang === "" ? null : lang },
        { markup: "raw", onlyNew: true },
      ),
    );
  },
};
