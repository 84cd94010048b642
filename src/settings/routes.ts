// Site settings and languages (docs/content-model.md): GET/PATCH /settings, GET/POST /languages,
// DELETE /languages/{code}. Site-scoped: served at /api/site/{site_id}/… and the legacy /api/….
import type { TypedFastify } from "../http/typed-fastify.ts";
import { ok } from "../http/ok.ts";
import { bodyOf, DryRunQuery, dryRunOf } from "../http/request.ts";
import { commonErrors, DryRunAnswer, Obj, Opt, Rebaked, ServiceChecked, Success, Type } from "../http/schema.ts";
import type { ServiceContext } from "../write/context.ts";
import { addLanguage, listLanguages, removeLanguage } from "./languages-service.ts";
import { patchSettings, readSettings } from "./settings-service.ts";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const Settings = Obj({
  name: Type.String(),
  tagline: Type.String(),
  theme: Type.String({ description: "defaults to `default`; menu location maps are kept per theme" }),
  default_lang: Nullable(Type.String()),
  home_page: Type.Union([Type.Integer(), Type.String(), Type.Null()], {
    description: "page reference (id, slug or path) as written",
  }),
  not_found_page: Type.Union([Type.Integer(), Type.String(), Type.Null()], {
    description: "the page shown with status 404 for unknown addresses (in the address's language), as written",
  }),
  iframe_hosts: Type.Array(Type.String(), {
    description:
      "host names an <iframe src> may name in HTML an editor writes; every other iframe an editor writes is removed (docs/roles.md)",
  }),
  menu_locations: Type.Array(Type.String(), {
    description:
      "the locations menus are assigned to and frames print (menu.<location>), in order; default header, footer_1, footer_2, footer_3 (docs/menus.md)",
  }),
  render_model: Type.Literal("v2"),
});

const Warnings = Type.Array(Obj({ code: Type.String(), message: Type.String() }));

const Language = Obj({
  code: Type.String(),
  name: Type.String(),
  default: Type.Boolean(),
  prefix: Type.String({ description: '"" for the default language, `/<code>/` for others' }),
});
const LanguagesFields = {
  site_id: Type.Integer(),
  active: Type.Boolean(),
  default_lang: Nullable(Type.String()),
  languages: Type.Array(Language),
};

const SettingsBody = Obj({
  name: Opt(Type.String()),
  tagline: Opt(Nullable(Type.String())),
  theme: Opt(Nullable(Type.String())),
  default_lang: Opt(Nullable(Type.String())),
  home_page: Opt(Type.Union([Type.Integer(), Type.String(), Type.Null()])),
  not_found_page: Opt(Type.Union([Type.Integer(), Type.String(), Type.Null()])),
  iframe_hosts: Opt(
    Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: `at most 100 host names (normalised as domains are; null: none), e.g. ["www.youtube-nocookie.com"]`,
    }),
  ),
  menu_locations: Opt(
    Type.Union([Type.Array(Type.String()), Type.Null()], {
      description:
        "1 to 50 unique location names (lower-case letters and digits, _ or - between them; null: the default ones); removing a location a menu is assigned to is 409 location_in_use",
    }),
  ),
  render_model: Opt(
    // Any value: none is refused, every one is ignored with a warning.
    ServiceChecked(Type.String(), "read-only (always v2): a value sent is ignored with warning render_model_fixed"),
  ),
});

export function settingsRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const tags = ["settings"];

  scope.get(
    "/settings",
    {
      schema: {
        operationId: "getSettings",
        tags,
        summary: "The site's settings",
        response: {
          200: Success({ site_id: Type.Integer(), settings: Settings, warnings: Warnings }),
          ...commonErrors,
        },
      },
    },
    async (request) => ok({ site_id: request.site.id, settings: await readSettings(ctx, request.site) }),
  );

  scope.patch(
    "/settings",
    {
      schema: {
        operationId: "patchSettings",
        tags,
        summary:
          "Write settings (name, tagline, theme, default_lang, home_page, not_found_page, iframe_hosts, menu_locations); unknown keys are ignored with warning unknown_setting",
        body: SettingsBody,
        querystring: Obj(DryRunQuery),
        response: {
          200: Success({
            site_id: Type.Integer(),
            settings: Settings,
            changed: Type.Array(Type.String()),
            ...DryRunAnswer,
            rebaked: Rebaked,
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const { warnings, ...fields } = await patchSettings(ctx, request.site, bodyOf(request), {
        dryRun: dryRunOf(request),
      });
      return ok({ site_id: request.site.id, ...fields }, warnings);
    },
  );
}

export function languagesRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const tags = ["languages"];
  const Write = Success({
    ...LanguagesFields,
    language: Language,
    created: Type.Boolean(),
    rebaked: Rebaked,
    warnings: Warnings,
  });

  scope.get(
    "/languages",
    {
      schema: {
        operationId: "listLanguages",
        tags,
        summary: "The site's languages; `active` is false until one is added",
        response: { 200: Success({ ...LanguagesFields, warnings: Warnings }), ...commonErrors },
      },
    },
    async (request) => ok({ site_id: request.site.id, ...(await listLanguages(ctx, request.site)) }),
  );

  scope.post(
    "/languages",
    {
      schema: {
        operationId: "createLanguage",
        tags,
        summary: "Add a language (the first added is the default; default: true moves the default), or rename one",
        body: Obj({
          code: Opt(Type.String({ description: "^[a-z]{2}(-[a-z]{2})?$" })),
          name: Opt(Nullable(Type.String())),
          default: Opt(Nullable(Type.Boolean())),
        }),
        response: { 200: Write, 201: Write, ...commonErrors },
      },
    },
    async (request, reply) => {
      const done = await addLanguage(ctx, request.site, bodyOf(request));
      const { warnings, ...fields } = done;
      return reply.code(done.created ? 201 : 200).send(ok({ site_id: request.site.id, ...fields }, warnings));
    },
  );

  scope.delete(
    "/languages/:code",
    {
      schema: {
        operationId: "deleteLanguage",
        tags,
        summary: "Remove a language; its pages keep their lang; the default moves to the earliest remaining one",
        params: Obj({ code: Type.String() }),
        querystring: Obj(DryRunQuery),
        response: {
          200: Success({
            ...LanguagesFields,
            deleted: Obj({ code: Type.String(), name: Type.String() }),
            ...DryRunAnswer,
            rebaked: Rebaked,
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const done = await removeLanguage(ctx, request.site, request.params.code, { dryRun: dryRunOf(request) });
      const { warnings, ...fields } = done;
      return ok({ site_id: request.site.id, ...fields }, warnings);
    },
  );
}
