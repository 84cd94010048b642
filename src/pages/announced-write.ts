// A page write whose changes to the page tree are announced through the write pipeline: the
// trees before and after are compared (effects/page-changes.ts) and the addresses that moved get
// their redirects (moves.ts). Translations (translations.ts, translation-link.ts) and the
// language given to pages without one (missing-language.ts) write through it.
import { gmt } from "../clock.ts";
import { pageChangesBetween } from "../effects/page-changes.ts";
import { languageState } from "../site/languages.ts";
import type { Db } from "../store/database.ts";
import type { UsageDelta } from "../quotas/usage.ts";
import type { Rebaked, Written } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import type { Warning } from "../warnings.ts";
import { recordAddressChanges } from "./moves.ts";
import { liteRowsOf, type PageLite } from "./queries.ts";
import { WriteRegion } from "./region.ts";
import { PageTree } from "./tree.ts";

/** Which pages a write changes: `written` (and `created`) by it; `enter` the page whose region it reads before (pages/region.ts). */
export interface Scope<T> {
  enter: PageLite;
  written: (result: T) => { written: number[]; created: number[] };
}

/** What a translation write's rows came to: its result, the pages it wrote (a revision each) and the room they take. */
export interface Rows<T> {
  result: T;
  wrote: number[];
  room?: UsageDelta;
}

/**
 * A write whose page changes (tree before and after) are announced after it commits, through the
 * write pipeline. `touched`: the pages whose other columns (content) it wrote, announced even
 * when their light row is as it was. With a `scope` only the region of the pages it names is read
 * (the cost of a write follows the pages it changes); without one, every page of the site (a
 * write over all of them, as `{missing: true}` is). The work may run twice (a trial rehearsed,
 * write/pipeline.ts): what it warns of is counted from the start each time.
 */
export async function announcedWrite<T>(
  ctx: ServiceContext,
  siteId: number,
  warnings: Warning[],
  work: (trx: Db) => Promise<Rows<T>>,
  touched: (result: T) => number[] = () => [],
  scope?: Scope<T>,
): Promise<{ result: T; rebaked: Rebaked }> {
  const warned = warnings.length;
  const done = await runWrite(ctx, {
    siteId,
    // What prints the pages, within the render budgets, or nothing is written.
    trial: true,
    apply: async (trx) => {
      warnings.length = warned;
      const region = scope ? new WriteRegion(trx, siteId) : null;
      if (region && scope) await region.enter(scope.enter);
      const whole = region ? null : new PageTree(await liteRowsOf(trx, siteId));
      const { result, wrote, room } = await work(trx);
      const named = scope?.written(result);
      const { before, after, subjects } =
        region && named
          ? await region.trees(named.written, named.created)
          : { before: whole as PageTree, after: new PageTree(await liteRowsOf(trx, siteId)), subjects: undefined };
      const addressing = { langs: await languageState(trx, siteId) };
      const now = gmt(ctx.clock());
      const moved = await recordAddressChanges(trx, siteId, now, { before, after, within: subjects }, addressing);
      const created = new Set(named?.created ?? []);
      return {
        value: result,
        wrote: [
          ...wrote.map(
            (id): Written => ({ kind: "page", id: String(id), action: created.has(id) ? "created" : "updated" }),
          ),
          ...moved.wrote,
        ],
        changes: [...pageChangesBetween(before, after, touched(result), subjects), ...moved.changes],
        room,
      };
    },
  });
  return { result: done.value, rebaked: done.rebaked };
}
