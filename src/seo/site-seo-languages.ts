// A site's SEO defaults in every language (docs/seo.md, "Site defaults in every language"): the
// title template, description and image each language prints. The `site_seo` row holds the default
// language's (and, on a site without languages, the only ones); `site_seo_languages` holds what
// another language has of its own, null where it prints the default language's. Nothing moves when
// the default language changes: the languages without a value of their own go on printing the
// `site_seo` row's, the new default its own until the default language's value is written again.
import { fail } from "../errors.ts";
import { checkLangIn, type LanguageState } from "../site/languages.ts";
import type { Db } from "../store/database.ts";

export const LANGUAGE_KEYS = ["title_template", "description", "og_image"] as const;
export type LanguageKey = (typeof LANGUAGE_KEYS)[number];

/** A language's own values; null where it follows the default language's. */
export type LanguageSeo = Record<LanguageKey, string | null>;

/** The languages' own values as stored, by language code. */
export async function ownSeoByLanguage(db: Db, siteId: number): Promise<Map<string, LanguageSeo>> {
  const rows = await db
    .selectFrom("site_seo_languages")
    .select(["lang", ...LANGUAGE_KEYS])
    .where("site_id", "=", siteId)
    .execute();
  return new Map(rows.map(({ lang, ...own }) => [lang, own]));
}

/**
 * The values printed in `lang`: its own, else the site's row (`base`, its defaults applied). A site
 * without languages prints its row.
 */
export function valuesIn<T extends Record<LanguageKey, string | null>>(
  base: T,
  own: ReadonlyMap<string, LanguageSeo>,
  lang: string | null,
  langs: Pick<LanguageState, "active">,
): T {
  const mine = langs.active && lang !== null ? own.get(lang) : undefined;
  if (mine === undefined) return base;
  const out = { ...base };
  for (const key of LANGUAGE_KEYS) out[key] = (mine[key] ?? base[key]) as T[typeof key];
  return out;
}

/** PATCH /seo split by language: the default language's values (as plain values) and the others' own. */
export interface SplitPatch {
  plain: Record<string, unknown>;
  languages: Map<string, Partial<Record<LanguageKey, unknown>>>;
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Reads `{"en": …, "de": …}` values of the keys that have languages: the default language's value
 * (or a plain value) is written to the site's row, and clears that language's own value left from
 * before a change of the default; another language's is its own (null or "": it follows the
 * default). A code that is not the site's: 400 invalid_language_code or unknown_language, 409
 * multilang_inactive on a site without languages (site/languages.ts, the check of every `lang`).
 */
export function splitByLanguage(body: Record<string, unknown>, langs: LanguageState): SplitPatch {
  const plain = { ...body };
  const languages: SplitPatch["languages"] = new Map();
  const own = (lang: string) => {
    const values = languages.get(lang) ?? {};
    languages.set(lang, values);
    return values;
  };
  for (const key of LANGUAGE_KEYS) {
    if (!Object.hasOwn(body, key)) continue;
    const value = body[key];
    if (!isMap(value)) {
      if (langs.active && langs.defaultLang !== null) own(langs.defaultLang)[key] = null;
      continue;
    }
    delete plain[key];
    for (const [code, text] of Object.entries(value)) {
      const field = `${key}.${code}`;
      const lang = checkLangIn(langs, code, field);
      if (lang === null) throw fail("invalid_language_code", { field, [field]: code });
      if (lang === langs.defaultLang) {
        plain[key] = text;
        own(lang)[key] = null;
      } else own(lang)[key] = text;
    }
  }
  return { plain, languages };
}

/** Writes a language's own values (the keys given); a language left with none has no row. */
export async function writeLanguageSeo(
  trx: Db,
  siteId: number,
  lang: string,
  values: Partial<LanguageSeo>,
  at: string,
): Promise<void> {
  await trx
    .insertInto("site_seo_languages")
    .values({ site_id: siteId, lang, title_template: null, description: null, og_image: null, updated_at_gmt: at })
    .onConflict((oc) => oc.columns(["site_id", "lang"]).doNothing())
    .execute();
  await trx
    .updateTable("site_seo_languages")
    .set({ ...values, updated_at_gmt: at })
    .where("site_id", "=", siteId)
    .where("lang", "=", lang)
    .execute();
  await trx
    .deleteFrom("site_seo_languages")
    .where("site_id", "=", siteId)
    .where("lang", "=", lang)
    .where("title_template", "is", null)
    .where("description", "is", null)
    .where("og_image", "is", null)
    .execute();
}

/** Whether a language's own image is one of these media refs. */
export async function languageSeoUsesMedia(db: Db, siteId: number, refs: readonly string[]): Promise<boolean> {
  const row = await db
    .selectFrom("site_seo_languages")
    .select("lang")
    .where("site_id", "=", siteId)
    .where("og_image", "in", [...refs])
    .executeTakeFirst();
  return row !== undefined;
}
