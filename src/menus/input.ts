// Menu items as input: a tree (`items`), one item (POST …/items) or changed fields (PATCH
// …/items/{id}). Structure only: page references are resolved afterwards (resolve.ts).
// An item has exactly one of `page` (id, slug or path) or `url`; a bare value is a page reference.
// A tree may be sent back as answered: see answered.ts and placement.ts.
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import { couldBePageAddress, MAX_URL, urlOf, urlProblem, urlWarnings } from "./links.ts";
import { firstTooDeep, placeByParent, type Mover } from "./placement.ts";
import { compareAt, MAX_DEPTH, MAX_ITEMS } from "./tree.ts";

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
const ITEM_KEYS = new Set(["page", "url", "title", "target", "classes", "children"]);
/** Keys of a response item: sent back in a tree they are ignored without a warning. */
const ANSWER_KEYS = new Set(["id", "at", "type", "order", "valid", "invalid_reason"]);

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function isBlank(value: unknown): boolean {
  return typeof value === "string" && value.trim() === "";
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

function textField(value: unknown, field: string, max: number, at: string, problems: ItemProblem[]): string | null {
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
function classesField(value: unknown, at: string, problems: ItemProblem[]): string {
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

export interface TreeParse {
  items: ItemInput[];
  total: number;
  warnings: Warning[];
}

const MAX_REPORTED = 50;

/** An item id: a positive integer, or a string of digits; null for anything else. */
export function itemIdValue(value: unknown): number | null {
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^\d{1,15}$/.test(value.trim())
        ? Number(value)
        : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/**
 * The `id`s a tree names (`keepIds`): each is set on its item. The same id twice is a problem
 * at every later coordinate (`id`, `first_at`); a value that is no item id names nothing
 * (the item is new) and is reported in one warning.
 */
function namedIds(
  named: ReadonlyMap<number, string[]>,
  notIds: readonly string[],
  problems: ItemProblem[],
  warnings: Warning[],
): void {
  for (const [id, ats] of named) {
    if (ats.length < 2) continue;
    const [first, ...again] = [...ats].sort(compareAt);
    for (const at of again)
      problems.push({
        at,
        field: "id",
        id,
        first_at: first,
        message: `Item id ${id} is given more than once (first at ${first}); an item can stand in one place only.`,
      });
  }
  if (notIds.length > 0) {
    warnings.push(
      warning(
        "item_id_ignored",
        "Some items have an id that is not an item id (a positive integer); they were stored as new items.",
        { field: "id", at: [...notIds].sort(compareAt) },
      ),
    );
  }
}

/** A `parent` value: 0 for the top level, an item id, or null for anything else. */
function parentValue(value: unknown): number | null {
  if (value === 0 || value === "0") return 0;
  return itemIdValue(value);
}

/**
 * A whole tree. Refusals, in this order: 400 too_many_items (over 2,000), 400 tree_too_deep
 * (over 8 levels), 400 bad_items with `errors` (each `{at, field, message}`). With `keepIds`
 * (PUT …/items) each item's `id` is read, and an id given twice is a bad_items error.
 *
 * `parent` agreeing with where the item stands (0 at the top, the enclosing item's `id` below)
 * is the answer's own and silent. With `keepIds`, a top-level item without `children` whose
 * `parent` names the `id` of another item of the body goes under that item: the flat form of
 * GET /menus/{ref} (a parent chain that loops is bad_items). Any other `parent` is ignored
 * (warning parent_ignored): an item with `children`, as the nested form has, stands where it
 * is written.
 */
export function parseTree(value: unknown, keepIds = false): TreeParse {
  if (!Array.isArray(value)) {
    throw fail("bad_items", {
      errors: [
        {
          at: "",
          field: "items",
          message:
            value === undefined || value === null
              ? "items is required: an array of items (it may be empty)."
              : "items must be an array of items.",
        },
      ],
    });
  }
  const problems: ItemProblem[] = [];
  const warnings: Warning[] = [];
  const unknownKeys = new Map<string, string>();
  const parentIgnored: string[] = [];
  let total = 0;
  let deepest: string | null = null;
  const named = new Map<number, string[]>();
  const notIds: string[] = [];
  const top: ItemInput[] = [];
  const byId = new Map<number, ItemInput>();
  const container = new Map<ItemInput, ItemInput | null>();
  const movers: Array<Mover<ItemInput>> = [];
  type Level = {
    raws: unknown[];
    prefix: string;
    depth: number;
    into: ItemInput[];
    above: ItemInput | null;
    aboveId: number | null;
  };
  const stack: Level[] = [{ raws: value, prefix: "", depth: 1, into: top, above: null, aboveId: 0 }];
  while (stack.length > 0) {
    const { raws, prefix, depth, into, above, aboveId } = stack.pop()!;
    raws.forEach((raw, index) => {
      const at = prefix === "" ? String(index) : `${prefix}.${index}`;
      total++;
      if (depth > MAX_DEPTH) {
        deepest ??= at;
        return;
      }
      if (total > MAX_ITEMS) return;
      const parsed = itemFields(raw, at, problems, true);
      if (parsed.item.url !== undefined) urlWarnings(parsed.item.url, at, warnings);
      for (const key of parsed.unknown) if (!unknownKeys.has(key)) unknownKeys.set(key, at);
      const ownId = present(parsed.id) ? itemIdValue(parsed.id) : null;
      if (present(parsed.parent)) {
        const parent = parentValue(parsed.parent);
        if (parent !== null && parent === aboveId) {
          // Where the item stands already: the answer's own.
        } else if (keepIds && depth === 1 && parent !== null && !present(parsed.children))
          movers.push({ item: parsed.item, parent });
        else parentIgnored.push(at);
      }
      if (keepIds && present(parsed.id)) {
        if (ownId === null) notIds.push(at);
        else {
          parsed.item.id = ownId;
          named.set(ownId, [...(named.get(ownId) ?? []), at]);
          if (!byId.has(ownId)) byId.set(ownId, parsed.item);
        }
      }
      into.push(parsed.item);
      container.set(parsed.item, above);
      if (Array.isArray(parsed.children) && parsed.children.length > 0) {
        stack.push({
          raws: parsed.children,
          prefix: at,
          depth: depth + 1,
          into: parsed.item.children,
          above: parsed.item,
          aboveId: ownId,
        });
      }
    });
  }
  if (total > MAX_ITEMS) throw fail("too_many_items", { max_items: MAX_ITEMS, total });
  if (deepest !== null) throw fail("tree_too_deep", { max_depth: MAX_DEPTH, at: deepest });
  const placed = placeByParent(top, movers, byId, container);
  parentIgnored.push(...placed.unplaced);
  for (const at of placed.loops)
    problems.push({
      at,
      field: "parent",
      message: "parent names this item itself or an item under it; the items cannot stand so.",
    });
  const tooDeep = placed.loops.length > 0 ? null : firstTooDeep(placed.top, MAX_DEPTH);
  if (tooDeep !== null) throw fail("tree_too_deep", { max_depth: MAX_DEPTH, at: tooDeep });
  namedIds(named, notIds, problems, warnings);
  if (problems.length > 0) {
    const message = problems.every((problem) => problem.field === "id")
      ? "The items are not a valid tree: an item id is given more than once (see errors)."
      : undefined;
    throw fail(
      "bad_items",
      { errors: sortProblems(problems).slice(0, MAX_REPORTED), total_errors: problems.length },
      message,
    );
  }
  for (const [field, at] of unknownKeys)
    warnings.push(warning("unknown_field", `Field "${field}" of an item is not known and was ignored.`, { field, at }));
  if (parentIgnored.length > 0) {
    const at = parentIgnored.sort(compareAt)[0];
    warnings.push(
      warning(
        "parent_ignored",
        "In a tree, nesting comes from children (or, on PUT …/items, from a parent naming the id of another item of the body); parent was ignored.",
        { field: "parent", at },
      ),
    );
  }
  return { items: placed.top, total, warnings };
}

/** Problems in tree order ("0", "0.0", "1", "10" …). */
function sortProblems(problems: ItemProblem[]): ItemProblem[] {
  return [...problems].sort((a, b) => compareAt(a.at, b.at));
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

export interface SingleItem {
  item: ItemInput;
  parent: number;
  warnings: Warning[];
}

/**
 * One item (POST …/items): `{item: {...}}`, `{item: 12}` or the item itself. Refusals: 400
 * item_target_required (neither page nor url), 400 bad_items (both, or a malformed field).
 */
export function parseSingle(body: Record<string, unknown>): SingleItem {
  const wrapped = Object.hasOwn(body, "item");
  const raw = wrapped ? body.item : body;
  const problems: ItemProblem[] = [];
  const warnings: Warning[] = [];
  if (raw === undefined || raw === null || isBlank(raw)) throw fail("item_target_required", { field: "item" });
  const parsed = itemFields(raw, "0", problems);
  if (parsed.target === "neither") throw fail("item_target_required", { field: "page" });
  if (problems.length > 0) throw fail("bad_items", { errors: problems });
  if (parsed.item.url !== undefined) urlWarnings(parsed.item.url, "0", warnings);
  const known = wrapped
    ? ["item", "parent", "allow_invalid", "lang", "theme"]
    : ["parent", "allow_invalid", "lang", "theme", ...ITEM_KEYS, ...ANSWER_KEYS];
  const extra = wrapped
    ? [...Object.keys(body).filter((key) => !known.includes(key)), ...parsed.unknown]
    : Object.keys(body).filter((key) => !known.includes(key));
  for (const field of extra)
    warnings.push(warning("unknown_field", `Field "${field}" is not known here and was ignored.`, { field }));
  if (Array.isArray(parsed.children) && parsed.children.length > 0) {
    warnings.push(
      warning(
        "children_ignored",
        "This call adds one item; add its children with further calls (parent: the new id), or replace the tree with PUT …/items.",
        { field: "children" },
      ),
    );
  }
  const parentValue = present(parsed.parent) ? parsed.parent : wrapped ? body.parent : undefined;
  return { item: parsed.item, parent: parentIdFrom(parentValue), warnings };
}

export interface ItemPatch {
  title?: string | null;
  page?: PageRef;
  url?: string;
  target?: string;
  classes?: string;
  parent?: number;
  warnings: Warning[];
}

export const PATCH_KEYS = ["title", "page", "url", "target", "classes", "parent"] as const;

/**
 * Changed fields of an item (PATCH …/items/{id}). `page` makes a page item, `url` a link; both
 * at once is 400 bad_items; none of the fields is 400 nothing_to_update. `title` null or "" goes
 * back to the default title.
 */
export function parsePatch(body: Record<string, unknown>): ItemPatch {
  const patch: ItemPatch = { warnings: [] };
  const problems: ItemProblem[] = [];
  const at = "item";
  if (!PATCH_KEYS.some((key) => Object.hasOwn(body, key))) throw fail("nothing_to_update", { fields: PATCH_KEYS });
  if (Object.hasOwn(body, "page") && Object.hasOwn(body, "url")) {
    throw fail("bad_items", {
      errors: [{ at, field: "page", message: "Give page to make a page item, or url to make a link, not both." }],
    });
  }
  if (Object.hasOwn(body, "page")) {
    const problem = pageRefProblem(body.page);
    if (problem) problems.push({ at, field: "page", message: problem });
    else patch.page = pageRefOf(body.page as PageRef);
  }
  if (Object.hasOwn(body, "url")) {
    const problem = urlProblem(body.url);
    if (problem) problems.push({ at, field: "url", message: problem });
    else {
      patch.url = urlOf(body.url as string);
      urlWarnings(patch.url, at, patch.warnings);
    }
  }
  if (Object.hasOwn(body, "title")) {
    const title = textField(body.title, "title", MAX_TITLE, at, problems);
    patch.title = title === "" ? null : title;
  }
  if (Object.hasOwn(body, "target")) patch.target = textField(body.target, "target", MAX_TARGET, at, problems) ?? "";
  if (Object.hasOwn(body, "classes")) patch.classes = classesField(body.classes, at, problems);
  if (problems.length > 0) throw fail("bad_items", { errors: problems });
  if (Object.hasOwn(body, "parent")) patch.parent = parentIdFrom(body.parent);
  for (const key of Object.keys(body)) {
    if (!(PATCH_KEYS as readonly string[]).includes(key) && key !== "lang" && key !== "theme") {
      patch.warnings.push(
        warning("unknown_field", `Field "${key}" is not known here and was ignored.`, { field: key }),
      );
    }
  }
  return patch;
}
