// Strings per language: GET, PUT and PATCH /strings. Site-scoped, at both addresses.
import type { TypedFastify } from "../http/typed-fastify.ts";
import { ok } from "../http/ok.ts";
import { commonErrors, Obj, Opt, Rebaked, Refusing, Success, Type, Warnings } from "../http/schema.ts";
import type { ServiceContext } from "../write/context.ts";
import { patchStrings, putStrings, readStrings } from "./service.ts";

const Texts = Type.Record(Type.String(), Type.String(), {
  description: "key (dot-separated segments of letters, digits, _ and -) → text",
});

export function stringRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const tags = ["strings"];
  scope.get(
    "/strings",
    {
      schema: {
        operationId: "getStrings",
        tags,
        summary: "The texts frames print with t.<key>, for every language of the site (?lang: one)",
        querystring: Obj({ lang: Opt(Type.String()) }),
        response: {
          200: Success({
            site_id: Type.Integer(),
            default_lang: Type.Union([Type.String(), Type.Null()]),
            strings: Type.Record(Type.String(), Texts),
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => ok({ site_id: request.site.id, ...(await readStrings(ctx, request.site, request.query)) }),
  );

  const written = Success({
    site_id: Type.Integer(),
    lang: Type.Union([Type.String(), Type.Null()]),
    strings: Texts,
    rebaked: Rebaked,
    warnings: Warnings,
  });
  const lang = Opt(Type.Union([Type.String(), Type.Null()]));

  scope.put(
    "/strings",
    {
      schema: {
        operationId: "putStrings",
        tags,
        summary:
          "Replace the texts of one language ({lang?, strings}; default the default language's); rebakes the frames reading the keys that changed",
        body: Obj({
          lang,
          strings: Refusing(
            Type.Record(Type.String(), Type.String(), {
              description:
                "key (dot-separated segments of letters, digits, _ and -) → text; required; a bad key or a text that is not a string is 400 bad_strings",
            }),
            "bad_strings",
          ),
        }),
        response: { 200: written, ...commonErrors },
      },
    },
    async (request) => ok({ site_id: request.site.id, ...(await putStrings(ctx, request.site, request.body)) }),
  );

  scope.patch(
    "/strings",
    {
      schema: {
        operationId: "patchStrings",
        tags,
        summary:
          "Merge keys into the texts of one language ({lang?, strings}; default the default language's): each key given is set, a key set to null is removed, the others stay; answers the language's texts after it",
        body: Obj({
          lang,
          strings: Refusing(
            Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()]), {
              description:
                "key → text, or null to remove the key; required; a bad key or a text that is neither a string nor null is 400 bad_strings",
            }),
            "bad_strings",
          ),
        }),
        response: { 200: written, ...commonErrors },
      },
    },
    async (request) => ok({ site_id: request.site.id, ...(await patchStrings(ctx, request.site, request.body)) }),
  );
}
