// GET /media (one page of a site's files, newest first, filtered by ?type and ?search) and
// GET /media/{ref}.
import { fail } from "../errors.ts";
import type { Db } from "../store/database.ts";
import type { ListWindow } from "../store/lists.ts";
import { listMediaRows, requireMedia, type MediaFilters } from "./queries.ts";
import { recordOfRow, recordsOf, type MediaRecord } from "./record.ts";
import { MEDIA_KINDS, type MediaKind } from "./sniff.ts";

export const MAX_SEARCH_LENGTH = 200;

function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string")
    throw fail("invalid_parameter", { parameter: name, value }, `${name} may be given once.`);
  return value;
}

/** `?type` and `?search` of GET /media; anything else is 400 invalid_parameter. */
export function mediaFiltersFrom(query: Record<string, unknown>): MediaFilters {
  const type = single(query, "type");
  if (type !== undefined && type !== "" && !(MEDIA_KINDS as readonly string[]).includes(type)) {
    throw fail(
      "invalid_parameter",
      { parameter: "type", value: type, allowed: MEDIA_KINDS },
      `type must be one of ${MEDIA_KINDS.join(", ")}.`,
    );
  }
  const search = single(query, "search")?.trim().toLowerCase();
  if (search !== undefined && search.length > MAX_SEARCH_LENGTH) {
    throw fail(
      "invalid_parameter",
      { parameter: "search", max_length: MAX_SEARCH_LENGTH },
      `search is at most ${MAX_SEARCH_LENGTH} characters.`,
    );
  }
  return { kind: type ? (type as MediaKind) : null, search: search ? search : null };
}

export async function listMedia(
  db: Db,
  siteId: number,
  filters: MediaFilters,
  window: ListWindow,
): Promise<{ total: number; media: MediaRecord[] }> {
  const { total, rows } = await listMediaRows(db, siteId, filters, window);
  return { total, media: await recordsOf(db, siteId, rows) };
}

export async function getMedia(db: Db, siteId: number, ref: string): Promise<MediaRecord> {
  return recordOfRow(db, siteId, await requireMedia(db, siteId, ref));
}
