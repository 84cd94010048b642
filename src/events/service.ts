// Reading events (docs/events.md): the audit log and the catch-up read, in increasing id after
// `since` (exclusive), of one site or of the whole network, narrowed by a type prefix.
import { fail } from "../errors.ts";
import type { Db } from "../store/database.ts";
import { sql } from "kysely";
import type { Published } from "../write/events.ts";

export const DEFAULT_EVENTS_LIMIT = 100;
export const MAX_EVENTS_LIMIT = 1000;

export interface EventRecord {
  id: number;
  site_id: number | null;
  type: string;
  object: { kind: string; id: string; slug: string | null };
  actor: { user_id: number | null; token_id: number | null };
  request_id: string | null;
  at: string;
  changes: { fields: string[]; sha256_before: string | null; sha256_after: string | null };
  /** What the write published; null while its publish run is not over. */
  published: Published | null;
}

export interface EventsQuery {
  since?: string;
  type?: string;
  limit?: string;
}

export function wholeNumber(
  value: string | undefined,
  parameter: string,
  least: number,
  most: number,
  otherwise: number,
) {
  if (value === undefined || value === "") return otherwise;
  const n = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= least && n <= most))
    throw fail(
      "invalid_parameter",
      { parameter, min: least, max: most },
      `${parameter} is a whole number from ${least} to ${most}.`,
    );
  return n;
}

/** The event id a reader resumes after (`?since`, the stream's Last-Event-ID); undefined when not given. */
export function resumePoint(value: string | undefined, parameter: string): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return wholeNumber(value.trim(), parameter, 0, Number.MAX_SAFE_INTEGER, 0);
}

type EventRow = Awaited<ReturnType<typeof selectEvents>>[number];

function selectEvents(db: Db, siteId: number | null, since: number, type: string | undefined, limit: number) {
  let select = db.selectFrom("events").selectAll().where("id", ">", since);
  if (siteId !== null) select = select.where("site_id", "=", siteId);
  // A type, or every type under it (`frame` → `frame.created`): compared as text, no LIKE pattern.
  if (type) {
    const under = `${type}.`;
    select = select.where((where) =>
      where.or([where("type", "=", type), sql<boolean>`substr(type, 1, ${under.length}) = ${under}`]),
    );
  }
  return select.orderBy("id").limit(limit).execute();
}

/** An event as GET /events shows it (and the stream and webhooks send it). */
export function eventOf(row: EventRow): EventRecord {
  return {
    id: row.id,
    site_id: row.site_id,
    type: row.type,
    object: { kind: row.object_kind, id: row.object_id, slug: row.object_slug },
    actor: { user_id: row.actor_user_id, token_id: row.actor_token_id },
    request_id: row.request_id,
    at: row.at,
    changes: JSON.parse(row.changes_json),
    published: row.published_json === null ? null : JSON.parse(row.published_json),
  };
}

/** The events of `siteId` (null: every site's and the network's own) after `since`, oldest first. */
export async function listEvents(db: Db, siteId: number | null, query: EventsQuery): Promise<EventRecord[]> {
  const since = wholeNumber(query.since, "since", 0, Number.MAX_SAFE_INTEGER, 0);
  const limit = wholeNumber(query.limit, "limit", 1, MAX_EVENTS_LIMIT, DEFAULT_EVENTS_LIMIT);
  const rows = await selectEvents(db, siteId, since, query.type?.trim(), limit);
  return rows.map(eventOf);
}

/** How long an event waits for its `published` before it goes out without it (a publish run that keeps failing). */
export const PUBLISHED_WAIT_MS = 60_000;

/**
 * Whether an event may go out at `now`: its write is published, or it has waited
 * PUBLISHED_WAIT_MS for that (the stream here and the webhook dispatcher both ask).
 */
export function goesOut(now: number): (row: Pick<EventRow, "published_json" | "at">) => boolean {
  const waitedSince = new Date(now - PUBLISHED_WAIT_MS).toISOString();
  return (row) => row.published_json !== null || row.at <= waitedSince;
}

/** The events that may go out now, and when the first one held back waits no longer. */
export interface ReadyEvents {
  events: EventRecord[];
  /**
   * When the first event held back (its write still being published) goes out without its
   * `published` (ms of the clock); null when none is held back.
   */
  heldUntil: number | null;
}

/**
 * The events after `since` that may go out now, oldest first: they stop before the first one
 * whose write is still being published (younger than PUBLISHED_WAIT_MS), so a reader that
 * resumes after the last id it sent misses none (events/stream.ts).
 */
export async function eventsReady(
  db: Db,
  siteId: number | null,
  since: number,
  type: string | undefined,
  now: number,
  limit = MAX_EVENTS_LIMIT,
): Promise<ReadyEvents> {
  const rows = await selectEvents(db, siteId, since, type, limit);
  const ready = goesOut(now);
  const pending = rows.findIndex((row) => !ready(row));
  if (pending < 0) return { events: rows.map(eventOf), heldUntil: null };
  return {
    events: rows.slice(0, pending).map(eventOf),
    heldUntil: Date.parse(rows[pending]!.at) + PUBLISHED_WAIT_MS,
  };
}

/** `eventsReady`'s events alone. */
export async function readyEvents(
  db: Db,
  siteId: number | null,
  since: number,
  type: string | undefined,
  now: number,
  limit = MAX_EVENTS_LIMIT,
): Promise<EventRecord[]> {
  return (await eventsReady(db, siteId, since, type, now, limit)).events;
}

/** The last event's id (0: none yet): where a reader that wants only new events starts. */
export async function lastEventId(db: Db): Promise<number> {
  const row = await db
    .selectFrom("events")
    .select((select) => select.fn.max("id").as("last"))
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}
