// Menu endpoints (docs/menus.md, "Calls"): the menu itself and its locations here, its items in
// item-routes.ts, the schemas of both in schemas.ts. Routes parse, call the service and shape
// the answer; the site scope has authorised the caller. `lang` and `theme` (for a `~location`
// reference) are read from the query on every call and from the body on writes.
import type { TypedFastify } from "../http/typed-fastify.ts";
import { commonErrors, Obj, Opt, Rebaked, Success, Type } from "../http/schema.ts";
import { ok } from "../http/ok.ts";
import { dryRunOf, DryRunQuery } from "../http/request.ts";
import type { ServiceContext } from "../write/context.ts";
import { itemRoutes } from "./item-routes.ts";
import { deleteLocation, putLocation } from "./location-service.ts";
import { createMenu, deleteMenu, patchMenu } from "./menu-service.ts";
import { getMenu, listMenus } from "./read-service.ts";
import {
  AllowInvalid,
  answer,
  Assigned,
  DryRun,
  Freed,
  Int,
  Invalid,
  Item,
  LocationName,
  MenuBrief,
  MenuName,
  MenuRef,
  MenuSlug,
  NewMenuSlug,
  Null,
  OptStr,
  Selectors,
  Str,
  tags,
  Warnings,
} from "./schemas.ts";
import { OptionalItems } from "./item-schemas.ts";

export function menuRoutes(scope: TypedFastify, ctx: ServiceContext): void {
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
          name: MenuName,
          slug: Opt(NewMenuSlug),
          location: OptStr,
          lang: OptStr,
          items: Opt(OptionalItems),
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
      reply.code(201).send(answer(await createMenu(ctx, request.site, request.body, request.query))),
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
    async (request) => ok(await getMenu(ctx.db, request.site, ctx.publicFront, request.params.ref, request.query)),
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
    async (request) => answer(await patchMenu(ctx, request.site, request.params.ref, request.body, request.query)),
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
      answer(await deleteMenu(ctx, request.site, request.params.ref, request.body, request.query, dryRunOf(request))),
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
    async (request) => answer(await putLocation(ctx, request.site, request.params.ref, request.body, request.query)),
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
        await deleteLocation(ctx, request.site, request.params.ref, request.body, request.query, dryRunOf(request)),
      ),
  );

  itemRoutes(scope, ctx);
}
