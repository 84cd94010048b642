// Documentation sidebars (docs/sidebars.md): GET /sidebars, GET/PUT/DELETE /sidebars/{name}.
// Site-scoped, at both addresses.
import type { TypedFastify } from "../http/typed-fastify.ts";
import { fail } from "../errors.ts";
import { ok } from "../http/ok.ts";
import { dryRunOf, DryRunQuery } from "../http/request.ts";
import { commonErrors, Obj, Opt, Rebaked, ServiceChecked, Success, Type, Warnings } from "../http/schema.ts";
import type { ServiceContext } from "../write/context.ts";
import { deleteSidebar, listSidebars, putSidebar, readSidebar } from "./service.ts";

const Str = Type.String();
const Int = Type.Integer();
const Item: ReturnType<typeof Type.Recursive> = Type.Recursive((This) =>
  Obj({
    id: Int,
    label: Type.String({ description: "the label given, else the page's current title in that language" }),
    page: Type.Union([Int, Type.Null()], { description: "the page's id; null for links and sections" }),
    url: Type.Union([Str, Type.Null()], { description: "the page's address or the link; null for sections" }),
    valid: Type.Boolean({
      description: "false while the page is a draft, trashed, deleted or under an unpublished parent",
    }),
    open: Type.Boolean(),
    items: Type.Array(This),
  }),
);
// An answered item sent back is a valid input item (null page, url and items read as absent).
const InputItem: ReturnType<typeof Type.Recursive> = Type.Recursive((This) =>
  Obj({
    id: Opt(Type.Union([Int, Type.Null()], { description: "an item of this sidebar to keep" })),
    page: Opt(Type.Union([Int, Str, Type.Null()], { description: "a page id, slug or path" })),
    url: Opt(
      Type.Union([Str, Type.Null()], { description: "a link (beside page: the page's address, as answered, ignored)" }),
    ),
    label: Opt(Type.Union([Str, Type.Null()])),
    open: Opt(
      Type.Union([Type.Boolean(), Type.Null()], {
        description: "a section printed open (default: collapsed unless it holds the page shown)",
      }),
    ),
    valid: Opt(Type.Boolean({ description: "answered; ignored" })),
    items: Opt(Type.Union([Type.Array(This), Type.Null()], { description: "a section's items" })),
  }),
);
const Sidebar = Obj({
  name: Str,
  root: Type.Union([Int, Type.Null()]),
  lang: Type.Union([Str, Type.Null()]),
  items: Type.Array(Item),
});
const NameParams = Obj({
  name: Type.String({ description: "^[a-z0-9][a-z0-9_-]*$; otherwise 400 invalid_sidebar_name" }),
});
const Written = Success({
  site_id: Int,
  sidebar: Sidebar,
  invalid: Type.Array(Obj({})),
  rebaked: Rebaked,
  warnings: Warnings,
});

function flag(value: unknown, field: string): boolean {
  if (value === undefined || value === "" || value === "false" || value === "0") return false;
  if (value === "true" || value === "1") return true;
  throw fail("invalid_field", { field, expected: "true or false" }, `${field} must be true or false.`);
}

export function sidebarRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const tags = ["sidebars"];

  scope.get(
    "/sidebars",
    {
      schema: {
        operationId: "listSidebars",
        tags,
        summary:
          "The site's sidebars: root (null for a tree written by hand), the languages with a tree of their own, and the default tree's item count at every depth",
        response: {
          200: Success({
            site_id: Int,
            sidebars: Type.Array(
              Obj({ name: Str, root: Type.Union([Int, Type.Null()]), languages: Type.Array(Str), items: Int }),
            ),
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => ok({ site_id: request.site.id, sidebars: await listSidebars(ctx, request.site) }),
  );

  scope.get(
    "/sidebars/:name",
    {
      schema: {
        operationId: "getSidebar",
        tags,
        summary:
          "A sidebar's tree in a language (?lang; default the default language's), mapped to translations when the language has no tree of its own",
        params: NameParams,
        querystring: Obj({ lang: Opt(Str) }),
        response: { 200: Success({ site_id: Int, sidebar: Sidebar, warnings: Warnings }), ...commonErrors },
      },
    },
    async (request) =>
      ok({
        site_id: request.site.id,
        sidebar: await readSidebar(ctx, request.site, request.params.name, request.query),
      }),
  );

  scope.put(
    "/sidebars/:name",
    {
      schema: {
        operationId: "putSidebar",
        tags,
        summary:
          "Replace a language's tree (the default language's without lang): {items} written by hand or {root} generated from the pages under a page (201 when the sidebar is new); items of unpublished pages are 409 sidebar_items_invalid unless ?allow_invalid=true",
        params: NameParams,
        querystring: Obj({
          allow_invalid: Opt(
            Type.String({ description: "true: leave items of unpublished pages out and list them in invalid" }),
          ),
        }),
        body: Obj({
          items: Opt(
            // Any value: treeFrom (input.ts) reads it, as it reads the stored trees a restore writes back, which no route schema sees.
            ServiceChecked(
              Type.Array(InputItem),
              "the tree: page, link and section items; a malformed one is 400 bad_items with its coordinate",
            ),
          ),
          root: Opt(Type.Union([Int, Str, Type.Null()], { description: "a page id, slug or path" })),
          lang: Opt(Type.Union([Str, Type.Null()])),
        }),
        response: { 200: Written, 201: Written, ...commonErrors },
      },
    },
    async (request, reply) => {
      const allowInvalid = flag(request.query.allow_invalid, "allow_invalid");
      const done = await putSidebar(ctx, request.site, request.params.name, request.body, { allowInvalid });
      return reply
        .code(done.created ? 201 : 200)
        .send(
          ok(
            { site_id: request.site.id, sidebar: done.sidebar, invalid: done.invalid, rebaked: done.rebaked },
            done.warnings,
          ),
        );
    },
  );

  scope.delete(
    "/sidebars/:name",
    {
      schema: {
        operationId: "deleteSidebar",
        tags,
        summary:
          "Delete a sidebar (every language's tree); it goes to the trash (GET /trash) with its history. ?dry_run=1: the same answer, nothing deleted",
        params: NameParams,
        querystring: Obj(DryRunQuery),
        response: {
          200: Success({
            site_id: Int,
            deleted: Obj({ name: Str }),
            rebaked: Rebaked,
            dry_run: Opt(Type.Literal(true)),
            applied: Opt(Type.Literal(false, { description: "with ?dry_run=1: nothing was written" })),
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) =>
      ok({
        site_id: request.site.id,
        ...(await deleteSidebar(ctx, request.site, request.params.name, dryRunOf(request))),
      }),
  );
}
