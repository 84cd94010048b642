// The order of a list (docs/markup.md, "Lists"): `order_by` of svc/repeat and of POST /data/resolve.
// A key is `date`, `modified`, `title`, `menu_order` or `fields.<name>` (a dotted path, as match
// reads it); a leading `-` sorts descending. Numbers compare as numbers and come before texts;
// texts compare in the language's collation (case aside, digits as numbers: `Part 2` before
// `Part 10`); an item without the value comes last either way, as SQL's NULLS LAST puts it. Equal
// values are ordered by `id` in the same direction (the newer page first under `-date`), and
// items without an id keep their order. Pure; one implementation for the renderer and the resolver.
import { valueAt } from "./match.ts";

export interface OrderBy {
  /** The item path sorted by: `date`, `modified`, `title`, `menu_order` or `fields.<name>`. */
  key: string;
  descending: boolean;
}

/** The keys `order_by` takes besides `fields.<name>`. */
export const ORDER_KEYS: readonly string[] = ["date", "modified", "title", "menu_order"];

/** `fields.` and a dotted path of non-empty segments without white space. */
const FIELD_KEY = /^fields(\.[^.\s]+)+$/;

/** At most this many characters: an order is a key, not a text. */
const MAX_ORDER_BY = 200;

/** The order `value` names; undefined when it names none (not a string, or an unknown key). */
export function parseOrderBy(value: unknown): OrderBy | undefined {
  if (typeof value !== "string" || value.length > MAX_ORDER_BY) return undefined;
  const text = value.trim();
  const descending = text.startsWith("-");
  const key = descending ? text.slice(1) : text;
  if (!ORDER_KEYS.includes(key) && !FIELD_KEY.test(key)) return undefined;
  return { key, descending };
}

/** `order_by` as written back: the key, `-` first when descending. */
export function orderByText(order: OrderBy): string {
  return order.descending ? `-${order.key}` : order.key;
}

const collators = new Map<string, Intl.Collator>();

/** The collation of a language (English for none, or for a code Intl does not know). */
function collatorOf(lang: string | null): Intl.Collator {
  const code = lang ?? "en";
  let collator = collators.get(code);
  if (collator === undefined) {
    let locale = "en";
    try {
      locale = Intl.Collator.supportedLocalesOf([code])[0] ?? "en";
    } catch {
      // A code Intl refuses: English.
    }
    collator = new Intl.Collator(locale, { sensitivity: "accent", numeric: true });
    collators.set(code, collator);
  }
  return collator;
}

/** A value as it sorts: a number, a text, or absent. Booleans and objects sort as their text. */
function sortable(value: unknown): number | string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string") return value;
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** Two present values in ascending order: numbers first, by value; then texts, collated. */
function compareValues(a: number | string, b: number | string, collator: Intl.Collator): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return collator.compare(a, b);
}

/** Ids in ascending order (numbers by value, texts by code units); 0 when either has none. */
function compareIds(a: unknown, b: unknown): number {
  const x = sortable(valueAt(a, "id"));
  const y = sortable(valueAt(b, "id"));
  if (x === undefined || y === undefined) return 0;
  if (typeof x === "number" && typeof y === "number") return x - y;
  if (typeof x === "number") return -1;
  if (typeof y === "number") return 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The items in `order` (a new list; the sort is stable), texts collated in `lang`. */
export function orderItems<T>(items: readonly T[], order: OrderBy, lang: string | null): T[] {
  const collator = collatorOf(lang);
  const sign = order.descending ? -1 : 1;
  const keyed = items.map((item) => ({ item, value: sortable(valueAt(item, order.key)) }));
  keyed.sort((a, b) => {
    if (a.value === undefined || b.value === undefined) {
      // Absent values last, whichever the direction.
      if (a.value === undefined && b.value === undefined) return sign * compareIds(a.item, b.item);
      return a.value === undefined ? 1 : -1;
    }
    return sign * (compareValues(a.value, b.value, collator) || compareIds(a.item, b.item));
  });
  return keyed.map((entry) => entry.item);
}
