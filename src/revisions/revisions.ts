// Revisions (docs/revisions.md): every write of a frame, page, menu tree, data set,
// stylesheet or sidebar stores one revision of each object it changed, in its own transaction.
// Not a feature: like quotas/ and redirects/, it sits below the features, which give it the
// object's state (`Snapshot`, built by each feature) after their write. A state equal to the last
// revision's is no change and stores nothing, so a feature may revise what it may have changed.
//
// Each revision counts against the site's stored_bytes: recordRevision takes its room
// in the write's transaction before storing it, so a write whose revision does not fit is refused
// (quota_exceeded) and rolled back whole — after old revisions were pruned to make room, if any
// may be (reclaim.ts, imported here so that every process recording revisions can prune them).
import { createHash } from "node:crypto";
import { currentActor } from "../actor.ts";
import { revisionBytes } from "../quotas/bytes.ts";
import { requireRoom } from "../quotas/usage.ts";
import { Type } from "@sinclair/typebox";
import type { Db } from "../store/database.ts";
import { AnyObject, jsonColumn } from "../store/json-column.ts";
import "./reclaim.ts";

export const REVISION_KINDS = ["frames", "pages", "menus", "data", "styles", "sidebars"] as const;
export type RevisionKind = (typeof REVISION_KINDS)[number];

/** An object's state as a revision keeps it: what is shown and diffed, and the fields whose change is summarised. */
export interface Snapshot {
  content: string;
  fields: Record<string, unknown>;
}

export interface RevisionRecord {
  revision: number;
  sha256: string;
  bytes: number;
  created_at_gmt: string;
  created_by: number | null;
  summary: string[];
}

/** A value as JSON with its keys sorted at every depth (a stable text of equal states). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** JSON pretty-printed one field per line, keys sorted: the content of a revision of a JSON object. */
export function prettyJson(value: unknown): string {
  return `${JSON.stringify(sorted(value), null, 2)}\n`;
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The names of the fields whose values differ (every field of a first revision); both sorted already. */
function summaryOf(before: Record<string, unknown> | null, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after)]);
  return [...keys]
    .filter((key) => before === null || JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .sort();
}

/**
 * The fields as stored: "" when the content is the fields' pretty JSON (pages, menus, data sets,
 * sidebars), so the JSON kinds keep their state once; the fields' JSON otherwise (frames, stylesheets).
 */
function storedFields(content: string, fieldsJson: string, sortedFields: unknown): string {
  return content === `${JSON.stringify(sortedFields, null, 2)}\n` ? "" : fieldsJson;
}

/** A revision's fields (`fields_json`, or `content` where that is "") and its summary (`summary_json`, the fields that changed). */
const REVISION_FIELDS = jsonColumn("revisions.fields_json", AnyObject);
const REVISION_SUMMARY = jsonColumn("revisions.summary_json", Type.Array(Type.String()));

function fieldsOf(row: { content: string; fields_json: string }): Record<string, unknown> {
  return REVISION_FIELDS.read(row.fields_json === "" ? row.content : row.fields_json);
}

/**
 * Stores the object's state as its next revision, unless it is the last revision's state.
 * Answers the revision number stored, or null when nothing changed.
 */
export async function recordRevision(
  trx: Db,
  siteId: number,
  kind: RevisionKind,
  objectId: string,
  snapshot: Snapshot,
  now: string,
): Promise<number | null> {
  const last = await trx
    .selectFrom("revisions")
    .select(["revision", "sha256", "fields_json", "content"])
    .where("site_id", "=", siteId)
    .where("kind", "=", kind)
    .where("object_id", "=", objectId)
    .orderBy("revision", "desc")
    .limit(1)
    .executeTakeFirst();
  const fields = sorted(snapshot.fields) as Record<string, unknown>;
  const fieldsJson = JSON.stringify(fields);
  const hash = sha256(snapshot.content);
  const lastFields = last && fieldsOf(last);
  if (last && last.sha256 === hash && JSON.stringify(lastFields) === fieldsJson) return null;
  const revision = (last?.revision ?? 0) + 1;
  const stored = {
    content: snapshot.content,
    fields_json: storedFields(snapshot.content, fieldsJson, fields),
    summary_json: JSON.stringify(summaryOf(lastFields ?? null, fields)),
  };
  await requireRoom(trx, siteId, { stored_bytes: revisionBytes(stored) });
  await trx
    .insertInto("revisions")
    .values({
      site_id: siteId,
      kind,
      object_id: objectId,
      revision,
      sha256: hash,
      bytes: Buffer.byteLength(snapshot.content, "utf8"),
      ...stored,
      created_at_gmt: now,
      created_by: currentActor(),
    })
    .execute();
  return revision;
}

function recordOf(row: {
  revision: number;
  sha256: string;
  bytes: number;
  created_at_gmt: string;
  created_by: number | null;
  summary_json: string;
}): RevisionRecord {
  return {
    revision: row.revision,
    sha256: row.sha256,
    bytes: row.bytes,
    created_at_gmt: row.created_at_gmt,
    created_by: row.created_by,
    summary: REVISION_SUMMARY.read(row.summary_json),
  };
}

const LISTED = ["revision", "sha256", "bytes", "created_at_gmt", "created_by", "summary_json"] as const;

/** One page of an object's revisions, newest first, and how many it has. */
export async function listRevisions(
  db: Db,
  siteId: number,
  kind: RevisionKind,
  objectId: string,
  page: { limit: number; offset: number },
): Promise<{ total: number; revisions: RevisionRecord[] }> {
  const where = db
    .selectFrom("revisions")
    .where("site_id", "=", siteId)
    .where("kind", "=", kind)
    .where("object_id", "=", objectId);
  const [count, rows] = await Promise.all([
    where.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    where.select(LISTED).orderBy("revision", "desc").limit(page.limit).offset(page.offset).execute(),
  ]);
  return { total: Number(count.n), revisions: rows.map(recordOf) };
}

/** An object's last two revisions, newest first: what a write's event says changed (write/events.ts). */
export async function lastTwoRevisions(
  db: Db,
  siteId: number,
  kind: RevisionKind,
  objectId: string,
): Promise<Array<{ sha256: string; fields: Record<string, unknown>; summary: string[] }>> {
  const rows = await db
    .selectFrom("revisions")
    .select(["sha256", "content", "fields_json", "summary_json"])
    .where("site_id", "=", siteId)
    .where("kind", "=", kind)
    .where("object_id", "=", objectId)
    .orderBy("revision", "desc")
    .limit(2)
    .execute();
  return rows.map((row) => ({
    sha256: row.sha256,
    fields: fieldsOf(row),
    summary: REVISION_SUMMARY.read(row.summary_json),
  }));
}

/** One page of every revision of a site, of every kind, newest first, and how many it has. */
export async function listSiteRevisions(
  db: Db,
  siteId: number,
  page: { limit: number; offset: number },
): Promise<{ total: number; revisions: Array<RevisionRecord & { kind: RevisionKind; object_id: string }> }> {
  const where = db.selectFrom("revisions").where("site_id", "=", siteId);
  const [count, rows] = await Promise.all([
    where.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    // The index on (site_id, id) gives the newest first without a sort.
    where
      .select([...LISTED, "kind", "object_id"])
      .orderBy("id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  return {
    total: Number(count.n),
    revisions: rows.map((row) => ({ kind: row.kind as RevisionKind, object_id: row.object_id, ...recordOf(row) })),
  };
}

/** One revision with its content and fields; undefined when the object has none by that number. */
export async function revisionOf(
  db: Db,
  siteId: number,
  kind: RevisionKind,
  objectId: string,
  revision: number,
): Promise<(RevisionRecord & { content: string; fields: Record<string, unknown> }) | undefined> {
  const row = await db
    .selectFrom("revisions")
    .select([...LISTED, "content", "fields_json"])
    .where("site_id", "=", siteId)
    .where("kind", "=", kind)
    .where("object_id", "=", objectId)
    .where("revision", "=", revision)
    .executeTakeFirst();
  return row && { ...recordOf(row), content: row.content, fields: fieldsOf(row) };
}

/** The object's last revision number (0: none). */
export async function lastRevision(db: Db, siteId: number, kind: RevisionKind, objectId: string): Promise<number> {
  const row = await db
    .selectFrom("revisions")
    .select((eb) => eb.fn.max("revision").as("n"))
    .where("site_id", "=", siteId)
    .where("kind", "=", kind)
    .where("object_id", "=", objectId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
