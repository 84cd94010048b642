// Building blocks of the `rebaked` report.
import type { Rebaked } from "./contract.ts";

/** Sorts strings by UTF-16 code units, the order every list of slugs and addresses is given in. */
export const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The name under which a frame's baked output is reported (`baked_option`). */
export function bakedOptionName(frameId: string): string {
  return `svc_frame_${frameId}_baked`;
}

/** The report of a change that affected no frame and no page; `urls` the cached addresses it flushed. */
export function nothingRebaked(urls: string[] = []): Rebaked {
  return {
    status: "ok",
    total: 0,
    baked: 0,
    not_needed: 0,
    frames: [],
    pages: [],
    cache: { status: "ok", scope: "pages", pages: [], flushed: { urls: { status: "ok", by: "api", urls, skipped: [] } } },
  };
}
