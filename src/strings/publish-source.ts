// What the publish engine reads of strings (PublishSources.strings): the texts of some keys in a
// language, else in the default language, in one query.
import type { PublishSources } from "../publish/contract.ts";

export const stringPublishSource: PublishSources["strings"] = {
  async texts(db, siteId, keys, lang, fallback) {
    const out = new Map<string, string>();
    if (keys.length === 0) return out;
    const langs = [...new Set([lang ?? "", fallback ?? "", ""])];
    const rows = await db.selectFrom("strings").select(["lang", "key", "text"]).where("site_id", "=", siteId).where("lang", "in", langs).where("key", "in", [...keys]).execute();
    for (const wanted of [lang ?? "", fallback ?? "", ""]) {
      for (const row of rows) if (row.lang === wanted && !out.has(row.key)) out.set(row.key, row.text);
    }
    return out;
  },
};
