// Scheduled publishing (docs/content-model.md, "Dates and scheduled publishing"): every process
// looks, when it starts and every `everyMs` (SVC_SCHEDULE_MS, 10 s), for pages whose status is
// `future` and whose date has come, and publishes each through the page write (page-write.ts), as
// a PATCH of its status to `publish` by nobody: revised, evented (`page.published`), owed and
// published like any status change, so the page, the lists, menus, sidebars, sitemap and feeds
// showing it follow. Between looks it also wakes at the next page's date when that comes sooner,
// so a page goes out on time when its process knew of it.
//
// Several processes (PostgreSQL) look at once: each page is published once. The write takes the
// site's use counters first (quotas/usage.ts), so one site's writes pass one at a time; in the
// write the page is read again, `FOR UPDATE SKIP LOCKED`, and published only while it is still
// `future` and due. A page another process published, or one edited meanwhile (its date moved
// later, its status changed), is left as it stands.
import { gmt } from "../clock.ts";
import { isPostgres, type Db } from "../store/database.ts";
import { siteById } from "../site/sites.ts";
import type { ServiceContext } from "../write/context.ts";
import type { Warning } from "../warnings.ts";
import { writeAndAnnounce } from "./page-write.ts";
import { updatePage } from "./page-rows.ts";
import type { PageRow } from "./queries.ts";

/** How often a process looks for pages due, unless told otherwise (SVC_SCHEDULE_MS). */
export const SCHEDULE_EVERY_MS = 10_000;
/** Pages read at a time; a full batch is followed by another at once. */
const BATCH = 50;

interface Log {
  info(object: unknown, message: string): void;
  error(object: unknown, message: string): void;
}

export interface SchedulerOptions {
  log: Log;
  everyMs?: number;
}

export interface Scheduler {
  /** Stops looking; a page being published finishes. */
  close(): Promise<void>;
}

/** The sign, inside the write, that the page is no longer due: nothing is written. */
class NotDue extends Error {}

/** The page, read again in the write: still `future` and due at `now`, and not taken by another process. */
function dueRow(trx: Db, siteId: number, id: number, now: string): Promise<PageRow | undefined> {
  const query = trx
    .selectFrom("pages")
    .selectAll()
    .where("site_id", "=", siteId)
    .where("id", "=", id)
    .where("status", "=", "future")
    .where("date_gmt", "<=", now);
  return (isPostgres(trx) ? query.forUpdate().skipLocked() : query).executeTakeFirst();
}

/** Publishes one due page; answers false when it was not due any more (or its site is gone). */
export async function publishScheduled(ctx: ServiceContext, siteId: number, id: number): Promise<boolean> {
  const site = await siteById(ctx.db, siteId);
  if (!site) return false;
  const warnings: Warning[] = [];
  try {
    await writeAndAnnounce(ctx, site, warnings, async (trx, now, region) => {
      const row = await dueRow(trx, site.id, id, now);
      if (!row) throw new NotDue();
      return { written: await updatePage(trx, site.id, row, { status: "publish" }, now, warnings, region) };
    });
    return true;
  } catch (error) {
    if (error instanceof NotDue) return false;
    throw error;
  }
}

/** Pages due at `now` but those already tried in this look, oldest date first: `{site_id, id}`. */
function duePages(db: Db, now: string, tried: ReadonlySet<number>): Promise<Array<{ site_id: number; id: number }>> {
  let query = db
    .selectFrom("pages")
    .select(["site_id", "id"])
    .where("status", "=", "future")
    .where("date_gmt", "<=", now);
  if (tried.size > 0) query = query.where("id", "not in", [...tried]);
  return query.orderBy("date_gmt").orderBy("id").limit(BATCH).execute();
}

/** The date of the next page to come due after `now`, in ms; undefined when none is scheduled. */
async function nextDue(db: Db, now: string): Promise<number | undefined> {
  const row = await db
    .selectFrom("pages")
    .select("date_gmt")
    .where("status", "=", "future")
    .where("date_gmt", ">", now)
    .orderBy("date_gmt")
    .limit(1)
    .executeTakeFirst();
  return row?.date_gmt ? Date.parse(`${row.date_gmt.replace(" ", "T")}Z`) : undefined;
}

/**
 * Publishes the pages due now, a batch at a time; answers how many it published. Each page is
 * tried once a look: one that fails (its render over the budgets, say) is logged and stays
 * `future`, and the next look tries it again; one another process holds is left to it.
 */
export async function publishDue(ctx: ServiceContext, log: Log, closed: () => boolean = () => false): Promise<number> {
  let published = 0;
  const tried = new Set<number>();
  for (;;) {
    const due = await duePages(ctx.db, gmt(ctx.clock()), tried);
    for (const page of due) {
      if (closed()) return published;
      tried.add(page.id);
      try {
        if (await publishScheduled(ctx, page.site_id, page.id)) {
          published++;
          log.info({ site_id: page.site_id, page: page.id }, "published a scheduled page");
        }
      } catch (error) {
        log.error({ err: error, site_id: page.site_id, page: page.id }, "publishing a scheduled page");
      }
    }
    if (due.length < BATCH) return published;
  }
}

/** Starts the process's scheduler: a look now, then every `everyMs` or at the next date, whichever is sooner. */
export function startScheduler(ctx: ServiceContext, options: SchedulerOptions): Scheduler {
  const everyMs = options.everyMs ?? SCHEDULE_EVERY_MS;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;

  const look = async (): Promise<void> => {
    let delay = everyMs;
    try {
      await publishDue(ctx, options.log, () => closed);
      const next = await nextDue(ctx.db, gmt(ctx.clock()));
      if (next !== undefined) delay = Math.max(0, Math.min(everyMs, next - ctx.clock()));
    } catch (error) {
      if (!closed) options.log.error({ err: error }, "scheduled publishing");
    }
    if (closed) return;
    timer = setTimeout(() => {
      running = look();
    }, delay);
    timer.unref();
  };

  running = look();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await running;
    },
  };
}
