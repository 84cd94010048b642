// One item as input: the body of POST /menus/{ref}/items (parseSingle) and the changed fields of
// PATCH …/items/{id} (parsePatch), their types checked by the route schemas (item-schemas.ts),
// each field read by the rules of input.ts.
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import {
  ANSWER_KEYS,
  classesField,
  ITEM_KEYS,
  itemFields,
  MAX_TARGET,
  MAX_TITLE,
  pageRefOf,
  pageRefProblem,
  parentIdFrom,
  present,
  textField,
  type ItemInput,
  type ItemObject,
  type ItemProblem,
  type ItemValue,
  type PageRef,
  type ParentValue,
} from "./input.ts";
import { urlOf, urlProblem, urlWarnings } from "./links.ts";

/** The body of POST …/items as its schema lets it through: `{item}`, or the item's own fields. */
export interface SingleBody extends ItemObject<unknown, ParentValue> {
  item?: ItemValue<unknown, ParentValue> | null;
}

/** The changed fields of PATCH …/items/{id} as its schema lets them through. */
export interface PatchBody {
  title?: string | null;
  page?: PageRef;
  url?: string;
  target?: string | null;
  classes?: string | string[] | null;
  parent?: ParentValue;
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
export function parseSingle(body: SingleBody): SingleItem {
  const wrapped = Object.hasOwn(body, "item");
  const raw = wrapped ? body.item : body;
  const problems: ItemProblem[] = [];
  const warnings: Warning[] = [];
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === ""))
    throw fail("item_target_required", { field: "item" });
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
  if (parsed.children && parsed.children.length > 0) {
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
export function parsePatch(body: PatchBody): ItemPatch {
  const patch: ItemPatch = { warnings: [] };
  const problems: ItemProblem[] = [];
  const at = "item";
  if (!PATCH_KEYS.some((key) => Object.hasOwn(body, key))) throw fail("nothing_to_update", { fields: PATCH_KEYS });
  if (Object.hasOwn(body, "page") && Object.hasOwn(body, "url")) {
    throw fail("bad_items", {
      errors: [{ at, field: "page", message: "Give page to make a page item, or url to make a link, not both." }],
    });
  }
  if (body.page !== undefined) {
    const problem = pageRefProblem(body.page);
    if (problem) problems.push({ at, field: "page", message: problem });
    else patch.page = pageRefOf(body.page);
  }
  if (body.url !== undefined) {
    const problem = urlProblem(body.url);
    if (problem) problems.push({ at, field: "url", message: problem });
    else {
      patch.url = urlOf(body.url);
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
