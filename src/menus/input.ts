// Menu items as input: the fields of one item and their rules, shared by a whole tree
// (tree-input.ts) and the one-item calls (single-input.ts). Structure only: page references are
// resolved afterwards (resolve.ts). An item has exactly one of `page` (id, slug or path) or
// `url`; a bare value is a page reference.
import { fail } from "../errors.ts";
import { couldBePageAddress, MAX_URL, urlOf, urlProblem } from "./links.ts";

export { completeUrl, MAX_URL, urlProblem } from "./links.ts";

export type PageRef = number | string;

export interface ItemInput {
  /** Coordinate in the submitted tree: "1.0" is the first child of the second top-level item. */
  at: string;
  /** A whole-tree write keeps this stored item's id when the menu holds it (see parseTree). */
  id?: number;
  page?: PageRef;
  url?: string;
  /**
   * In a tree, a full address sent beside `page`: the answer's own when it is the page's address
   * (checked once the page is found, answered.ts); the item stays a page item.
   */
  pageUrl?: string;
  /** null: the default title (the page's, or the link's). */
  title: string | null;
  target: string;
  classes: string;
  children: ItemInput[];
}

export interface ItemProblem {
  at: string;
  field: string;
  message: string;
  /** An item id given more than once: the id, and where it is first given. */
  id?: number;
  first_at?: string;
}

export const MAX_TITLE = 1000;
export const MAX_TARGET = 64;
export const MAX_CLASSES = 1000;

/** Keys an input item may have. */
export const ITEM_KEYS = new Set(["page", "url", "title", "target", "classes", "children"]);
/** Keys of a response item: sent back in a tree they are ignored without a warning. */
export const ANSWER_KEYS = new Set(["id", "at", "type", "order", "valid", "invalid_reason"]);

export function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** A page reference, or a problem: a positive integer or a non-blank string. */
export function pageRefProblem(value: unknown): string | null {
  if (typeof value === "number")
    return Number.isSafeInteger(value) && value > 0 ? null : "page must be a positive page id, a slug or a path.";
  if (typeof value === "string") {
    if (value.trim() === "") return "page is empty.";
    if (value.length > MAX_URL) return `page is longer than ${MAX_URL} characters.`;
    return null;
  }
  return "page must be a page id, a slug or a path.";
}

export function pageRefOf(value: number | string): PageRef {
  return typeof value === "string" ? value.trim() : value;
}

export function textField(
  value: unknown,
  field: string,
  max: number,
  at: string,
  problems: ItemProblem[],
): string | null {
  if (!present(value)) return null;
  if (typeof value !== "string") {
    problems.push({ at, field, message: `${field} must be a string.` });
    return null;
  }
  const text = value.trim();
  if (text.length > max) problems.push({ at, field, message: `${field} is longer than ${max} characters.` });
  return text;
}

/** CSS classes: a string separated by spaces (or an array of strings), kept single-spaced. */
export function classesField(value: unknown, at: string, problems: ItemProblem[]): string {
  if (!present(value)) return "";
  const parts = Array.isArray(value) ? value : typeof value === "string" ? value.split(/\s+/) : null;
  if (parts === null || parts.some((part) => typeof part !== "string")) {
    problems.push({ at, field: "classes", message: "classes must be a string of class names separated by spaces." });
    return "";
  }
  const text = (parts as string[])
    .flatMap((part) => part.split(/\s+/))
    .filter((part) => part !== "")
    .join(" ");
  if (text.length > MAX_CLASSES)
    problems.push({ at, field: "classes", message: `classes is longer than ${MAX_CLASSES} characters.` });
  return text;
}

export interface FieldsParse {
  item: ItemInput;
  /** The raw `children` value (trees walk it themselves). */
  children: unknown;
  /** Which target the item lacks or doubles: "neither", "both" or null. */
  target: "neither" | "both" | null;
  parent: unknown;
  /** The raw `id` value (whole-tree writes keep the ids they name). */
  id: unknown;
  unknown: string[];
}

/**
 * The fields of one item (an object or a bare page reference), problems collected. In a tree
 * (`inTree`), a `url` beside `page` may be the page's address as answered: an empty one is
 * ignored, a full address is kept in `pageUrl` to be compared once the page is found; any other
 * is a conflict, as everywhere else.
 */
export function itemFields(raw: unknown, at: string, problems: ItemProblem[], inTree = false): FieldsParse {
  const item: ItemInput = { at, title: null, target: "", classes: "", children: [] };
  if (typeof raw === "number" || typeof raw === "string") {
    const problem = pageRefProblem(raw);
    if (problem) problems.push({ at, field: "page", message: problem });
    else item.page = pageRefOf(raw);
    return { item, children: undefined, target: null, parent: undefined, id: undefined, unknown: [] };
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    problems.push({ at, field: "item", message: "An item is an object with page or url, or a bare page reference." });
    return { item, children: undefined, target: null, parent: undefined, id: undefined, unknown: [] };
  }
  const input = raw as Record<string, unknown>;
  const hasPage = present(input.page);
  const hasUrl = present(input.url);
  let target: FieldsParse["target"] = null;
  const answeredUrl = inTree && hasPage && hasUrl && couldBePageAddress(input.url);
  if (hasPage && hasUrl && !answeredUrl) {
    target = "both";
    problems.push({ at, field: "page", message: "An item has exactly one of page or url, not both." });
  } else if (!hasPage && !hasUrl) {
    target = "neither";
    problems.push({ at, field: "page", message: "An item needs a page (id, slug or path) or a url." });
  } else if (hasPage) {
    const problem = pageRefProblem(input.page);
    if (problem) problems.push({ at, field: "page", message: problem });
    else item.page = pageRefOf(input.page as PageRef);
    const url = answeredUrl ? urlOf(input.url as string) : "";
    const urlError = url === "" ? null : urlProblem(url);
    if (urlError) problems.push({ at, field: "url", message: urlError });
    else if (url !== "") item.pageUrl = url;
  } else {
    const problem = urlProblem(input.url);
    if (problem) problems.push({ at, field: "url", message: problem });
    else item.url = urlOf(input.url as string);
  }
  const title = textField(input.title, "title", MAX_TITLE, at, problems);
  item.title = title === "" ? null : title;
  item.target = textField(input.target, "target", MAX_TARGET, at, problems) ?? "";
  item.classes = classesField(input.classes, at, problems);
  if (present(input.children) && !Array.isArray(input.children))
    problems.push({ at, field: "children", message: "children must be an array of items." });
  const unknown = Object.keys(input).filter((key) => !ITEM_KEYS.has(key) && !ANSWER_KEYS.has(key) && key !== "parent");
  return { item, children: input.children, target, parent: input.parent, id: input.id, unknown };
}

/** A parent id from input: 0 or absent for the top level. */
export function parentIdFrom(value: unknown, field = "parent"): number {
  if (value === undefined || value === null || value === "") return 0;
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^\d{1,15}$/.test(value.trim())
        ? Number(value)
        : NaN;
  if (!Number.isSafeInteger(n) || n < 0)
    throw fail(
      "invalid_field",
      { field, expected: "item id (0 for the top level)" },
      `${field} must be an item id, or 0 for the top level.`,
    );
  return n;
}
