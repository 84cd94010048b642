// The schemas of the menu calls (routes.ts, item-routes.ts): a menu, an item and their inputs as
// the OpenAPI document shows them, and the envelope their answers are sent in.
import { Obj, Opt, ServiceChecked, Type } from "../http/schema.ts";
import { ok } from "../http/ok.ts";
import type { Warning } from "../warnings.ts";

/** The OpenAPI tag of every menu call. */
export const tags = ["menus"];

export const Str = Type.String();
export const Int = Type.Integer();
export const Null = Type.Null();
export const OptStr = Opt(Type.Union([Str, Null]));
export const Warnings = Type.Array(Obj({ code: Str, message: Str }));
export const Assigned = Type.Array(
  Obj({ location: Str, lang: Type.Union([Str, Null], { description: "null: the theme map" }) }),
);
export const MenuRef = Obj({ ref: Type.String({ description: "menu id, slug, name, or ~location (@location)" }) });
export const ItemParams = Obj({ ref: Str, id: Type.String({ description: "item id" }) });
export const Selectors = Obj({ lang: Opt(Str), theme: Opt(Str) });
export const PageRef = Type.Union([Int, Str], { description: "page id, slug or path" });
export const Item = Obj({
  id: Int,
  at: Type.String({ description: "coordinate in the tree: 1.0 is the first child of the second top-level item" }),
  title: Str,
  type: Type.Union([Type.Literal("post_type"), Type.Literal("custom")]),
  page: Type.Union([Int, Null]),
  url: Str,
  parent: Type.Integer({ description: "0 at the top level" }),
  order: Type.Integer({ description: "1-based position in its level" }),
  valid: Type.Boolean({
    description: "false when the page is a draft, trashed, deleted or under an unpublished parent",
  }),
  target: Str,
  classes: Str,
  invalid_reason: Opt(Type.String({ description: "why valid is false: draft, trash, deleted or unpublished_parent" })),
});
// Item input is checked by the service (400 bad_items naming each item's problem, `at`), so the
// validator takes any value; the OpenAPI description shows the forms the service accepts.
export const PageRefInput = Type.Union([Type.Integer({ minimum: 1 }), Type.String({ minLength: 1 })], {
  description: "page id, slug or path",
});
export const ItemId = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: "^\\s*\\d+\\s*$" })]);
export const Classes = Type.Union([Str, Type.Array(Str), Null], {
  description: "CSS class names separated by spaces (or a list of them)",
});
const TreeItem = Type.Recursive(
  (This) =>
    Type.Union(
      [
        PageRefInput,
        Obj(
          {
            page: Opt(
              Type.Union([PageRefInput, Null], {
                description: "a page item: page id, slug or path (exactly one of page and url)",
              }),
            ),
            url: Opt(
              Type.Union([Str, Null], {
                description: "a link; beside page only the page's address as answered (ignored)",
              }),
            ),
            title: Opt(
              Type.Union([Str, Null], {
                description: "at most 1,000 characters; null or absent: the page's title, or the link",
              }),
            ),
            target: Opt(Type.Union([Str, Null], { description: "e.g. _blank; at most 64 characters" })),
            classes: Opt(Classes),
            children: Opt(
              Type.Union([Type.Array(This), Null], {
                description: "the items under this one (at most 8 levels, 2,000 items in all)",
              }),
            ),
            id: Opt(
              Type.Union([ItemId, Str, Null], {
                description:
                  "PUT …/items: an item of this menu to keep (its id stays); an id the menu does not hold, or a value that is no item id (warning item_id_ignored), makes a new item",
              }),
            ),
            parent: Opt(
              Type.Union([ItemId, Null], {
                description:
                  "PUT …/items, top-level items without children: the id of another item of the body to go under (the flat form GET answers)",
              }),
            ),
          },
          "An item: a page (page) or a link (url); the fields GET answers (id, at, type, order, valid, invalid_reason) may be sent back",
        ),
      ],
      { description: "an item, or a bare page reference" },
    ),
  { $id: "MenuItemInput" },
);
export const Items = ServiceChecked(Type.Array(TreeItem), "the tree: an array of items, nested through children");
export const ItemInput = ServiceChecked(
  TreeItem,
  "{page | url, title?, target?, classes?, children?} or a bare page reference",
);
export const AllowInvalid = Opt(
  ServiceChecked(
    Type.Union([Type.Boolean(), Null]),
    "true: leave items that point to pages not public now out (listed in invalid)",
  ),
);
export const MenuName = ServiceChecked(Type.String({ minLength: 1, maxLength: 200 }), "the menu's name");
export const MenuSlug = ServiceChecked(
  Type.Union([Str, Type.Number()]),
  "lower-case letters and digits joined by dashes; default: from the name",
);
export const LocationName = ServiceChecked(Str, "a menu location of the theme (e.g. primary)");
export const ParentId = ServiceChecked(Type.Union([ItemId, Null]), "the parent item's id; 0 or absent: the top level");
export const MenuBrief = Obj({ id: Int, name: Str, slug: Str });
export const Invalid = Type.Array(
  Obj(
    { at: Str, page: Int, title: Type.Union([Str, Null]), status: Type.Union([Str, Null]), reason: Str },
    "an item left out: it points to a page not public now",
  ),
);
export const Freed = Type.Array(Obj({ location: Str, lang: Type.Union([Str, Null]), theme: Str, map: Str }));
export const DryRun = {
  dry_run: Opt(Type.Literal(true)),
  applied: Opt(Type.Literal(false, { description: "with ?dry_run=1: nothing was written" })),
};

/** A service's `{fields, warnings}` in the success envelope the `Success` schemas describe. */
export function answer(done: { fields: Record<string, unknown>; warnings: Warning[] }) {
  return ok(done.fields, done.warnings);
}
