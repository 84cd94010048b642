// POST /frames/check (docs/frames.md, "Check"): the warnings of several frames judged together,
// as they would stand once all were written; nothing is written.
import type { TypedFastify } from "../http/typed-fastify.ts";
import { absentBodyIsEmpty } from "../http/request.ts";
import { ok } from "../http/ok.ts";
import { commonErrors, Example, Obj, Opt, Success, Type, Warnings } from "../http/schema.ts";
import type { ServiceContext } from "../write/context.ts";
import { checkFrames, MAX_CHECK_FRAMES } from "./check-service.ts";

const CheckBody = Example(
  Obj({
    frames: Opt(
      Type.Array(
        Obj({
          slug: Type.String({ description: "a frame's slug (or id): replaces its markup, or adds a frame so named" }),
          html: Type.String({ description: "the markup, as POST /frames takes it" }),
        }),
        { description: `the frames to judge together: at least one, at most ${MAX_CHECK_FRAMES}` },
      ),
    ),
    data: Opt(
      Type.Union([Type.Array(Type.String()), Type.Null()], {
        description: "data sets written together with the frames: their sources are not warned unknown_source",
      }),
    ),
  }),
  {
    frames: [
      { slug: "layout", html: '<!doctype html><html><body><!-- svc/slot {"name": "main"} /--></body></html>' },
      {
        slug: "article",
        html: '<!-- svc/layout {"frame": "layout"} /--><!-- svc/block {"name": "main"} -->Hi<!-- /svc/block -->',
      },
    ],
  },
);

export function frameCheckRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  scope.post(
    "/frames/check",
    {
      config: { writesNothing: true },
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: "checkFrames",
        tags: ["frames"],
        summary:
          "The warnings each frame would get once all of them were written (frames checked together see each other); writes nothing. Refused as the writes refuse: 400 invalid_slug, frame_cycle, frame_ref_conflict, 413 frame_too_large",
        body: CheckBody,
        response: {
          200: Success({
            site_id: Type.Integer(),
            frames: Type.Array(
              Obj({
                slug: Type.String({ description: "the frame's slug as it would be written" }),
                warnings: Warnings,
              }),
              { description: "one per frame sent, in the order sent" },
            ),
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const { frames, warnings } = await checkFrames(ctx, request.site.id, request.caller!.userId, request.body);
      return ok({ site_id: request.site.id, frames }, warnings);
    },
  );
}
