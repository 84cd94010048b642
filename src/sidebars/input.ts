// Reading a sidebar write (docs/sidebars.md): the name, and a tree of items or a root
// page. An input item is `{page, label?}` (a page id, slug or path, as in menus), `{url, label}`,
// or a section `{label, items, open?}`; any of them may carry the `id` of an item it keeps. Every
// problem of a tree is collected and answered at once (400 bad_items with `errors`, as menus).
import { fail } from "../errors.ts";
import { isDatasetName, DATASET_NAME_PATTERN, MAX_DATASET_NAME } from "../data/datasets.ts";
import { pageRefOf, pageRefProblem, urlProblem, type PageRef } from "../menus/input.ts";
import { urlOf } from "../menus/links.ts";

export const MAX_SIDEBAR_ITEMS = 2000;
export const MAX_SIDEBAR_DEPTH = 8;
export const MAX_LABEL = 500;

export type ItemIn =
  | { kind: "page"; id: number | null; page: PageRef; label: string | null; at: string }
  | { kind: "link"; id: number | null; url: string; label: string; at: string }
  | { kind: "section"; id: number | null; label: string; open: boolean; items: ItemIn[]; at: string };

export interface Problem {
  at: string;
  field?: string;
  message: string;
}

/** The sidebar name of a path: the data-set name rule, as written; otherwise 400 invalid_sidebar_name. */
export function sidebarNameFrom(value: string): string {
  if (!isDatasetName(value))
    throw fail("invalid_sidebar_name", { name: value, pattern: DATASET_NAME_PATTERN, max_length: MAX_DATASET_NAME });
  return value;
}

const ITEM_KEYS = new Set(["id", "page", "url", "label", "items", "open"]);
/** Keys of an answered item: sent back in a tree they are ignored. */
const ANSWER_KEYS = new Set(["valid", "type"]);

function labelOf(value: unknown, at: string, problems: Problem[], required: boolean): string | null {
  if (value === undefined || value === null) {
    if (required) problems.push({ at, field: "label", message: "label is needed here." });
    return null;
  }
  if (typeof value !== "string") {
    problems.push({ at, field: "label", message: "label must be a string." });
    return null;
  }
  const label = value.trim();
  if (label.length > MAX_LABEL)
    problems.push({ at, field: "label", message: `label is longer than ${MAX_LABEL} characters.` });
  if (required && label === "") problems.push({ at, field: "label", message: "label is empty." });
  return label === "" ? null : label;
}

function idOf(value: unknown, at: string, problems: Problem[]): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return value;
  problems.push({ at, field: "id", message: "id must be the positive id of an item of this sidebar." });
  return null;
}

/** One item (and its own items) at coordinate `at` (`1.0` is the first item of the second top-level one). */
function itemOf(raw: unknown, at: string, depth: number, problems: Problem[], count: { n: number }): ItemIn | null {
  count.n++;
  if (typeof raw === "number" || typeof raw === "string") raw = { page: raw };
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    problems.push({ at, message: "An item is an object: {page}, {url, label} or {label, items}." });
    return null;
  }
  const input = raw as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!ITEM_KEYS.has(key) && !ANSWER_KEYS.has(key))
      problems.push({ at, field: key, message: `"${key}" is not a field of a sidebar item.` });
  }
  const id = idOf(input.id, at, problems);
  // A fetched tree goes back as it came: an answered page item carries its address (`url`), and
  // page and link items an empty `items`; those are not read as the item's kind.
  const present = (v: unknown) => v !== undefined && v !== null;
  const hasPage = present(input.page);
  const hasUrl = present(input.url) && !hasPage;
  const hasItems =
    present(input.items) && !(Array.isArray(input.items) && input.items.length === 0 && (hasPage || hasUrl));
  if ([hasPage, hasUrl, hasItems].filter(Boolean).length !== 1) {
    problems.push({ at, message: "An item has exactly one of page (a page), url (a link) or items (a section)." });
    return null;
  }
  if (hasPage) {
    const page = input.page;
    const problem =
      typeof page === "string" || (typeof page === "number" && Number.isSafeInteger(page) && page > 0)
        ? pageRefProblem(page)
        : "page must be a positive page id, a slug or a path.";
    if (problem) problems.push({ at, field: "page", message: problem });
    const label = labelOf(input.label, at, problems, false);
    return problem ? null : { kind: "page", id, page: pageRefOf(input.page as number | string), label, at };
  }
  if (hasUrl) {
    const problem = typeof input.url === "string" ? urlProblem(input.url) : "url must be a string.";
    if (problem) problems.push({ at, field: "url", message: problem });
    const label = labelOf(input.label, at, problems, true);
    return problem || label === null ? null : { kind: "link", id, url: urlOf(input.url as string), label, at };
  }
  const label = labelOf(input.label, at, problems, true);
  if (input.open !== undefined && input.open !== null && typeof input.open !== "boolean")
    problems.push({ at, field: "open", message: "open must be true or false." });
  if (!Array.isArray(input.items)) {
    problems.push({ at, field: "items", message: "items must be an array." });
    return null;
  }
  if (depth >= MAX_SIDEBAR_DEPTH) {
    problems.push({ at, field: "items", message: `A sidebar is at most ${MAX_SIDEBAR_DEPTH} levels deep.` });
    return null;
  }
  const items = itemsOf(input.items, `${at}.`, depth + 1, problems, count);
  return label === null ? null : { kind: "section", id, label, open: input.open === true, items, at };
}

function itemsOf(
  raw: readonly unknown[],
  prefix: string,
  depth: number,
  problems: Problem[],
  count: { n: number },
): ItemIn[] {
  const out: ItemIn[] = [];
  raw.forEach((value, i) => {
    if (count.n >= MAX_SIDEBAR_ITEMS) return;
    const item = itemOf(value, `${prefix}${i}`, depth, problems, count);
    if (item) out.push(item);
  });
  return out;
}

/** The items of a PUT: every problem at once as 400 bad_items; more than 2,000 items 400 too_many_items. */
export function treeFrom(value: unknown): ItemIn[] {
  if (!Array.isArray(value))
    throw fail(
      "bad_items",
      { errors: [{ at: "", field: "items", message: "items must be an array of items." }] },
      "items must be an array of sidebar items.",
    );
  const problems: Problem[] = [];
  const count = { n: 0 };
  const items = itemsOf(value, "", 0, problems, count);
  if (count.n > MAX_SIDEBAR_ITEMS || countAll(value) > MAX_SIDEBAR_ITEMS)
    throw fail(
      "too_many_items",
      { max_items: MAX_SIDEBAR_ITEMS },
      `A sidebar holds at most ${MAX_SIDEBAR_ITEMS} items.`,
    );
  // Same shape as menus' refusal: `errors`, each with the item's coordinate.
  const seen = new Set<number>();
  for (const item of flattenIn(items)) {
    if (item.id === null) continue;
    if (seen.has(item.id)) problems.push({ at: item.at, field: "id", message: `id ${item.id} is given to two items.` });
    seen.add(item.id);
  }
  if (problems.length > 0)
    throw fail(
      "bad_items",
      { errors: problems.slice(0, 50), total_errors: problems.length },
      "The items are not a valid sidebar tree (see errors).",
    );
  return items;
}

/** Items counted at every depth, without recursion (a hostile tree may be deep). */
function countAll(value: readonly unknown[]): number {
  let n = 0;
  const stack: unknown[] = [...value];
  while (stack.length > 0 && n <= MAX_SIDEBAR_ITEMS) {
    const item = stack.pop();
    n++;
    const items = item !== null && typeof item === "object" ? (item as { items?: unknown }).items : undefined;
    if (Array.isArray(items)) stack.push(...items);
  }
  return n;
}

/** Every input item, parents first. */
export function flattenIn(items: readonly ItemIn[]): ItemIn[] {
  const out: ItemIn[] = [];
  const stack = [...items].reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    out.push(item);
    if (item.kind === "section") for (let i = item.items.length - 1; i >= 0; i--) stack.push(item.items[i]);
  }
  return out;
}
