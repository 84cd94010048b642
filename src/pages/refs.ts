// Page references (`{ref}`, `parent`, `page`, `home_page`, menu items): an id, a slug or a path.
// An id wins over a slug ("12" is page 12 if it exists, else the page with slug "12"). A value
// with a slash is a path (`/company/team`, a full address too); a non-default language's prefix
// may lead it (`/de/ueber-uns`). Slug and path lookups leave trashed pages out; an id finds them.
import { fail } from "../errors.ts";
import type { LanguageState } from "../site/languages.ts";
import { languageState } from "../site/languages.ts";
import type { Db } from "../store/database.ts";
import { pathSegments } from "./paths.ts";
import { findPages, pageById, type PageRow } from "./queries.ts";

export interface RefOptions {
  /** Only pages in this language ('' for pages without one); undefined: any language. */
  lang?: string;
  /** The field the reference came from, named in refusals (default `page`). */
  field?: string;
}

export type Lookup = { found: PageRow } | { candidates: PageRow[] } | { missing: true };

export interface PageCandidate {
  id: number;
  title: string;
  path: string;
  lang: string | null;
  status: string;
}

export function candidateOf(row: PageRow): PageCandidate {
  return { id: row.id, title: row.title, path: row.path, lang: row.lang === "" ? null : row.lang, status: row.status };
}

/** A reference is present: a positive integer or a non-blank string. */
export function isPresentRef(ref: unknown): boolean {
  return (typeof ref === "number" && Number.isFinite(ref)) || (typeof ref === "string" && ref.trim() !== "");
}

function one(rows: PageRow[]): Lookup {
  if (rows.length === 0) return { missing: true };
  if (rows.length === 1) return { found: rows[0] };
  return { candidates: rows };
}

/** Looks a reference up without refusing: found, several candidates, or missing. */
export async function lookupPage(
  db: Db,
  siteId: number,
  ref: unknown,
  options: RefOptions = {},
  state?: LanguageState,
): Promise<Lookup> {
  if (typeof ref === "number") {
    if (!Number.isSafeInteger(ref) || ref <= 0) return { missing: true };
    const row = await pageById(db, siteId, ref);
    return row && (options.lang === undefined || row.lang === options.lang) ? { found: row } : { missing: true };
  }
  if (typeof ref !== "string") return { missing: true };
  const value = ref.trim();
  if (value === "") return { missing: true };

  if (/^\d{1,15}$/.test(value)) {
    const row = await pageById(db, siteId, Number(value));
    if (row && (options.lang === undefined || row.lang === options.lang)) return { found: row };
  }

  if (!value.includes("/")) {
    return one(await findPages(db, siteId, { slug: value.toLowerCase(), lang: options.lang, withoutTrash: true }));
  }

  const segments = pathSegments(value);
  if (segments.length === 0) return { missing: true };
  const byPath = await findPages(db, siteId, {
    path: `/${segments.join("/")}`,
    lang: options.lang,
    withoutTrash: true,
  });
  if (byPath.length > 0 || segments.length < 2) return one(byPath);
  // `/de/ueber-uns`: a non-default language's prefix, then the path in that language.
  const langs = state ?? (await languageState(db, siteId));
  const [prefix, ...rest] = segments;
  if (!langs.active || !langs.codes.includes(prefix) || prefix === langs.defaultLang) return { missing: true };
  if (options.lang !== undefined && options.lang !== prefix) return { missing: true };
  return one(await findPages(db, siteId, { path: `/${rest.join("/")}`, lang: prefix, withoutTrash: true }));
}

/**
 * The page a reference names, or the refusal: 400 page_required for none, 404 page_not_found,
 * 409 ambiguous_page with `candidates`.
 */
export async function findPageByRef(db: Db, siteId: number, ref: unknown, options: RefOptions = {}): Promise<PageRow> {
  const field = options.field ?? "page";
  if (!isPresentRef(ref)) {
    if (ref === undefined || ref === null || (typeof ref === "string" && ref.trim() === ""))
      throw fail("page_required", { field });
    throw fail(
      "invalid_field",
      { field, expected: "page id, slug or path" },
      `${field} must be a page id, a slug or a path.`,
    );
  }
  const result = await lookupPage(db, siteId, ref, options);
  if ("found" in result) return result.found;
  if ("candidates" in result)
    throw fail("ambiguous_page", { field, ref, candidates: result.candidates.map(candidateOf) });
  throw fail("page_not_found", { field, ref });
}
