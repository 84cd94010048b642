// Strings per language (docs/markup.md "Strings per language"): texts frames print with `t.<key>`,
// in the page's language, else the default language's. `PUT /strings {lang?, strings}` replaces
// the texts of one language (default: the default language); `GET /strings` answers every
// language's. A write announces the keys whose text changed in that language.
import { fail } from "../errors.ts";
import type { Rebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import type { SiteRow } from "../site/sites.ts";
import { utf8Bytes } from "../quotas/bytes.ts";

const KEY = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
export const MAX_KEY = 200;
export const MAX_TEXT = 10_000;
export const MAX_STRINGS = 5_000;

/** The key a language's texts are stored under: its code, or '' on a site without languages. */
async function storedLang(
  ctx: Pick<ServiceContext, "db">,
  site: SiteRow,
  given: unknown,
): Promise<{ key: string; lang: string | null }> {
  const state = await languageState(ctx.db, site.id);
  const lang = checkLangIn(state, given) ?? state.defaultLang;
  return { key: state.active ? (lang ?? "") : "", lang: state.active ? lang : state.defaultLang };
}

/** The texts of a body (an object of strings, by the route schema): keys, lengths and count checked. */
function textsFrom(value: Readonly<Record<string, string>>): Map<string, string> {
  const entries = Object.entries(value);
  if (entries.length > MAX_STRINGS)
    throw fail(
      "bad_strings",
      { field: "strings", max_strings: MAX_STRINGS },
      `A language holds at most ${MAX_STRINGS} strings.`,
    );
  const out = new Map<string, string>();
  for (const [key, text] of entries) {
    if (key.length > MAX_KEY || !KEY.test(key))
      throw fail(
        "bad_strings",
        { field: `strings.${key}`, key, pattern: KEY.source },
        `"${key}" is not a string key: dot-separated segments of letters, digits, _ and -.`,
      );
    if (text.length > MAX_TEXT)
      throw fail(
        "bad_strings",
        { field: `strings.${key}`, key, max_length: MAX_TEXT },
        `The text of "${key}" is longer than ${MAX_TEXT} characters.`,
      );
    out.set(key, text);
  }
  return out;
}

const weight = (key: string, text: string) => utf8Bytes(key) + utf8Bytes(text);

export async function readStrings(ctx: Pick<ServiceContext, "db">, site: SiteRow, query: { lang?: unknown }) {
  const state = await languageState(ctx.db, site.id);
  const only = query.lang === undefined || query.lang === "" ? null : checkLangIn(state, query.lang);
  const rows = await ctx.db
    .selectFrom("strings")
    .select(["lang", "key", "text"])
    .where("site_id", "=", site.id)
    .orderBy("lang")
    .orderBy("key")
    .execute();
  const codes = state.active ? state.codes : [state.defaultLang ?? ""];
  const strings: Record<string, Record<string, string>> = {};
  for (const code of codes) {
    if (only !== null && code !== only) continue;
    const stored = state.active ? code : "";
    strings[code] = Object.fromEntries(rows.filter((row) => row.lang === stored).map((row) => [row.key, row.text]));
  }
  return { default_lang: state.defaultLang, strings };
}

/** PUT /strings: replaces the texts of a language; rebakes the frames reading the keys that changed. */
export async function putStrings(
  ctx: ServiceContext,
  site: SiteRow,
  body: { strings: Readonly<Record<string, string>>; lang?: string | null },
): Promise<{ lang: string | null; strings: Record<string, string>; rebaked: Rebaked }> {
  const texts = textsFrom(body.strings);
  const { key, lang } = await storedLang(ctx, site, body.lang);
  const { rebaked } = await runWrite(ctx, {
    siteId: site.id,
    // Longer texts print wherever frames print them: within the render budgets, or not at all.
    trial: true,
    apply: async (trx) => {
      // Read under the site's counters (the pipeline took them): no counted write changes them meanwhile.
      const before = new Map(
        (
          await trx
            .selectFrom("strings")
            .select(["key", "text"])
            .where("site_id", "=", site.id)
            .where("lang", "=", key)
            .execute()
        ).map((row) => [row.key, row.text]),
      );
      let delta = 0;
      for (const [k, text] of before) delta -= weight(k, text);
      for (const [k, text] of texts) delta += weight(k, text);
      await trx.deleteFrom("strings").where("site_id", "=", site.id).where("lang", "=", key).execute();
      const rows = [...texts].map(([k, text]) => ({ site_id: site.id, lang: key, key: k, text }));
      for (let i = 0; i < rows.length; i += 500)
        await trx
          .insertInto("strings")
          .values(rows.slice(i, i + 500))
          .execute();
      const keys = [...new Set([...before.keys(), ...texts.keys()])]
        .filter((k) => before.get(k) !== texts.get(k))
        .sort();
      return {
        value: null,
        // The language's texts, by the code they are stored under ('' on a site without languages).
        wrote: [{ kind: "strings", id: key, action: "updated" }],
        // Nothing to publish when no text changed.
        changes: keys.length > 0 ? [{ kind: "strings", keys }] : [],
        room: { stored_bytes: delta },
      };
    },
  });
  return { lang, strings: Object.fromEntries([...texts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), rebaked };
}
