// CSV answers of list routes (`Accept: text/csv`; GET /seo/redirects, GET /forms/{name}/submissions):
// whether the caller asks for one, and its media type. Any other Accept gets JSON.
export const CSV_TYPE = "text/csv; charset=utf-8";

/** Whether the caller asks for CSV (`Accept: text/csv`); JSON otherwise. */
export function wantsCsv(accept: string | undefined): boolean {
  return accept !== undefined && /(^|,)\s*text\/csv\s*(;|,|$)/i.test(accept);
}
