// What a page write stores when it schedules a page (docs/content-model.md, "Dates and scheduled
// publishing"): status `future` waits for the page's date; the scheduler (scheduler.ts) publishes
// it then. Decided where the stored row is known (page-rows.ts, translations.ts, undelete.ts).
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import { dateFrom, isoDate as isoDateOf } from "./post-fields.ts";
import { PAGE_STATUSES, type PageStatus } from "./queries.ts";

/** The status and date a write names (undefined: keeps the stored one). */
export interface Timing {
  status?: PageStatus;
  date?: string | null;
}

/**
 * The status a write stores. `future` needs a date (the one given, else the stored one): none is
 * 400 invalid_field (field `date`). A date that has come (`now` or earlier, `YYYY-MM-DD HH:MM:SS`
 * UTC) publishes at once with warning `published_now`, as WordPress publishes a post scheduled in
 * the past; so does any write to a `future` page whose time has come before the scheduler's turn.
 * Any other status is stored as written, whatever the date.
 */
export function scheduledStatus(
  timing: Timing,
  stored: { status: string; date_gmt: string | null } | undefined,
  now: string,
  warnings: Warning[],
): PageStatus | undefined {
  const status = timing.status ?? stored?.status;
  if (status !== "future") return timing.status;
  const date = timing.date !== undefined ? timing.date : (stored?.date_gmt ?? null);
  if (date === null)
    throw fail(
      "invalid_field",
      { field: "date", status: "future" },
      "A scheduled page (status future) needs a date: when it is to be published.",
    );
  if (date > now) return "future";
  warnings.push(
    warning("published_now", `The date ${isoDateOf(date)} has come, so the page was published now, not scheduled.`, {
      field: "date",
      date: isoDateOf(date),
    }),
  );
  return "publish";
}

/**
 * The status and date of a page made again from a revision's state (undelete.ts): a date that
 * does not read as one is none, and a `future` page without a date comes back a draft, since
 * nothing would ever publish it.
 */
export function keptTiming(
  state: { status?: unknown; date?: unknown },
  now: string,
  warnings: Warning[],
): { status: PageStatus; date_gmt: string | null } {
  let date_gmt: string | null = null;
  try {
    date_gmt = dateFrom(state.date) ?? null;
  } catch {
    date_gmt = null;
  }
  const kept = PAGE_STATUSES.find((status) => status === state.status) ?? "draft";
  if (kept === "future" && date_gmt === null) return { status: "draft", date_gmt };
  return { status: scheduledStatus({ status: kept }, { status: kept, date_gmt }, now, warnings) ?? kept, date_gmt };
}
