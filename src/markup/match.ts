// `match` of `svc/repeat` and of POST /data/resolve (docs/content-model.md, "Data sources"): values
// compare as strings, so `"3"` equals `3` and `"3 "` does not; a list of values is any of them;
// `null` is a value absent or null; an item's list (tags) matches when one element does; dotted
// keys reach into objects and lists. Pure; the one implementation the resolver (data/sources.ts)
// and the renderer (render.ts) share (they had two, with different rules).

export type Match = Readonly<Record<string, unknown>>;

/**
 * The value at a dotted path (`fields.category`, `tags.0`). A key that itself holds a dot is
 * found first (`{"a.b": 1}`); array elements are reached by index.
 */
export function valueAt(item: unknown, path: string): unknown {
  if (item !== null && typeof item === "object" && Object.hasOwn(item, path))
    return (item as Record<string, unknown>)[path];
  let at: unknown = item;
  for (const key of path.split(".")) {
    if (at === null || typeof at !== "object" || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** The string a value compares as: itself for a string, `String(v)` for a number or boolean, JSON for an object; null for none. */
export function asMatchString(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}

function same(actual: unknown, expected: unknown): boolean {
  const e = asMatchString(expected);
  const a = asMatchString(actual);
  return e === null ? a === null : a === e;
}

/**
 * One value against an expectation. An expected array is "any of these"; an actual array (tags)
 * matches when one of its elements does; `null` expects the value to be absent or null.
 */
export function matchesValue(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) return expected.some((one) => matchesValue(actual, one));
  if (Array.isArray(actual)) return actual.some((one) => same(one, expected));
  return same(actual, expected);
}

/** Every key of `match` holds for the item. An empty match keeps every item. */
export function matches(item: unknown, match: Match): boolean {
  for (const [path, expected] of Object.entries(match)) {
    if (!matchesValue(valueAt(item, path), expected)) return false;
  }
  return true;
}

export function matchItems<T>(items: readonly T[], match: Match | undefined): T[] {
  if (!match || Object.keys(match).length === 0) return [...items];
  return items.filter((item) => matches(item, match));
}
