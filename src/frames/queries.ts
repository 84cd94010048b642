// Frame rows of one site. Plain functions taking the database or a transaction.
import { randomBytes } from "node:crypto";
import type { Db } from "../store/database.ts";
import type { FrameRow } from "./record.ts";

export function newFrameId(): string {
  return randomBytes(8).toString("hex");
}

const HEX16 = /^[0-9a-f]{16}$/;

/** `{ref}` is the frame id or its slug; an id wins when both could match. */
export async function frameByRef(db: Db, siteId: number, ref: string): Promise<FrameRow | undefined> {
  const value = ref.trim();
  if (HEX16.test(value)) {
    const byId = await db
      .selectFrom("frames")
      .selectAll()
      .where("site_id", "=", siteId)
      .where("id", "=", value)
      .executeTakeFirst();
    if (byId) return byId;
  }
  return db
    .selectFrom("frames")
    .selectAll()
    .where("site_id", "=", siteId)
    .where("slug", "=", value.toLowerCase())
    .executeTakeFirst();
}

export function frameBySlug(db: Db, siteId: number, slug: string): Promise<FrameRow | undefined> {
  return db.selectFrom("frames").selectAll().where("site_id", "=", siteId).where("slug", "=", slug).executeTakeFirst();
}

/** The light columns the dependency index needs, without the markup. */
export function frameGraphRows(db: Db, siteId: number) {
  return db.selectFrom("frames").select(["id", "slug", "analysis_json"]).where("site_id", "=", siteId).execute();
}

/** Frames by id without their markup (what a render checks against the compiled-frame cache). */
export const frameHeads = (db: Db, ids: readonly string[]) =>
  db
    .selectFrom("frames")
    .select(["id", "slug", "sha256", "bytes"])
    .where("id", "in", [...ids])
    .execute();

/** Frames by id with their markup. */
export const frameMarkup = (db: Db, ids: readonly string[]) =>
  db
    .selectFrom("frames")
    .select(["id", "slug", "sha256", "html"])
    .where("id", "in", [...ids])
    .execute();
