// Strings per language (docs/markup.md "Strings per language"): texts frames print with `t.<key>`,
// in the page's language, else the default language's. `PUT /strings {lang?, strings}` replaces
// the texts of one language (default: the default language); `PATCH /strings {lang?, strings}`
// merges keys into it (a key set to null goes); `GET /strings` answers every language's. A write
// announces the keys whose text changed in that language.
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

function badStrings(details: Record<string, unknown>, message: string): never {
  throw fail("bad_strings", details, message);
}

function tooMany(count: number): void {
  if (count > MAX_STRINGS)
    badStrings({ field: "strings", max_strings: MAX_STRINGS }, `A language holds at most ${MAX_STRINGS} strings.`);
}

/**
 * The texts of a body (an object of strings, by the route schema; with `removable`, null too: a
 * key to remove): keys, lengths and count checked.
 */
function textsFrom(value: Readonly<Record<string, string | null>>, removable = false): Map<string, string | null> {
  const entries = Object.entries(value);
  tooMany(entries.length);
  const out = new Map<string, string | null>();
  for (const [key, text] of entries) {
    if (key.length > MAX_KEY || !KEY.test(key))
      badStrings(
        { field: `strings.${key}`, key, pattern: KEY.source },
        `"${key}" is not a string key: dot-separated segments of letters, digits, _ and -.`,
      );
    if (text === null && !removable)
      badStrings(
        { field: `strings.${key}`, key },
        `The text of "${key}" is a string (PATCH /strings removes a key set to null).`,
      );
    if (text !== null && text.length > MAX_TEXT)
      badStrings(
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

export interface StringsWritten {
  lang: string | null;
  /** The language's texts after the write, by key. */
  strings: Record<string, string>;
  rebaked: Rebaked;
}

/**
 * A write of one language's texts: `after` makes its texts from those it had. Rebakes the frames
 * reading the keys that changed; nothing to publish when none did.
 */
async function writeStrings(
  ctx: ServiceContext,
  site: SiteRow,
  given: unknown,
  after: (before: ReadonlyMap<string, string>) => Map<string, string>,
): Promise<StringsWritten> {
  const { key, lang } = await storedLang(ctx, site, given);
  const { value: texts, rebaked } = await runWrite(ctx, {
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
      const texts = after(before);
      tooMany(texts.size);
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
        value: texts,
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

/** PUT /strings: replaces the texts of a language. */
export function putStrings(
  ctx: ServiceContext,
  site: SiteRow,
  body: { strings: Readonly<Record<string, string>>; lang?: string | null },
): Promise<StringsWritten> {
  const texts = textsFrom(body.strings) as Map<string, string>;
  return writeStrings(ctx, site, body.lang, () => texts);
}

/** PATCH /strings: merges keys into a language's texts; a key set to null is removed. */
export function patchStrings(
  ctx: ServiceContext,
  site: SiteRow,
  body: { strings: Readonly<Record<string, string | null>>; lang?: string | null },
): Promise<StringsWritten> {
  const changes = textsFrom(body.strings, true);
  return writeStrings(ctx, site, body.lang, (before) => {
    const texts = new Map(before);
    for (const [key, text] of changes) {
      if (text === null) texts.delete(key);
      else texts.set(key, text);
    }
    return texts;
  });
}
