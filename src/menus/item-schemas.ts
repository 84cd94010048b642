// Menu items as the route schemas check them (docs/menus.md, "Items"): the types of an item's
// fields, refused as 400 bad_items listing every problem with its item's coordinate (`at`) and
// field. What no schema states stays with input.ts: exactly one of page or url, lengths of the
// trimmed values, blank values, the tree's size and depth, repeated ids, a page's answered address.
import type { TSchema } from "@sinclair/typebox";
import type { ListedPlace } from "../http/refusal.ts";
import { Obj, Opt, Refusing, ServiceChecked, Type } from "../http/schema.ts";

const Str = Type.String();
const Null = Type.Null();

/** A page reference: a positive page id, or a slug or path (a blank one is input.ts's to refuse). */
export const PageRefInput = Type.Union([Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), Str], {
  description: "page id, slug or path",
});
/** An item id: a number, or a string of digits (`12` and `"12"` name the same item). */
const ItemId = Type.Union([
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  Type.String({ pattern: "^\\s*\\d{1,15}\\s*$", description: "a string of digits" }),
]);
/** A parent item's id: 0, "" or null is the top level. */
export const ParentIdInput = Type.Union([ItemId, Type.Literal(""), Null], {
  description: "the parent item's id; 0 or absent: the top level",
});
const Classes = Type.Union([Str, Type.Array(Str), Null], {
  description: "CSS class names separated by spaces (or a list of them)",
});

const PageField = Type.Union([PageRefInput, Null], {
  description: "a page item: page id, slug or path (exactly one of page and url)",
});
const UrlField = Type.Union([Str, Null], {
  description: "a link; beside page only the page's address as answered (ignored)",
});
const TitleField = Type.Union([Str, Null], {
  description: "at most 1,000 characters; null or absent: the page's title, or the link",
});
const TargetField = Type.Union([Str, Null], { description: "e.g. _blank; at most 64 characters" });

/** The fields of an input item; `children` is given last, so failures list in tree order. */
function itemProperties<C extends TSchema, P extends TSchema>(children: C, parent: P, id?: TSchema) {
  return {
    page: Opt(PageField),
    url: Opt(UrlField),
    title: Opt(TitleField),
    target: Opt(TargetField),
    classes: Opt(Classes),
    ...(id ? { id: Opt(id) } : {}),
    parent: Opt(parent),
    children: Opt(children),
  };
}

const ITEM_DESCRIPTION =
  "An item: a page (page) or a link (url); the fields GET answers (id, at, type, order, valid, invalid_reason) may be sent back";

const TreeItem = Type.Recursive(
  (This) =>
    Type.Union(
      [
        PageRefInput,
        Obj(
          itemProperties(
            Type.Union([Type.Array(This), Null], {
              description: "the items under this one (at most 8 levels, 2,000 items in all)",
            }),
            // Any value: one that names no item of the body is ignored, with a warning (tree-input.ts).
            ServiceChecked(
              Type.Union([ItemId, Null]),
              "PUT …/items, top-level items without children: the id of another item of the body to go under (the flat form GET answers)",
            ),
            // Any value: one that is no item id makes a new item, with a warning (tree-input.ts).
            ServiceChecked(
              Type.Union([ItemId, Str, Null]),
              "PUT …/items: an item of this menu to keep (its id stays); an id the menu does not hold, or a value that is no item id (warning item_id_ignored), makes a new item",
            ),
          ),
          ITEM_DESCRIPTION,
        ),
      ],
      { description: "an item, or a bare page reference" },
    ),
  { $id: "MenuItemInput" },
);

/** Where a failure under a tree stands: `at` its item's coordinate ("1.0"), `field` the item's field. */
function treePlace(below: readonly string[]): ListedPlace {
  if (below.length === 0) return { where: { at: "", field: "items" }, subject: "items" };
  const coordinate = [below[0]];
  let i = 1;
  while (below[i] === "children" && below[i + 1] !== undefined) {
    coordinate.push(below[i + 1]);
    i += 2;
  }
  const at = coordinate.join(".");
  if (i >= below.length) return { where: { at, field: "item" }, subject: "item" };
  return { where: { at, field: below[i] }, subject: below.slice(i).join(".") };
}

const TREE = "the tree: an array of items, nested through children";
const ItemsArray = Type.Array(TreeItem, { description: TREE });
const treeList = { list: { place: treePlace, max: 50 } };
/** A whole tree (PUT …/items: required). */
export const Items = Refusing(ItemsArray, "bad_items", treeList);
/** A tree given or not (POST /menus: null or absent, no items). */
export const OptionalItems = Refusing(Type.Union([ItemsArray, Null], { description: TREE }), "bad_items", treeList);

/** Where a failure of one item stands: at `at` (its field, else the item itself). */
function oneItemPlace(at: string, field?: string) {
  return (below: readonly string[]): ListedPlace => {
    const path = field === undefined ? below : [field, ...below];
    return path.length === 0
      ? { where: { at, field: "item" }, subject: "item" }
      : { where: { at, field: path[0] }, subject: path.join(".") };
  };
}

/** A field of the one item a call writes, refused as bad_items at `at` ("0" added, "item" patched). */
function itemField<S extends TSchema>(schema: S, at: string, field: string): S {
  return Refusing(schema, "bad_items", { list: { place: oneItemPlace(at, field) } });
}

// The item POST …/items adds, given as `item` or as the body itself: its children are not read
// (warning children_ignored), and a parent in it is refused as the one beside it is, 400
// invalid_field (declared again under the item's bad_items).
const SingleChildren = Type.Union([
  // Any value: a single item's children are not read at all.
  Type.Array(ServiceChecked(Type.Union([PageRefInput, Obj({})]), "an item; not read here (warning children_ignored)")),
  Null,
]);
const SingleParent = Refusing(ParentIdInput, "invalid_field");
const SingleItem = Type.Union([PageRefInput, Obj(itemProperties(SingleChildren, SingleParent), ITEM_DESCRIPTION)], {
  description: "{page | url, title?, target?, classes?} or a bare page reference",
});

/** The body of POST …/items: `{item}` (null: none), or the item's own fields beside `parent`. */
export const SingleItemFields = {
  item: Opt(Refusing(Type.Union([SingleItem, Null]), "bad_items", { list: { place: oneItemPlace("0") } })),
  page: Opt(itemField(PageField, "0", "page")),
  url: Opt(itemField(UrlField, "0", "url")),
  title: Opt(itemField(TitleField, "0", "title")),
  target: Opt(itemField(TargetField, "0", "target")),
  classes: Opt(itemField(Classes, "0", "classes")),
  children: Opt(itemField(SingleChildren, "0", "children")),
  parent: Opt(SingleParent),
};

/** The fields PATCH …/items/{id} changes, refused as bad_items at `item`. */
export const PatchItemFields = {
  title: Opt(itemField(Type.Union([Str, Null], { description: "null: the default title" }), "item", "title")),
  page: Opt(itemField(Type.Union(PageRefInput.anyOf, { description: "makes it a page item" }), "item", "page")),
  url: Opt(itemField(Type.String({ description: "makes it a link" }), "item", "url")),
  target: Opt(itemField(TargetField, "item", "target")),
  classes: Opt(itemField(Classes, "item", "classes")),
  parent: Opt(ParentIdInput),
};
