// One page write (docs/content-model.md, "Pages"): what publishing and PATCH (publish-service.ts,
// patch-service.ts), delete (delete-service.ts) and restore (undelete.ts) share. Every write goes
// through the write pipeline (write/pipeline.ts), which records a revision of each page it wrote
// (revision.ts) and, once it has committed, announces the pages it changed.
import { gmt } from "../clock.ts";
import { warning, type Warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Rebaked, Written, WrittenAction } from "../write/change.ts";
import { nothingRebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import type { Db } from "../store/database.ts";
import { pageChangesBetween } from "../effects/page-changes.ts";
import { pageById, type PageRow } from "./queries.ts";
import { pageRecords, type PageRecord } from "./record.ts";
import { offlineBetween } from "./offline.ts";
import { WriteRegion } from "./region.ts";
import { siteAddressing } from "../site/addresses.ts";
import type { Placement, Stub } from "./placement.ts";
import type { UsageDelta } from "../quotas/usage.ts";
import { recordAddressChanges } from "./moves.ts";
import { runPageWrite } from "./write-race.ts";
import "./revision.ts";

export interface SlugChanged {
  from: string;
  to: string;
}

export interface PageWriteAnswer {
  page: PageRecord;
  created: boolean;
  slug_changed?: SlugChanged;
  created_stubs?: Stub[];
  rebaked: Rebaked;
  warnings: Warning[];
  /** A dry run (`?dry_run=1`): nothing was written; `page` is the page as it stands. */
  dry_run?: boolean;
  applied?: boolean;
}

/** One page's row as a write left it; `room` what the row takes beyond what it took before. */
export interface PageWritten {
  row: PageRow;
  created: boolean;
  slugChanged?: SlugChanged;
  room?: UsageDelta;
  /** The event's verb when the write moved the page into the trash or out of it (`trashVerb`). */
  verb?: "deleted" | "restored";
}

/** A page put in the trash is `deleted`, one taken out of it `restored` (docs/events.md), whatever the call. */
export function trashVerb(before: string, after: string): PageWritten["verb"] {
  if (before !== "trash" && after === "trash") return "deleted";
  if (before === "trash" && after !== "trash") return "restored";
  return undefined;
}

/** What a page write's rows came to (the work `writeAndAnnounce` is given). */
export interface PageWork {
  written: PageWritten;
  /** Where the page was placed, with the stubs made on the way (absent: none). */
  placed?: Placement;
  /** Further pages the work changed (a restore's children put back): a revision each. */
  revise?: number[];
  /** What it did to the page, when not plainly created or updated (a restore). */
  action?: WrittenAction;
}

/** Options every page write shares: `dryRun` (`?dry_run=1`) answers what the write would do and changes nothing. */
export interface WriteOptions {
  dryRun?: boolean;
}

/** The room a page write takes: its row's, and the stubs' made on the way. */
function roomOf(work: PageWork): UsageDelta {
  const stubs = work.placed?.stubs.length ?? 0;
  return {
    pages: (work.written.room?.pages ?? 0) + stubs,
    stored_bytes: (work.written.room?.stored_bytes ?? 0) + (work.placed?.stubBytes ?? 0),
  };
}

/** What a page write wrote: the page, its stubs and the further pages it names (a revision each). */
function wroteBy(work: PageWork): Written[] {
  const page = (id: number, action: WrittenAction): Written => ({ kind: "page", id: String(id), action });
  const verb = work.written.verb ? { verb: work.written.verb } : {};
  return [
    { ...page(work.written.row.id, work.action ?? (work.written.created ? "created" : "updated")), ...verb },
    ...(work.placed?.stubs ?? []).map((stub) => page(stub.id, "created")),
    ...(work.revise ?? []).map((id) => page(id, "updated")),
  ];
}

/**
 * One page write: the tree before and after gives the changes to announce and the pages it
 * takes offline (warnings `pages_offline`). The written page, its stubs and the pages `work`
 * names in `revise` get a revision each when their state changed.
 */
export async function writeAndAnnounce(
  ctx: ServiceContext,
  site: SiteRow,
  warnings: Warning[],
  work: (trx: Db, now: string, region: WriteRegion) => Promise<PageWork>,
  options: WriteOptions = {},
): Promise<PageWriteAnswer> {
  const now = gmt(ctx.clock());
  const addressing = await siteAddressing(ctx.db, site, ctx.publicFront);
  // The work may run twice (a trial rehearsed outside the transaction, write/pipeline.ts; a
  // unique-key race run again): what it warns of is counted from here each time.
  const warned = warnings.length;
  const done = await runPageWrite(ctx, {
    siteId: site.id,
    dryRun: options.dryRun === true,
    // What prints the page (its own output first), within the render budgets, or nothing is written.
    trial: true,
    apply: async (trx) => {
      warnings.length = warned;
      const region = new WriteRegion(trx, site.id);
      const step = await work(trx, now, region);
      const id = step.written.row.id;
      const stubs = step.placed?.stubs ?? [];
      const { before, after, subjects } = await region.trees(
        [id],
        [...(step.written.created ? [id] : []), ...stubs.map((stub) => stub.id)],
      );
      const offline = offlineBetween(addressing, before, after, "it or a parent page left the public site", subjects);
      // Pages that moved leave a redirect behind; an address a page took is freed of one.
      const moved = await recordAddressChanges(trx, site.id, now, { before, after, within: subjects }, addressing);
      return {
        value: { written: step.written, stubs, offline },
        wrote: [...wroteBy(step), ...moved.wrote],
        changes: [...pageChangesBetween(before, after, [id], subjects), ...moved.changes],
        room: roomOf(step),
      };
    },
  });
  const { written, stubs, offline } = done.value;
  warnings.push(...offline);
  if (options.dryRun) {
    const current = written.created ? undefined : await pageById(ctx.db, site.id, written.row.id);
    const [page] = current ? await pageRecords(ctx.db, site, ctx.publicFront, [current]) : [undefined];
    return {
      page: page as PageRecord,
      created: false,
      dry_run: true,
      applied: false,
      rebaked: nothingRebaked(),
      warnings,
    };
  }
  const [page] = await pageRecords(ctx.db, site, ctx.publicFront, [written.row]);
  if (written.slugChanged) {
    warnings.push(
      warning(
        "slug_changed",
        `The slug "${written.slugChanged.from}" is taken here; the page got "${written.slugChanged.to}".`,
        { ...written.slugChanged },
      ),
    );
  }
  if (page.status === "publish" && !page.visible) {
    warnings.push(
      warning(
        "parent_unpublished",
        "The page is published but a parent page is not, so its address answers 404 until every parent is published.",
        { id: page.id },
      ),
    );
  }
  return {
    page,
    created: written.created,
    ...(written.slugChanged ? { slug_changed: written.slugChanged } : {}),
    ...(stubs.length > 0 ? { created_stubs: stubs } : {}),
    rebaked: done.rebaked,
    warnings,
  };
}
