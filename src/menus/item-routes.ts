// Item endpoints (docs/menus.md, "Calls"): the whole tree, one item, and the order of a level.
// Registered by routes.ts after the menu's own calls; schemas in schemas.ts.
import type { TypedFastify } from "../http/typed-fastify.ts";
import { commonErrors, Example, Obj, Rebaked, Success, Type } from "../http/schema.ts";
import { dryRunOf, DryRunQuery } from "../http/request.ts";
import type { ServiceContext } from "../write/context.ts";
import { addItem, deleteItem, patchItem, replaceItems } from "./items-service.ts";
import { reorderItems } from "./reorder-service.ts";
import { Items, PatchItemFields, SingleItemFields } from "./item-schemas.ts";
import {
  AllowInvalid,
  answer,
  DryRun,
  Int,
  Invalid,
  Item,
  ItemParams,
  MenuBrief,
  MenuRef,
  OptStr,
  ReorderFields,
  Selectors,
  Str,
  tags,
  Warnings,
} from "./schemas.ts";

export function itemRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  scope.put(
    "/menus/:ref/items",
    {
      schema: {
        operationId: "putMenuItems",
        tags,
        summary: "Replace the whole tree in one transaction",
        params: MenuRef,
        querystring: Selectors,
        body: Example(Obj({ items: Items, allow_invalid: AllowInvalid, lang: OptStr, theme: OptStr }), {
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
    async (request) => answer(await replaceItems(ctx, request.site, request.params.ref, request.body, request.query)),
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
        body: Obj({ ...SingleItemFields, allow_invalid: AllowInvalid, lang: OptStr, theme: OptStr }),
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
      const done = await addItem(ctx, request.site, request.params.ref, request.body, request.query);
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
        body: Obj({ ...PatchItemFields, lang: OptStr, theme: OptStr }),
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
      answer(await patchItem(ctx, request.site, request.params.ref, request.params.id, request.body, request.query)),
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
          request.body,
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
        body: Obj({ ...ReorderFields, lang: OptStr, theme: OptStr }),
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
    async (request) => answer(await reorderItems(ctx, request.site, request.params.ref, request.body, request.query)),
  );
}
