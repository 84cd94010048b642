// Writes of the kinds kept byte for byte: frames (with If-Match), stylesheets and media files.
import { data, send, type Rec } from "./api.ts";
import { CliError } from "./errors.ts";
import { refOfKey } from "./layout.ts";
import type { Warning } from "./output.ts";
import {
  conflictAt,
  need,
  text,
  urlsOf,
  warningsOf,
  type Change,
  type Outcome,
  type WriteContext,
} from "./write-types.ts";

function slugOf(key: string): string {
  const ref = refOfKey(key);
  if ("error" in ref || (ref.kind !== "frames" && ref.kind !== "menus" && ref.kind !== "media"))
    throw new CliError(1, `invalid_file: ${key}: ${"error" in ref ? ref.error : "not a frame"}`);
  return ref.slug;
}

/** A stylesheet's name, and its theme when it is not the site's (`themes/<theme>/<name>.css`). */
function styleOf(key: string): { name: string; theme: { theme: string } | Record<string, never> } {
  const ref = refOfKey(key);
  if ("error" in ref || ref.kind !== "styles") throw new CliError(1, `invalid_file: ${key}: not a stylesheet`);
  return { name: ref.name, theme: ref.theme === null ? {} : { theme: ref.theme } };
}

function frameOutcome(ctx: WriteContext, answer: Rec, response: Response, fallbackId?: string): Outcome {
  const frame = (answer.frame ?? {}) as Rec;
  const renamed = answer.renamed as Rec | undefined;
  const rewritten = Array.isArray(renamed?.frames_updated) ? (renamed.frames_updated as string[]) : [];
  return {
    written: {
      server_sha256: String(frame.sha256),
      id: String(frame.id ?? fallbackId),
      ...(response.headers.get("etag") ? { etag: response.headers.get("etag")! } : {}),
    },
    warnings: warningsOf(answer),
    urls: urlsOf(answer, ctx.facts),
    ...(rewritten.length
      ? {
          notes: [
            `references rewritten in ${rewritten.map((s) => `frames/${s}.html`).join(", ")} (svc pull takes them)`,
          ],
        }
      : {}),
  };
}

/** The ETag to send as If-Match: the one the last write left, else the frame's now, if its content is still what the plan saw. */
async function ifMatch(ctx: WriteContext, change: Change, key: string): Promise<string | undefined> {
  if (ctx.force) return undefined;
  if (change.base?.etag) return change.base.etag;
  const remote = need(change.remote, "the server's frame");
  const { data: answer, response } = await send(
    ctx.api,
    ctx.api.site.GET("/frames/{ref}", { params: { path: { ref: String(remote.id) } } }),
  );
  if (String((answer.frame as Rec).sha256) !== remote.hash)
    throw conflictAt(key, "changed on the server since this push read it");
  return response.headers.get("etag") ?? undefined;
}

/**
 * Sends a frame write with If-Match. A 412 whose current sha256 is still what the plan saw (only the
 * frame's revision moved, e.g. the same markup written again) is sent once more with the ETag it
 * names; any other 412 is a conflict.
 */
async function withIfMatch(
  ctx: WriteContext,
  change: Change,
  key: string,
  write: (etag: string | undefined) => Promise<{ data: Rec; response: Response }>,
): Promise<{ data: Rec; response: Response }> {
  const etag = await ifMatch(ctx, change, key);
  try {
    return await write(etag);
  } catch (error) {
    const details = (error as CliError).details as { code?: string; details?: Rec } | undefined;
    if (!(error instanceof CliError) || details?.code !== "precondition_failed") throw error;
    const current = details.details ?? {};
    if (typeof current.etag === "string" && current.sha256 === change.remote?.hash) {
      try {
        return await write(current.etag);
      } catch (again) {
        if (again instanceof CliError && (again.details as { code?: string }).code === "precondition_failed")
          throw conflictAt(key, "changed on the server while pushing (412 precondition_failed)");
        throw again;
      }
    }
    throw conflictAt(key, "changed on the server since the last sync (412 precondition_failed)");
  }
}

const ifMatchHeader = (etag: string | undefined) => (etag ? { "If-Match": etag } : {});

export async function writeFrame(ctx: WriteContext, change: Change): Promise<Outcome> {
  const { item } = change;
  const { api } = ctx;
  if (item.action === "create") {
    const local = need(change.local, "the frame's file");
    const { data: answer, response } = await send(
      api,
      api.site.POST("/frames", { body: { slug: slugOf(item.key), html: text(local) } }),
    );
    return frameOutcome(ctx, answer, response);
  }
  const remote = need(change.remote, "the server's frame");
  const ref = String(remote.id);
  if (item.action === "update") {
    const local = need(change.local, "the frame's file");
    const { data: answer, response } = await withIfMatch(ctx, change, item.key, (etag) =>
      send(
        api,
        api.site.PUT("/frames/{ref}", {
          params: { path: { ref } },
          headers: ifMatchHeader(etag),
          body: { html: text(local) },
        }),
      ),
    );
    return frameOutcome(ctx, answer, response, ref);
  }
  if (item.action === "rename") {
    const { data: answer, response } = await withIfMatch(ctx, change, item.key, (etag) =>
      send(
        api,
        api.site.PATCH("/frames/{ref}", {
          params: { path: { ref } },
          headers: ifMatchHeader(etag),
          body: { slug: slugOf(item.key) },
        }),
      ),
    );
    return frameOutcome(ctx, answer, response, ref);
  }
  const { data: answer } = await withIfMatch(ctx, change, item.key, (etag) =>
    send(api, api.site.DELETE("/frames/{ref}", { params: { path: { ref } }, headers: ifMatchHeader(etag) })),
  );
  return { written: { server_sha256: "" }, warnings: warningsOf(answer), urls: urlsOf(answer, ctx.facts) };
}

/** The analysis warnings a frame or stylesheet write would get (the API's dry run; nothing is written). */
export async function dryRunBytes(ctx: WriteContext, change: Change): Promise<Warning[]> {
  const { item, local } = change;
  const { api } = ctx;
  if (!local || (item.action !== "create" && item.action !== "update")) return [];
  if (item.kind === "frames") {
    const answer =
      item.action === "create"
        ? await data(
            api,
            api.site.POST("/frames", { body: { slug: slugOf(item.key), html: text(local), dry_run: true } }),
          )
        : await data(
            api,
            api.site.PUT("/frames/{ref}", {
              params: { path: { ref: String(need(change.remote, "the server's frame").id) } },
              body: { html: text(local), dry_run: true },
            }),
          );
    return warningsOf(answer);
  }
  if (item.kind === "styles") {
    const { name, theme } = styleOf(item.key);
    const answer = await data(
      api,
      api.site.PUT("/styles/{name}", {
        params: { path: { name }, query: { dry_run: "1" } as never },
        body: { css: text(local), ...theme },
      }),
    );
    return warningsOf(answer);
  }
  return [];
}

export async function writeStyle(ctx: WriteContext, change: Change): Promise<Outcome> {
  const { item } = change;
  const { api } = ctx;
  const { name, theme } = styleOf(item.key);
  if (item.action === "delete") {
    const answer = await data(
      api,
      api.site.DELETE("/styles/{name}", { params: { path: { name }, query: theme } as never }),
    );
    return { written: { server_sha256: "" }, warnings: warningsOf(answer), urls: urlsOf(answer, ctx.facts) };
  }
  const local = need(change.local, "the stylesheet's file");
  const answer = await data(
    api,
    api.site.PUT("/styles/{name}", { params: { path: { name } }, body: { css: text(local), ...theme } }),
  );
  return {
    written: { server_sha256: String((answer.style as Rec).sha256) },
    warnings: warningsOf(answer),
    urls: urlsOf(answer, ctx.facts),
  };
}

function mediaOutcome(ctx: WriteContext, answer: Rec): Outcome {
  const media = (answer.media ?? {}) as Rec;
  return {
    written: { server_sha256: String(media.sha256), id: Number(media.id) },
    warnings: warningsOf(answer),
    urls: urlsOf(answer, ctx.facts),
  };
}

/**
 * An upload again when the service answers 409 upload_conflict: a delete or replacement of a file
 * with the same bytes (e.g. another upload of this very push) removed them while this one was
 * recorded; nothing was written, and the service asks for the file again (docs/media.md, "Records").
 */
export async function upload(send: () => Promise<Rec>): Promise<Rec> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const code = error instanceof CliError ? (error.details as { code?: string }).code : undefined;
      if (code !== "upload_conflict" || attempt >= 3) throw error;
    }
  }
}

export async function writeMedia(ctx: WriteContext, change: Change): Promise<Outcome> {
  const { item } = change;
  const { api } = ctx;
  const filename = item.key.slice("media/".length);
  const raw = {
    bodySerializer: (body: unknown) => body as BodyInit,
    headers: { "Content-Type": "application/octet-stream" },
  };
  if (item.action === "create") {
    const local = need(change.local, "the media file");
    const answer = await upload(() =>
      data(api, api.site.POST("/media", { params: { query: { filename } }, body: local.bytes as never, ...raw })),
    );
    return mediaOutcome(ctx, answer);
  }
  const ref = String(need(change.remote, "the server's media file").id);
  if (item.action === "update") {
    const local = need(change.local, "the media file");
    const answer = await upload(() =>
      data(
        api,
        api.site.PUT("/media/{ref}", {
          params: { path: { ref }, query: { filename } },
          body: local.bytes as never,
          ...raw,
        }),
      ),
    );
    return mediaOutcome(ctx, answer);
  }
  if (item.action === "rename") {
    const answer = await data(
      api,
      api.site.PATCH("/media/{ref}", { params: { path: { ref } }, body: { slug: slugOf(item.key) } }),
    );
    return mediaOutcome(ctx, answer);
  }
  const answer = await data(api, api.site.DELETE("/media/{ref}", { params: { path: { ref } } }));
  return { written: { server_sha256: "" }, warnings: warningsOf(answer), urls: urlsOf(answer, ctx.facts) };
}
