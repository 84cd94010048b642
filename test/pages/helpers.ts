// Helpers for the content-model tests (pages, settings, data): a publisher that records what
// writes announce, and short calls for the common setup.
import type { Change } from "../../src/write/change.ts";
import type { Publisher } from "../../src/write/context.ts";
import { nothingRebaked } from "../../src/write/change.ts";
import type { TestApp } from "../support/app.ts";

export interface Recorder extends Publisher {
  calls: Array<{ siteId: number; changes: Change[] }>;
  /** Every change announced since the last reset, flattened. */
  changes(): Change[];
  reset(): void;
}

/** Replaces the app's publisher with one that records each call (and affects nothing). */
export function recordChanges(t: TestApp): Recorder {
  const calls: Recorder["calls"] = [];
  const recorder: Recorder = {
    calls,
    async check() {
      return undefined;
    },
    async changed(siteId, changes) {
      calls.push({ siteId, changes });
      return nothingRebaked();
    },
    changes: () => calls.flatMap((call) => call.changes),
    reset: () => void calls.splice(0),
  };
  t.deps.publisher = recorder;
  return recorder;
}

/** The page changes announced, as [pageId, parents, gone] sorted by page id. */
export function pageChanges(recorder: Recorder): Array<{ pageId: number; parents?: number[]; gone?: boolean }> {
  return recorder
    .changes()
    .filter((c): c is Extract<Change, { kind: "page" }> => c.kind === "page")
    .map(({ pageId, parents, gone }) => ({ pageId, ...(parents ? { parents } : {}), ...(gone ? { gone } : {}) }))
    .sort((a, b) => a.pageId - b.pageId);
}

/** POST /pages on a site; throws unless 200/201. Returns the answer body. */
export async function publish(t: TestApp, siteId: number, body: Record<string, unknown>): Promise<any> {
  const r = await t.call("POST", `/api/site/${siteId}/pages`, { body });
  if (r.status !== 200 && r.status !== 201) throw new Error(`publish ${JSON.stringify(body)}: ${r.status} ${r.text}`);
  return r.body;
}

export async function addLanguage(
  t: TestApp,
  siteId: number,
  code: string,
  extra: Record<string, unknown> = {},
): Promise<any> {
  const r = await t.call("POST", `/api/site/${siteId}/languages`, { body: { code, ...extra } });
  if (r.status !== 200 && r.status !== 201) throw new Error(`language ${code}: ${r.status} ${r.text}`);
  return r.body;
}

export const enc = encodeURIComponent;
