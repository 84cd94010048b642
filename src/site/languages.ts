// Languages ("the multilingual plugin", docs/content-model.md): inactive until a language is added;
// the default language has no address prefix, another has `/<code>/`. `checkLang` is the one check
// every capability runs on a `lang` input (pages, data, menus, frames).
import { fail } from "../errors.ts";
import type { Db } from "../store/database.ts";
import { languagesOf, settingsOf, type LanguageRow } from "./settings.ts";

export const LANGUAGE_CODE_PATTERN = "^[a-z]{2}(-[a-z]{2})?$";
const LANGUAGE_CODE = new RegExp(LANGUAGE_CODE_PATTERN);

/** Names given to a language added without one; any other code is named by its code. */
const KNOWN_NAMES: Record<string, string> = {
  ar: "العربية",
  cs: "Čeština",
  da: "Dansk",
  de: "Deutsch",
  el: "Ελληνικά",
  en: "English",
  es: "Español",
  et: "Eesti",
  fi: "Suomi",
  fr: "Français",
  he: "עברית",
  hu: "Magyar",
  it: "Italiano",
  ja: "日本語",
  ko: "한국어",
  lt: "Lietuvių",
  lv: "Latviešu",
  nb: "Norsk bokmål",
  nl: "Nederlands",
  pl: "Polski",
  pt: "Português",
  "pt-br": "Português do Brasil",
  ro: "Română",
  ru: "Русский",
  sk: "Slovenčina",
  sl: "Slovenščina",
  sv: "Svenska",
  tr: "Türkçe",
  uk: "Українська",
  zh: "中文",
};

export function defaultLanguageName(code: string): string {
  return KNOWN_NAMES[code] ?? code;
}

/** Codes are compared lower-cased and trimmed (`EN` is `en`). */
export function normalizeLangCode(value: string): string {
  return value.trim().toLowerCase();
}

export function isLanguageCode(value: string): boolean {
  return LANGUAGE_CODE.test(value);
}

/** A language code from input; 400 invalid_language_code when it is not one. */
export function languageCodeFrom(value: unknown, field = "code"): string {
  const code = typeof value === "string" ? normalizeLangCode(value) : "";
  if (!isLanguageCode(code))
    throw fail("invalid_language_code", { field, [field]: value ?? null, pattern: LANGUAGE_CODE_PATTERN });
  return code;
}

export interface LanguageRecord {
  code: string;
  name: string;
  default: boolean;
  /** "" for the default language, `/<code>/` for the others. */
  prefix: string;
}

/** Where a site stands with languages: the facts every address and `lang` check needs. */
export interface LanguageState {
  active: boolean;
  /** The default language while active; while inactive, the site's language setting (may be null). */
  defaultLang: string | null;
  /** Codes in the order they were added. */
  codes: string[];
  rows: LanguageRow[];
}

export async function languageState(db: Db, siteId: number): Promise<LanguageState> {
  const [rows, settings] = await Promise.all([languagesOf(db, siteId), settingsOf(db, siteId)]);
  const codes = rows.map((row) => row.code);
  const active = rows.length > 0;
  const stored = settings.default_lang;
  const defaultLang = active ? (stored !== null && codes.includes(stored) ? stored : codes[0]) : stored;
  return { active, defaultLang, codes, rows };
}

export function languageRecords(state: LanguageState): LanguageRecord[] {
  return state.rows.map((row) => ({
    code: row.code,
    name: row.name,
    default: row.code === state.defaultLang,
    prefix: row.code === state.defaultLang ? "" : `/${row.code}/`,
  }));
}

/** The address prefix of a language: "" for none, the default, or while inactive; else `/<code>`. */
export function langPathPrefix(state: LanguageState, lang: string | null): string {
  if (!state.active || lang === null || lang === "" || lang === state.defaultLang) return "";
  return `/${lang}`;
}

/**
 * The shared check of a `lang` input against a known state: absent (undefined, null, "") is
 * null; while the site has no languages any value answers 409 multilang_inactive; a malformed
 * code 400 invalid_language_code; a code the site does not have 400 unknown_language with
 * `languages`. Returns the normalized code.
 */
export function checkLangIn(state: LanguageState, lang: unknown, field = "lang"): string | null {
  if (lang === undefined || lang === null || lang === "") return null;
  if (!state.active) throw fail("multilang_inactive", { field, lang });
  const code = languageCodeFrom(lang, field);
  if (!state.codes.includes(code)) throw fail("unknown_language", { field, lang: code, languages: state.codes });
  return code;
}

/** `checkLangIn` for callers that have not loaded the site's languages. */
export async function checkLang(db: Db, siteId: number, lang: unknown, field = "lang"): Promise<string | null> {
  if (lang === undefined || lang === null || lang === "") return null;
  return checkLangIn(await languageState(db, siteId), lang, field);
}
