// Building blocks of the `rebaked` report.
import type { Publisher, Rebaked } from "./changes.ts";

/** The report of a change that affected no frame and no page. */
export function nothingRebaked(): Rebaked {
  return {
    status: "ok",
    total: 0,
    baked: 0,
    not_needed: 0,
    frames: [],
    pages: [],
    cache: { status: "ok", scope: "pages", pages: [], flushed: { urls: { status: "ok", by: "api", urls: [], skipped: [] } } },
  };
}

/**
 * The publisher while the site has no frame store: nothing can depend on a change, so every
 * change truthfully affects nothing. The publishing engine (issue 5) replaces it in AppDeps.
 */
export const publisherWithoutFrames: Publisher = {
  async changed() {
    return nothingRebaked();
  },
};
