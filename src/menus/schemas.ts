// The schemas of the menu calls (routes.ts, item-routes.ts): a menu and an item as answered, the
// inputs besides items (an item's input is in item-schemas.ts), each refused with the code
// docs/menus.md gives it, and the envelope the answers are sent in.
import { Obj, Opt, Refusing, Type } from "../http/schema.ts";
import { ParentIdInput } from "./item-schemas.ts";
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
export const AllowInvalid = Opt(
  Type.Union([Type.Boolean(), Null], {
    description: "true: leave items that point to pages not public now out (listed in invalid)",
  }),
);
/** A menu's name: absent, null or of another type is 400 menu_name_required (blank too: menu-input.ts). */
export const MenuName = Refusing(
  Type.String({ description: "the menu's name (at most 200 characters, spaces around it trimmed)" }),
  "menu_name_required",
);
const SlugText = [Str, Type.Number()];
const SLUG = "lower-case letters and digits joined by dashes";
export const MenuSlug = Type.Union(SlugText, { description: SLUG });
export const NewMenuSlug = Type.Union([...SlugText, Null], { description: `${SLUG}; default: from the name` });
/** A location: a value of another type is 400 unknown_location (a name the site lacks too, with its locations: locations.ts). */
export const LocationName = Refusing(
  Type.Union([Str, Null], {
    description: "one of the site's menu locations (setting menu_locations, e.g. header); required",
  }),
  "unknown_location",
);
/** An item id of `order`: a positive number, or a string of its digits. */
const PositiveItemId = Type.Union([
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  Type.String({ pattern: "^\\s*(?=\\d{1,15}\\s*$)0*[1-9]\\d*\\s*$", description: "a string of digits" }),
]);
/** The body of POST /menus/{ref}/reorder: a bad `order` or `parent` is 400 bad_reorder. */
export const ReorderFields = {
  order: Refusing(
    Type.Array(PositiveItemId, { minItems: 1, description: "item ids of one level, in their new order" }),
    "bad_reorder",
  ),
  parent: Opt(Refusing(ParentIdInput, "bad_reorder")),
};
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
