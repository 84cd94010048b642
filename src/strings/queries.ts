// Reads of the strings table for renders: the texts of some keys in a language, else in the
// default language, in one query.
import type { Db } from "../store/database.ts";

/** The texts of these keys in `lang`, else in `fallback` (the default language); a key without either is absent. */
export async function stringTexts(
  db: Db,
  siteId: number,
  keys: readonly string[],
  lang: string | null,
  fallback: string | null,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (keys.length === 0) return out;
  const langs = [...new Set([lang ?? "", fallback ?? "", ""])];
  const rows = await db
    .selectFrom("strings")
    .select(["lang", "key", "text"])
    .where("site_id", "=", siteId)
    .where("lang", "in", langs)
    .where("key", "in", [...keys])
    .execute();
  for (const wanted of [lang ?? "", fallback ?? "", ""]) {
    for (const row of rows) if (row.lang === wanted && !out.has(row.key)) out.set(row.key, row.text);
  }
  return out;
}
