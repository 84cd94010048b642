// A whole tree as input (PUT /menus/{ref}/items, POST /menus with `items`): items nested through
// `children`, their types checked by the route schema (item-schemas.ts), each read by itemFields
// (input.ts). Structure only: page references are resolved afterwards (resolve.ts). A tree may be
// sent back as answered: see answered.ts and placement.ts.
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import { itemFields, present, type ItemInput, type ItemProblem, type TreeValue } from "./input.ts";
import { urlWarnings } from "./links.ts";
import { firstTooDeep, placeByParent, type Mover } from "./placement.ts";
import { compareAt, MAX_DEPTH, MAX_ITEMS } from "./tree.ts";

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
 * A whole tree, its types checked by the route schema. Refusals, in this order: 400
 * too_many_items (over 2,000), 400 tree_too_deep (over 8 levels), 400 bad_items with `errors`
 * (each `{at, field, message}`). With `keepIds`
 * (PUT …/items) each item's `id` is read, and an id given twice is a bad_items error.
 *
 * `parent` agreeing with where the item stands (0 at the top, the enclosing item's `id` below)
 * is the answer's own and silent. With `keepIds`, a top-level item without `children` whose
 * `parent` names the `id` of another item of the body goes under that item: the flat form of
 * GET /menus/{ref} (a parent chain that loops is bad_items). Any other `parent` is ignored
 * (warning parent_ignored): an item with `children`, as the nested form has, stands where it
 * is written.
 */
export function parseTree(value: readonly TreeValue[], keepIds = false): TreeParse {
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
    raws: readonly TreeValue[];
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
      if (parsed.children && parsed.children.length > 0) {
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
