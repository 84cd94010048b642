// GET /media (one page of a site's files, newest first, filtered by ?type and ?search) and
// GET /media/{ref}.
import { fail } from "../errors.ts";
import type { Db } from "../store/database.ts";
import type { ListWindow } from "../store/lists.ts";
import { listMediaRows, requireMedia, type MediaFilters } from "./queries.ts";
import { recordOfRow, recordsOf, type MediaRecord } from "./record.ts";
import type { MediaKind } from "./sniff.ts";

export const MAX_SEARCH_LENGTH = 200;

/**
 * `?type` and `?search` of GET /media, as the route schema lets them through (a kind or "", a
 * text; anything else is its 400 invalid_parameter); a search longer than 200 characters once
 * trimmed is 400 invalid_parameter.
 */
export function mediaFiltersFrom(query: { type?: MediaKind | ""; search?: string }): MediaFilters {
  const search = query.search?.trim().toLowerCase();
  if (search !== undefined && search.length > MAX_SEARCH_LENGTH) {
    throw fail(
      "invalid_parameter",
      { parameter: "search", max_length: MAX_SEARCH_LENGTH },
      `search is at most ${MAX_SEARCH_LENGTH} characters.`,
    );
  }
  return { kind: query.type ? query.type : null, search: search ? search : null };
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
