// Public media files and their variants: GET and HEAD /media/<prefix>/<name> on a site's domains
// (docs/media.md, "Serving and variants"). The host names the site as it does for pages
// (an unknown host is the main site's); the address is looked up among that site's files only.
//
// Registered beside `/*` (routes.ts): the router takes `/media/*` first, and the page fast path
// (answerFromMemory) never holds a media address, which never ends in `/`. Every request is counted
// against the public limit. An address that names no file of the site (another site's, a deleted
// one, a variant that cannot be made) gets exactly the public site's answer for it: the same 404 as
// an address that never held a page, so nothing is learned of another site's media.
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { BlobStore } from "../blobs/blob-store.ts";
import type { CpuPermits } from "../cpu-permits.ts";
import { findServed, mediaAddressOf, planAnswer, type ServedFile } from "../media/serve.ts";
import { derivedName, DEFAULT_VARIANT_LIMITS, VariantMaker } from "../media/variants.ts";
import { variantKeeper } from "../media/variant-charges.ts";
import type { Db } from "../store/database.ts";
import { hostOf } from "../site/addresses.ts";
import type { PublicSite } from "./public-site.ts";
import { pageAnswerer, withinPublicLimit, type PublicGate } from "./routes.ts";

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(",") : value;
}

/**
 * The variant maker of an app: variants charged to their site in its store, failures to the app's
 * log, made within the cores the app's renders use too (`cpu`).
 */
export function variantMakerFor(blobs: BlobStore, db: Db, log: FastifyBaseLogger, cpu?: CpuPermits): VariantMaker {
  const report = (sha256: string, width: number, error: Error) =>
    log.warn({ err: error, sha256, width }, "media variant cannot be made: its address answers 404");
  return new VariantMaker(blobs, variantKeeper(db), DEFAULT_VARIANT_LIMITS, report, cpu);
}

export function mediaRoutes(
  app: FastifyInstance,
  site: PublicSite,
  gate: PublicGate,
  blobs: BlobStore,
  variants = variantMakerFor(blobs, gate.db, app.log),
): void {
  const answerPage = pageAnswerer(site, gate);

  /**
   * The file an address names on the request's site, and its size (with its bytes when a variant
   * was made but not kept); undefined when none is there.
   */
  async function servedOf(
    request: FastifyRequest,
  ): Promise<{ file: ServedFile; size: number; data?: Buffer } | undefined> {
    const address = mediaAddressOf(request.url);
    if (address === null) return undefined;
    const host = hostOf(request.host);
    const served = site.directory.peek(host) ?? (await site.directory.resolve(host));
    if (served === undefined) return undefined;
    const file = await findServed(gate.db, served.id, address);
    if (file === undefined) return undefined;
    // The row says the file's size (no stat); a blob gone meanwhile is found by the read.
    if (file.variant === undefined) return { file, size: file.bytes };
    const outcome = await variants.variant({
      siteId: served.id,
      mediaId: file.mediaId,
      sha256: file.sha256,
      ...file.variant,
    });
    return outcome === "gone" || "failed" in outcome ? undefined : { file, size: outcome.bytes, data: outcome.data };
  }

  async function handler(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    if (!(await withinPublicLimit(gate, request, reply))) return reply;
    const moved = await site.aliasAnswer(hostOf(request.host), request.url);
    if (moved) return reply.code(moved.status).headers(moved.headers).send(moved.body);
    const served = await servedOf(request);
    if (served === undefined) return answerPage(request, reply);
    const { file, size, data } = served;
    const plan = planAnswer(file, size, {
      method: request.method === "HEAD" ? "HEAD" : "GET",
      range: single(request.headers.range),
      ifNoneMatch: single(request.headers["if-none-match"]),
      ifRange: single(request.headers["if-range"]),
    });
    if (plan.body === undefined) return reply.code(plan.status).headers(plan.headers).send();
    // Made but not kept (past the site's media_bytes): these bytes, this once.
    if (data !== undefined)
      return reply
        .code(plan.status)
        .headers(plan.headers)
        .send(plan.body === "whole" ? data : data.subarray(plan.body.start, plan.body.end + 1));
    // Streamed from the store: a range is read as a range, never the whole file into memory.
    const name = file.variant === undefined ? undefined : derivedName(file.variant.width);
    const stream = await blobs.read(file.sha256, { name, range: plan.body === "whole" ? undefined : plan.body });
    // Deleted since its size was read: as gone as if it had been before.
    if (stream === undefined) return answerPage(request, reply);
    return reply.code(plan.status).headers(plan.headers).send(stream);
  }

  app.route({ method: ["GET", "HEAD"], url: "/media/*", schema: { hide: true }, handler });
}
