// What a page has of a post (docs/content-model.md, "Dates, tags and feeds"): its publication
// `date` (ISO 8601 in the API, `YYYY-MM-DD HH:MM:SS` UTC as stored), its `tags` (a list of texts)
// and `feed` (whether it publishes an Atom feed of its list). Read from a write's body, every wrong
// type or value a 400 `invalid_field` naming the field; read back from a row for records and items.
import { Type } from "@sinclair/typebox";
import { fail } from "../errors.ts";
import { jsonColumn } from "../store/json-column.ts";
import type { PageRow } from "./queries.ts";

/** A page holds at most this many tags, each of at most MAX_TAG characters. */
export const MAX_TAGS = 100;
export const MAX_TAG = 200;

/**
 * `2024-03-05`, `2024-03-05T09:30`, `2024-03-05T09:30:00Z`, `2024-03-05T09:30:00.123+02:00`, or a
 * space for the `T`; without an offset the time is UTC (WordPress's `date_gmt`). Years 1000 to 9999.
 */
const ISO_DATE =
  /^(\d{4})-(\d\d)-(\d\d)(?:[Tt ](\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,9})?)?)?\s*(?:([Zz])|([+-])(\d\d):?(\d\d))?$/;

function invalidDate(value: unknown): never {
  throw fail(
    "invalid_field",
    { field: "date", expected: "an ISO 8601 date or date-time (2024-03-05T09:30:00Z)", date: value },
    "date must be an ISO 8601 date or date-time, such as 2024-03-05T09:30:00Z.",
  );
}

/** Two digits. */
const two = (n: number) => String(n).padStart(2, "0");

/** A moment as stored: `YYYY-MM-DD HH:MM:SS`, UTC. */
function storedOf(at: Date): string {
  return `${at.getUTCFullYear()}-${two(at.getUTCMonth() + 1)}-${two(at.getUTCDate())} ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}`;
}

/** `date` of a write: the stored form; null clears it (absent: undefined, what is stored stays). */
export function dateFrom(value: unknown): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== "string" || value.length > 64) invalidDate(value);
  const m = ISO_DATE.exec(value.trim());
  if (!m) invalidDate(value);
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
  const offset = m[8] === undefined ? 0 : (m[8] === "-" ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10]));
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Out-of-range parts (Feb 30, 25:00) roll over in Date.UTC: refused rather than moved.
  if (
    year < 1000 ||
    local.getUTCMonth() !== month - 1 ||
    local.getUTCDate() !== day ||
    local.getUTCHours() !== hour ||
    local.getUTCMinutes() !== minute ||
    local.getUTCSeconds() !== second ||
    Math.abs(offset) > 18 * 60
  )
    invalidDate(value);
  const at = new Date(local.getTime() - offset * 60_000);
  if (at.getUTCFullYear() < 1000 || at.getUTCFullYear() > 9999) invalidDate(value);
  return storedOf(at);
}

/** A stored date as the API writes it (`2024-03-05T09:30:00Z`); null for none. */
export function isoDate(stored: string | null): string | null {
  if (stored === null) return null;
  return /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(stored) ? `${stored.replace(" ", "T")}Z` : stored;
}

/** `tags` of a write: trimmed texts, duplicates and empty ones dropped; null is none. */
export function tagsFrom(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (value === null) return [];
  if (!Array.isArray(value))
    throw fail("invalid_field", { field: "tags", expected: "a list of texts" }, "tags must be a list of texts.");
  const out: string[] = [];
  value.forEach((tag, i) => {
    if (typeof tag !== "string")
      throw fail("invalid_field", { field: `tags.${i}`, expected: "a text" }, "Each tag must be a text.");
    const text = tag.trim();
    if (text.length > MAX_TAG)
      throw fail(
        "invalid_field",
        { field: `tags.${i}`, max_length: MAX_TAG },
        `A tag is at most ${MAX_TAG} characters.`,
      );
    if (text !== "" && !out.includes(text)) out.push(text);
  });
  if (out.length > MAX_TAGS)
    throw fail("invalid_field", { field: "tags", max_items: MAX_TAGS }, `A page has at most ${MAX_TAGS} tags.`);
  return out;
}

/** A page's tags as stored (`tags_json`). */
export const PAGE_TAGS = jsonColumn("pages.tags_json", Type.Array(Type.String()));

/** The page's tags; none when the stored value is not a list of texts. */
export function tagsOf(row: Pick<PageRow, "tags_json">): string[] {
  return PAGE_TAGS.readOr(row.tags_json, []);
}

/** The date, tags and feed a revision's state keeps, as stored columns; a state from before them has none. */
export function postColumnsOfState(state: Record<string, unknown>): {
  date_gmt: string | null;
  tags_json: string;
  feed: number;
} {
  const readOr = <T>(read: () => T, fallback: T): T => {
    try {
      return read();
    } catch {
      return fallback;
    }
  };
  return {
    date_gmt: readOr(() => dateFrom(state.date) ?? null, null),
    tags_json: JSON.stringify(readOr(() => tagsFrom(state.tags) ?? [], [])),
    feed: state.feed === true ? 1 : 0,
  };
}
