// A file's alt text and title, one per language: `{"en": "A beach"}`. A plain string is
// the default language's. A site without languages keeps its texts under its language setting
// (`default_lang`), or under "" when it has none, so they carry over once languages are added.
import { fail } from "../errors.ts";
import { checkLangIn, type LanguageState } from "../site/languages.ts";
import { Type } from "@sinclair/typebox";
import { jsonColumn } from "../store/json-column.ts";

export type Texts = Record<string, string>;
/** A write's changes: a text per language, null (or "") removing that language's. */
export type TextChanges = Record<string, string | null>;

export const MAX_TEXT_LENGTH = 1000;

/** The key a plain string is stored under. */
export function defaultTextKey(state: LanguageState): string {
  return state.defaultLang ?? "";
}

function textValue(value: unknown, field: string): string | null {
  if (value === null || value === "") return null;
  if (typeof value !== "string")
    throw fail("invalid_field", { field, expected: "a string or null" }, `${field} must be a string or null.`);
  if (value.length > MAX_TEXT_LENGTH)
    throw fail(
      "invalid_field",
      { field, max_length: MAX_TEXT_LENGTH },
      `${field} is longer than ${MAX_TEXT_LENGTH} characters.`,
    );
  return value;
}

/**
 * The changes `alt` or `title` asks for: a string sets the default language's text, an object
 * sets each language named (each a language of the site, checked as every `lang` is), null
 * removes them all (answered as `"all"`).
 */
export function textChangesFrom(value: unknown, field: string, state: LanguageState): TextChanges | "all" {
  if (value === null) return "all";
  const key = defaultTextKey(state);
  if (typeof value === "string") return { [key]: textValue(value, field) };
  if (typeof value !== "object" || Array.isArray(value)) {
    throw fail(
      "invalid_field",
      { field, expected: 'a string, {"<lang>": "…"} or null' },
      `${field} must be a string (the default language's), an object of texts by language, or null.`,
    );
  }
  const changes: TextChanges = {};
  for (const [lang, text] of Object.entries(value as Record<string, unknown>)) {
    const code = lang === key ? key : checkLangIn(state, lang, `${field}.${lang}`);
    changes[code ?? key] = textValue(text, `${field}.${lang}`);
  }
  return changes;
}

/** Texts after changes. */
export function applyTexts(texts: Texts, changes: TextChanges | "all" | undefined): Texts {
  if (changes === undefined) return texts;
  if (changes === "all") return {};
  const out: Texts = { ...texts };
  for (const [lang, text] of Object.entries(changes)) {
    if (text === null) delete out[lang];
    else out[lang] = text;
  }
  return out;
}

/** A file's texts as stored (`media.alt_json`, `media.title_json`): a text per language. */
const STORED_TEXTS = jsonColumn("media.alt_json/title_json", Type.Record(Type.String(), Type.String()));

/** The stored texts; none when they do not read, so a render prints the file without them. */
export function parseTexts(json: string): Texts {
  return STORED_TEXTS.readOr(json, {});
}

/** What `?search=` looks in: the file name and every text, lower-cased. */
export function searchTextOf(filename: string, alt: Texts, title: Texts): string {
  return [filename, ...Object.values(alt), ...Object.values(title)].join("\n").toLowerCase();
}
