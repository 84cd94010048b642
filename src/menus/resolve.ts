// Page items against the site's pages: references resolved through the pages' own lookup
// (id, slug or path), and the facts an item shows at read time (title, address, validity).
// `valid` is computed from the pages whenever items are read, so it follows page changes
// without rewriting menus: false for a draft, a trashed or a deleted page, and for a page under
// an unpublished parent (it answers 404 too).
import { fail } from "../errors.ts";
import { candidateOf, lookupPage } from "../pages/refs.ts";
import { LITE, type PageLite } from "../pages/queries.ts";
import { PageTree } from "../pages/tree.ts";
import type { LanguageState } from "../site/languages.ts";
import type { Db } from "../store/database.ts";
import type { ItemInput, PageRef } from "./input.ts";
import { siteIdValue } from "../store/by-id.ts";

export type InvalidReason = "draft" | "trash" | "deleted" | "parent_unpublished";

export interface PageFacts {
  id: number;
  /** null when the page no longer exists. */
  page: PageLite | null;
  valid: boolean;
  reason: InvalidReason | null;
}

/** The facts of some pages, with their ancestors loaded level by level for visibility. */
export async function pageFacts(db: Db, siteId: number, ids: Iterable<number>): Promise<Map<number, PageFacts>> {
  const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
  const rows = new Map<number, PageLite>();
  let next = wanted;
  for (let guard = 0; next.length > 0 && guard < 256; guard++) {
    const found = await db
      .selectFrom("pages")
      .select(LITE)
      .where(siteIdValue, "=", siteId)
      .where("id", "in", next)
      .execute();
    for (const row of found) rows.set(row.id, row);
    next = [...new Set(found.map((row) => row.parent_id).filter((id) => id !== 0 && !rows.has(id)))];
  }
  const tree = new PageTree(rows.values());
  const out = new Map<number, PageFacts>();
  for (const id of wanted) {
    const page = rows.get(id) ?? null;
    let reason: InvalidReason | null = null;
    if (!page) reason = "deleted";
    else if (page.status === "trash") reason = "trash";
    else if (page.status !== "publish") reason = "draft";
    else if (!tree.visible(id)) reason = "parent_unpublished";
    out.set(id, { id, page, valid: reason === null, reason });
  }
  return out;
}

export interface Unresolved {
  at: string;
  page: PageRef;
  error: "page_not_found" | "ambiguous_page";
  message: string;
  candidates?: ReturnType<typeof candidateOf>[];
}

/**
 * Resolves a page reference. With a language (the call's `lang`), a slug or path is looked up
 * in that language first, then in any language.
 */
export async function resolvePageRef(db: Db, siteId: number, ref: PageRef, lang: string | null, state: LanguageState) {
  if (lang !== null) {
    const inLang = await lookupPage(db, siteId, ref, { lang }, state);
    if (!("missing" in inLang)) return inLang;
  }
  return lookupPage(db, siteId, ref, {}, state);
}

/** Every item of a tree, parents first. */
export function flatten(items: readonly ItemInput[]): ItemInput[] {
  const out: ItemInput[] = [];
  const stack = [...items].reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    out.push(item);
    for (let i = item.children.length - 1; i >= 0; i--) stack.push(item.children[i]);
  }
  return out;
}

/**
 * The page id of every page item of a tree. Any reference that names no page, or several,
 * refuses the whole tree: 409 menu_items_unresolved with `errors`.
 */
export async function resolveTree(
  db: Db,
  siteId: number,
  items: readonly ItemInput[],
  lang: string | null,
  state: LanguageState,
): Promise<Map<ItemInput, number>> {
  const out = new Map<ItemInput, number>();
  const errors: Unresolved[] = [];
  const memo = new Map<string, Awaited<ReturnType<typeof resolvePageRef>>>();
  for (const item of flatten(items)) {
    if (item.page === undefined) continue;
    const key = `${typeof item.page}:${item.page}`;
    let found = memo.get(key);
    if (!found) {
      found = await resolvePageRef(db, siteId, item.page, lang, state);
      memo.set(key, found);
    }
    if ("found" in found) out.set(item, found.found.id);
    else if ("candidates" in found) {
      errors.push({
        at: item.at,
        page: item.page,
        error: "ambiguous_page",
        message: "Several pages match; use the id or the full path.",
        candidates: found.candidates.map(candidateOf),
      });
    } else {
      errors.push({
        at: item.at,
        page: item.page,
        error: "page_not_found",
        message: "No page has this id, slug or path.",
      });
    }
  }
  if (errors.length > 0)
    throw fail("menu_items_unresolved", { errors: errors.slice(0, 50), total_errors: errors.length });
  return out;
}

/** One page reference of a single-item call: 404 page_not_found, 409 ambiguous_page. */
export async function resolveOne(
  db: Db,
  siteId: number,
  ref: PageRef,
  lang: string | null,
  state: LanguageState,
): Promise<number> {
  const found = await resolvePageRef(db, siteId, ref, lang, state);
  if ("found" in found) return found.found.id;
  if ("candidates" in found)
    throw fail("ambiguous_page", { field: "page", ref, candidates: found.candidates.map(candidateOf) });
  throw fail("page_not_found", { field: "page", ref });
}

/** An entry of `invalid`: an item that points to a page that is not public. */
export interface InvalidItem {
  at: string;
  page: number;
  title: string | null;
  status: string | null;
  reason: InvalidReason;
}

export function invalidEntry(at: string, facts: PageFacts): InvalidItem {
  return {
    at,
    page: facts.id,
    title: facts.page?.title ?? null,
    status: facts.page?.status ?? null,
    reason: facts.reason ?? "deleted",
  };
}
