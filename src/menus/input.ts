// Menu items as input: the fields of one item and their rules, shared by a whole tree
// (tree-input.ts) and the one-item calls (single-input.ts). The route schemas have checked the
// fields' types (item-schemas.ts); here are the rules a schema cannot state: exactly one of
// `page` (id, slug or path) or `url`, blank values, and lengths of the trimmed values. Structure
// only: page references are resolved afterwards (resolve.ts). A bare value is a page reference.
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

/** A page reference's problem: a blank or over-long slug or path (an id is the schema's to check). */
export function pageRefProblem(value: PageRef): string | null {
  if (typeof value === "number") return null;
  if (value.trim() === "") return "page is empty.";
  if (value.length > MAX_URL) return `page is longer than ${MAX_URL} characters.`;
  return null;
}

export function pageRefOf(value: number | string): PageRef {
  return typeof value === "string" ? value.trim() : value;
}

/** A text field trimmed (null when absent), a problem when longer than `max`. */
export function textField(
  value: string | null | undefined,
  field: string,
  max: number,
  at: string,
  problems: ItemProblem[],
): string | null {
  if (value === undefined || value === null) return null;
  const text = value.trim();
  if (text.length > max) problems.push({ at, field, message: `${field} is longer than ${max} characters.` });
  return text;
}

/** CSS classes: a string separated by spaces (or an array of strings), kept single-spaced. */
export function classesField(value: string | string[] | null | undefined, at: string, problems: ItemProblem[]): string {
  if (value === undefined || value === null) return "";
  const text = (Array.isArray(value) ? value : [value])
    .flatMap((part) => part.split(/\s+/))
    .filter((part) => part !== "")
    .join(" ");
  if (text.length > MAX_CLASSES)
    problems.push({ at, field: "classes", message: `classes is longer than ${MAX_CLASSES} characters.` });
  return text;
}

/** An input item's fields as the route schemas let them through (item-schemas.ts). */
export interface ItemObject<Child = unknown, Parent = unknown> {
  page?: PageRef | null;
  url?: string | null;
  title?: string | null;
  target?: string | null;
  classes?: string | string[] | null;
  children?: readonly Child[] | null;
  /** Any value in a tree, read leniently (tree-input.ts); a `ParentValue` in one item. */
  parent?: Parent;
  id?: unknown;
}
/** A parent item's id as the schema lets it through (item-schemas.ts, ParentIdInput). */
export type ParentValue = number | string | null;
/** An item, or a bare page reference. */
export type ItemValue<Child = unknown, Parent = unknown> = PageRef | ItemObject<Child, Parent>;
/** An item of a tree: its children are items too. */
export type TreeValue = PageRef | ItemObject<TreeValue>;

export interface FieldsParse<Child = unknown, Parent = unknown> {
  item: ItemInput;
  /** The `children` given (trees walk them themselves). */
  children: readonly Child[] | null | undefined;
  /** Which target the item lacks or doubles: "neither", "both" or null. */
  target: "neither" | "both" | null;
  parent: Parent | undefined;
  /** The `id` given (whole-tree writes keep the ids they name). */
  id: unknown;
  unknown: string[];
}

/**
 * The fields of one item (an object or a bare page reference), problems collected. In a tree
 * (`inTree`), a `url` beside `page` may be the page's address as answered: an empty one is
 * ignored, a full address is kept in `pageUrl` to be compared once the page is found; any other
 * is a conflict, as everywhere else.
 */
export function itemFields<Child, Parent>(
  raw: ItemValue<Child, Parent>,
  at: string,
  problems: ItemProblem[],
  inTree = false,
): FieldsParse<Child, Parent> {
  const item: ItemInput = { at, title: null, target: "", classes: "", children: [] };
  if (typeof raw === "number" || typeof raw === "string") {
    const problem = pageRefProblem(raw);
    if (problem) problems.push({ at, field: "page", message: problem });
    else item.page = pageRefOf(raw);
    return { item, children: undefined, target: null, parent: undefined, id: undefined, unknown: [] };
  }
  const { page, url } = raw;
  const hasPage = page !== undefined && page !== null;
  const hasUrl = url !== undefined && url !== null;
  let target: FieldsParse["target"] = null;
  const answeredUrl = inTree && hasPage && hasUrl && couldBePageAddress(url);
  if (hasPage && hasUrl && !answeredUrl) {
    target = "both";
    problems.push({ at, field: "page", message: "An item has exactly one of page or url, not both." });
  } else if (!hasPage && !hasUrl) {
    target = "neither";
    problems.push({ at, field: "page", message: "An item needs a page (id, slug or path) or a url." });
  } else if (hasPage) {
    const problem = pageRefProblem(page);
    if (problem) problems.push({ at, field: "page", message: problem });
    else item.page = pageRefOf(page);
    const given = answeredUrl ? urlOf(url) : "";
    const urlError = given === "" ? null : urlProblem(given);
    if (urlError) problems.push({ at, field: "url", message: urlError });
    else if (given !== "") item.pageUrl = given;
  } else if (hasUrl) {
    const problem = urlProblem(url);
    if (problem) problems.push({ at, field: "url", message: problem });
    else item.url = urlOf(url);
  }
  const title = textField(raw.title, "title", MAX_TITLE, at, problems);
  item.title = title === "" ? null : title;
  item.target = textField(raw.target, "target", MAX_TARGET, at, problems) ?? "";
  item.classes = classesField(raw.classes, at, problems);
  const unknown = Object.keys(raw).filter((key) => !ITEM_KEYS.has(key) && !ANSWER_KEYS.has(key) && key !== "parent");
  return { item, children: raw.children, target, parent: raw.parent, id: raw.id, unknown };
}

/** A parent id as the schema lets it through (item-schemas.ts, ParentIdInput): 0, "" or absent for the top level. */
export function parentIdFrom(value: ParentValue | undefined): number {
  return value === undefined || value === null || value === "" ? 0 : Number(value);
}
