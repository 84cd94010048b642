// Menu endpoints (docs/menus.md, "Calls"). Routes parse, call the service and shape
// the answer; the site scope has authorised the caller. `lang` and `theme` (for a `~location`
// reference) are read from the query on every call and from the body on writes.
import type { TypedFastify } from "../http/typed-fastify.ts";
import { commonErrors, Example, Obj, Opt, Rebaked, ServiceChecked, Success, Type } from "../http/schema.ts";
import type { Warning } from "../warnings.ts";
import { ok } from "../http/ok.ts";
import { bodyOf, dryRunOf, DryRunQuery } from "../http/request.ts";
import type { ServiceContext } from "../write/context.ts";
import { addItem, deleteItem, patchItem, reorderItems, replaceItems } from "./items-service.ts";
import { deleteLocation, putLocation } from "./location-service.ts";
import { createMenu, deleteMenu, patchMenu } from "./menu-service.ts";
import { getMenu, listMenus } from "./read-service.ts";

const Str = Type.String();
const Int = Type.Integer();
const Null = Type.Null();
const OptStr = Opt(Type.Union([Str, Null]));
const Warnings = Type.Array(Obj({ code: Str, message: Str }));
const Assigned = Type.Array(
  Obj({ location: Str, lang: Type.Union([Str, Null], { description: "null: the theme map" }) }),
);
const MenuRef = Obj({ ref: Type.String({ description: "menu id, slug, name, or ~location (@location)" }) });
const ItemParams = Obj({ ref: Str, id: Type.String({ description: "item id" }) });
const Selectors = Obj({ lang: Opt(Str), theme: Opt(Str) });
const PageRef = Type.Union([Int, Str], { description: "page id, slug or path" });
const Item = Obj({
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
const PageRefInput = Type.Union([Type.Integer({ minimum: 1 }), Type.String({ minLength: 1 })], {
  description: "page id, slug or path",
});
const ItemId = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: "^\\s*\\d+\\s*$" })]);
const Classes = Type.Union([Str, Type.Array(Str), Null], {
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
const Items = ServiceChecked(Type.Array(TreeItem), "the tree: an array of items, nested through children");
const ItemInput = ServiceChecked(
  TreeItem,
  "{page | url, title?, target?, classes?, children?} or a bare page reference",
);
const AllowInvalid = Opt(
  ServiceChecked(
    Type.Union([Type.Boolean(), Null]),
    "true: leave items that point to pages not public now out (listed in invalid)",
  ),
);
const MenuName = ServiceChecked(Type.String({ minLength: 1, maxLength: 200 }), "the menu's name");
const MenuSlug = ServiceChecked(
  Type.Union([Str, Type.Number()]),
  "lower-case letters and digits joined by dashes; default: from the name",
);
const LocationName = ServiceChecked(Str, "a menu location of the theme (e.g. primary)");
const ParentId = ServiceChecked(Type.Union([ItemId, Null]), "the parent item's id; 0 or absent: the top level");
const MenuBrief = Obj({ id: Int, name: Str, slug: Str });
const Invalid = Type.Array(
  Obj(
    { at: Str, page: Int, title: Type.Union([Str, Null]), status: Type.Union([Str, Null]), reason: Str },
    "an item left out: it points to a page not public now",
  ),
);
const Freed = Type.Array(Obj({ location: Str, lang: Type.Union([Str, Null]), theme: Str, map: Str }));
const DryRun = {
  dry_run: Opt(Type.Literal(true)),
  applied: Opt(Type.Literal(false, { description: "with ?dry_run=1: nothing was written" })),
};

function answer(done: { fields: Record<string, unknown>; warnings: Warning[] }) {
  return ok(done.fields, done.warnings);
}

export function menuRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const tags = ["menus"];

  scope.get(
    "/menus",
    {
      schema: {
        operationId: "listMenus",
        tags,
        summary: "Menus with their assignments in a theme's location map (?theme: another theme's map)",
        querystring: Obj({ theme: Opt(Str) }),
        response: {
          200: Success({
            site_id: Int,
            theme: Str,
            locations: Type.Array(Str),
            default_lang: Type.Union([Str, Null]),
            read_items_at: Str,
            total: Int,
            menus: Type.Array(Obj({ id: Int, name: Str, slug: Str, items: Int, assigned: Assigned })),
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => ok(await listMenus(ctx.db, request.site, request.query)),
  );

  scope.post(
    "/menus",
    {
      schema: {
        operationId: "createMenu",
        tags,
        summary: "Create a menu, with its tree and a location at once",
        querystring: Selectors,
        body: Obj({
          name: Opt(MenuName),
          slug: Opt(MenuSlug),
          location: OptStr,
          lang: OptStr,
          items: Opt(Items),
          allow_invalid: AllowInvalid,
          theme: OptStr,
        }),
        response: {
          201: Success({
            site_id: Int,
            theme: Type.Union([Str, Null]),
            menu: Obj({ id: Int, name: Str, slug: Str, items: Int, assigned: Assigned }),
            items: Type.Array(Item),
            invalid: Invalid,
            rebaked: Rebaked,
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(answer(await createMenu(ctx, request.site, bodyOf(request), request.query))),
  );

  scope.get(
    "/menus/:ref",
    {
      schema: {
        operationId: "getMenu",
        tags,
        summary: "One menu with its items (flat, parents first, with at)",
        params: MenuRef,
        querystring: Selectors,
        response: {
          200: Success({
            site_id: Int,
            theme: Str,
            menu: Obj({ id: Int, term_taxonomy_id: Int, name: Str, slug: Str, count: Int, assigned: Assigned }),
            total: Int,
            invalid_items: Int,
            read_items_at: Str,
            items: Type.Array(Item),
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => ok(await getMenu(ctx.db, request.site, ctx.publicPort, request.params.ref, request.query)),
  );

  scope.patch(
    "/menus/:ref",
    {
      schema: {
        operationId: "patchMenu",
        tags,
        summary: "Rename a menu (name and/or slug); items and locations untouched, no rebake",
        params: MenuRef,
        querystring: Selectors,
        body: Obj({ name: Opt(MenuName), slug: Opt(MenuSlug), lang: OptStr, theme: OptStr }),
        response: {
          200: Success({
            site_id: Int,
            menu: Obj({ id: Int, term_taxonomy_id: Int, name: Str, slug: Str, count: Int }),
            changed: Type.Array(Str, { description: "name, slug: what changed" }),
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => answer(await patchMenu(ctx, request.site, request.params.ref, bodyOf(request), request.query)),
  );

  scope.delete(
    "/menus/:ref",
    {
      schema: {
        operationId: "deleteMenu",
        tags,
        summary:
          "Delete a menu with its items; frees its locations in every theme and language map; it goes to the trash (GET /trash) with its history. ?dry_run=1: the same answer, nothing deleted",
        params: MenuRef,
        querystring: Obj({ ...Selectors.properties, ...DryRunQuery }),
        body: Obj({ lang: OptStr, theme: OptStr }, "optional: the selectors may come in the body instead of the query"),
        response: {
          200: Success({
            site_id: Int,
            deleted: MenuBrief,
            removed_items: Int,
            freed_locations: Freed,
            rebaked: Rebaked,
            ...DryRun,
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) =>
      answer(
        await deleteMenu(ctx, request.site, request.params.ref, bodyOf(request), request.query, dryRunOf(request)),
      ),
  );

  scope.put(
    "/menus/:ref/location",
    {
      schema: {
        operationId: "putMenuLocation",
        tags,
        summary: "Assign the menu to a location (per language and theme); the maps are read back",
        params: MenuRef,
        querystring: Selectors,
        body: Obj({ location: Opt(LocationName), lang: OptStr, theme: OptStr }),
        response: {
          200: Success({
            site_id: Int,
            menu: MenuBrief,
            location: Str,
            lang: Type.Union([Str, Null]),
            theme: Str,
            assigned: Assigned,
            written: Type.Array(Obj({ map: Str, lang: Type.Union([Str, Null]) }), {
              description: "the location map entries written",
            }),
            replaced: Type.Array(Obj({ map: Str, lang: Type.Union([Str, Null]), menu_id: Int }), {
              description: "entries that held another menu",
            }),
            read_back: Type.Array(Obj({}), { description: "the map entries as read back after the write" }),
            read_items_at: Str,
            rebaked: Rebaked,
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => answer(await putLocation(ctx, request.site, request.params.ref, bodyOf(request), request.query)),
  );

  scope.delete(
    "/menus/:ref/location",
    {
      schema: {
        operationId: "deleteMenuLocation",
        tags,
        summary:
          "Take the menu off a location (per language and theme); not in the spec, which has no other way. ?dry_run=1: the same answer, nothing freed",
        params: MenuRef,
        querystring: Obj({ location: Opt(Str), lang: Opt(Str), theme: Opt(Str), ...DryRunQuery }),
        body: Obj(
          { location: Opt(Str), lang: OptStr, theme: OptStr },
          "optional: location, lang and theme may come in the body instead of the query",
        ),
        response: {
          200: Success({
            site_id: Int,
            menu: MenuBrief,
            freed_locations: Freed,
            assigned: Assigned,
            rebaked: Rebaked,
            ...DryRun,
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) =>
      answer(
        await deleteLocation(ctx, request.site, request.params.ref, bodyOf(request), request.query, dryRunOf(request)),
      ),
  );

  scope.put(
    "/menus/:ref/items",
    {
      schema: {
        operationId: "putMenuItems",
        tags,
        summary: "Replace the whole tree in one transaction",
        params: MenuRef,
        querystring: Selectors,
        body: Example(Obj({ items: Opt(Items), allow_invalid: AllowInvalid, lang: OptStr, theme: OptStr }), {
          items: [
            { page: "about" },
            {
              page: "docs",
              title: "Documentation",
              children: [
                { page: "docs/intro" },
                { url: "https://example.com/changelog", title: "Changelog", target: "_blank" },
              ],
            },
          ],
        }),
        response: {
          200: Success({
            site_id: Int,
            menu: MenuBrief,
            total: Int,
            invalid: Invalid,
            items: Type.Array(Item),
            read_items_at: Str,
            rebaked: Rebaked,
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) =>
      answer(await replaceItems(ctx, request.site, request.params.ref, bodyOf(request), request.query)),
  );

  scope.post(
    "/menus/:ref/items",
    {
      schema: {
        operationId: "createMenuItem",
        tags,
        summary: "Add one item at the end of its level ({item} or the item itself; parent: the level)",
        params: MenuRef,
        querystring: Selectors,
        body: Obj({
          item: Opt(ItemInput),
          page: Opt(PageRef),
          url: Opt(ServiceChecked(Str, "a link (instead of page)")),
          title: Opt(ServiceChecked(Type.Union([Str, Null]))),
          target: Opt(ServiceChecked(Type.Union([Str, Null]))),
          classes: Opt(ServiceChecked(Classes)),
          parent: Opt(ParentId),
          allow_invalid: AllowInvalid,
          lang: OptStr,
          theme: OptStr,
        }),
        response: {
          201: Success({
            site_id: Int,
            menu: Obj({ id: Int, name: Str }),
            item: Item,
            total: Int,
            rebaked: Rebaked,
            warnings: Warnings,
          }),
          200: Success({
            site_id: Int,
            menu: Obj({ id: Int, name: Str }),
            item: Type.Null({
              description: "with allow_invalid, an item pointing to a page not public now is not added",
            }),
            invalid: Invalid,
            total: Int,
            rebaked: Rebaked,
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const done = await addItem(ctx, request.site, request.params.ref, bodyOf(request), request.query);
      return reply.code(done.created ? 201 : 200).send(answer(done));
    },
  );

  scope.patch(
    "/menus/:ref/items/:id",
    {
      schema: {
        operationId: "patchMenuItem",
        tags,
        summary: "Change an item: title, page (makes a page item), url (makes a link), target, classes, parent",
        params: ItemParams,
        querystring: Selectors,
        body: Obj({
          title: Opt(ServiceChecked(Type.Union([Str, Null]), "null: the default title")),
          page: Opt(ServiceChecked(PageRefInput, "makes it a page item")),
          url: Opt(ServiceChecked(Str, "makes it a link")),
          target: Opt(ServiceChecked(Type.Union([Str, Null]))),
          classes: Opt(ServiceChecked(Classes)),
          parent: Opt(ParentId),
          lang: OptStr,
          theme: OptStr,
        }),
        response: {
          200: Success({
            site_id: Int,
            menu: Obj({ id: Int, name: Str }),
            item: Obj({ id: Int }, "the item's id and each changed field as {from, to}"),
            current: Item,
            rebaked: Rebaked,
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) =>
      answer(await patchItem(ctx, request.site, request.params.ref, request.params.id, bodyOf(request), request.query)),
  );

  scope.delete(
    "/menus/:ref/items/:id",
    {
      schema: {
        operationId: "deleteMenuItem",
        tags,
        summary: "Delete an item with its branch. ?dry_run=1: the same answer, nothing deleted",
        params: ItemParams,
        querystring: Obj({ ...Selectors.properties, ...DryRunQuery }),
        body: Obj({ lang: OptStr, theme: OptStr }, "optional: the selectors may come in the body instead of the query"),
        response: {
          200: Success({
            site_id: Int,
            menu: Obj({ id: Int, name: Str }),
            removed: Type.Array(Int),
            total: Int,
            rebaked: Rebaked,
            ...DryRun,
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) =>
      answer(
        await deleteItem(
          ctx,
          request.site,
          request.params.ref,
          request.params.id,
          bodyOf(request),
          request.query,
          dryRunOf(request),
        ),
      ),
  );

  scope.post(
    "/menus/:ref/reorder",
    {
      schema: {
        operationId: "reorderMenuItems",
        tags,
        summary: "Order one level: named ids first, the others after them (appended)",
        params: MenuRef,
        querystring: Selectors,
        body: Obj({
          order: Opt(ServiceChecked(Type.Array(ItemId, { minItems: 1 }), "item ids of one level, in their new order")),
          parent: Opt(ParentId),
          lang: OptStr,
          theme: OptStr,
        }),
        response: {
          200: Success({
            site_id: Int,
            menu: Obj({ id: Int, name: Str }),
            parent: Int,
            order: Type.Array(Int),
            appended: Type.Array(Int),
            level: Type.Array(Int, { description: "the level's item ids in their new order" }),
            rebaked: Rebaked,
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) =>
      answer(await reorderItems(ctx, request.site, request.params.ref, bodyOf(request), request.query)),
  );
}
