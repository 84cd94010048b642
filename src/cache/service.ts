// POST /cache/flush as a write (docs/publishing.md, "Static copies and the cache"): it stores no
// row, but it runs through the write pipeline as every write does, so the flush is owed in the
// outbox (published even if the process dies before it) and appended as one event,
// `cache.flushed`, named `all` or `urls` with the addresses as its fields (docs/events.md).
import type { Rebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";

/** Drops the cached renders of these canonical addresses of the site, or of all of it; answers the publish report. */
export async function flushCache(
  ctx: ServiceContext,
  siteId: number,
  addresses: readonly string[] | "all",
): Promise<Rebaked> {
  const all = addresses === "all";
  const done = await runWrite(ctx, {
    siteId,
    apply: async () => ({
      value: null,
      wrote: [
        { kind: "cache", id: all ? "all" : "urls", action: "deleted", verb: "flushed", fields: all ? [] : addresses },
      ],
      changes: [{ kind: "flush", addresses }],
    }),
  });
  return done.rebaked;
}
