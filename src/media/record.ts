// A media file as the API answers it (docs/media.md, "Records"): its row, its public addresses
// (media/addresses.ts, the one rule) and where it is used.
import type { Db } from "../store/database.ts";
import { fileUrl, variantsOf, type Variant } from "./addresses.ts";
import type { MediaRow } from "./queries.ts";
import { parseTexts, type Texts } from "./texts.ts";
import { usedByOf, type UsedBy } from "./used-by.ts";

export interface MediaRecord {
  id: number;
  filename: string;
  slug: string;
  mime: string;
  bytes: number;
  sha256: string;
  width: number | null;
  height: number | null;
  alt: Texts;
  title: Texts;
  url: string;
  variants: Variant[];
  created_at_gmt: string;
  updated_at_gmt: string;
  updated_by: number;
  used_by: UsedBy;
}

export function recordOf(row: MediaRow, usedBy: UsedBy): MediaRecord {
  // bigint columns: PostgreSQL answers them as strings.
  const file = { sha256: row.sha256, filename: row.filename, mime: row.mime, width: row.width, height: row.height };
  return {
    id: Number(row.id),
    filename: row.filename,
    slug: row.slug,
    mime: row.mime,
    bytes: Number(row.bytes),
    sha256: row.sha256,
    width: row.width,
    height: row.height,
    alt: parseTexts(row.alt_json),
    title: parseTexts(row.title_json),
    url: fileUrl(file),
    variants: variantsOf(file),
    created_at_gmt: row.created_at_gmt,
    updated_at_gmt: row.updated_at_gmt,
    updated_by: Number(row.updated_by),
    used_by: usedBy,
  };
}

/** The records of rows of one site, `used_by` read once for all of them. */
export async function recordsOf(db: Db, siteId: number, rows: readonly MediaRow[]): Promise<MediaRecord[]> {
  const usedBy = await usedByOf(db, siteId, rows);
  return rows.map((row) => recordOf(row, usedBy.get(row.id)!));
}

export async function recordOfRow(db: Db, siteId: number, row: MediaRow): Promise<MediaRecord> {
  return (await recordsOf(db, siteId, [row]))[0]!;
}
