// Reading pages: one by reference, or a filtered list (GET /pages/{ref}, GET /pages).
import { fail } from "../errors.ts";
import type { ServiceContext } from "../write/context.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import type { SiteRow } from "../site/sites.ts";
import { listWindow, type ListWindow } from "../store/lists.ts";
import { keptUntilWrite, type KeepOptions, type MaybePromise } from "../store/kept-reads.ts";
import { refFrom } from "./input.ts";
import { pageRecords, type PageRecord } from "./record.ts";
import { findPageByRef } from "./refs.ts";
import { PAGE_STATUSES } from "./queries.ts";

/** GET /pages/{ref}: by id (trashed pages too), slug or path; `?lang` narrows slug and path lookups. */
export async function getPage(
  ctx: ServiceContext,
  site: SiteRow,
  ref: string,
  query: { lang?: unknown } = {},
): Promise<PageRecord> {
  const state = await languageState(ctx.db, site.id);
  const lang = checkLangIn(state, query.lang);
  const page = await findPageByRef(ctx.db, site.id, ref, { ...(lang !== null ? { lang } : {}) });
  const [record] = await pageRecords(ctx.db, site, ctx.publicFront, [page]);
  return record;
}

export const LIST_STATUSES = ["publish", "future", "draft", "trash", "any"] as const;

/** A page of the list of pages, as GET /pages answers it; kept until the database changes. */
export type PageList = Readonly<{ total: number; pages: readonly PageRecord[] }>;

// Made once (see frames/read-service.ts): about what its JSON holds.
const KEEP_LIST: KeepOptions<PageList> = { weight: (list) => 1024 + 700 * list.pages.length };

/**
 * GET /pages: `?lang`, `?status` (publish, future, draft, trash or any; default: all but trash), `?parent`
 * (ref; 0 for the top). The database pages the list (path, language, id: a stable order) and
 * counts every page that matches, so the cost follows the window, not the site. The CLI, agents
 * and the admin page through the same lists again and again between writes, so an answer is kept
 * until the database changes (store/kept-reads.ts), like a frame's.
 */
export function listPages(
  ctx: ServiceContext,
  site: SiteRow,
  query: { lang?: unknown; status?: unknown; parent?: unknown },
  window: ListWindow,
): MaybePromise<PageList> {
  const key = JSON.stringify([site.id, query.lang, query.status, query.parent, window.limit, window.offset]);
  return keptUntilWrite(ctx.db, `pages:${key}`, () => readPageList(ctx, site, query, window), KEEP_LIST);
}

async function readPageList(
  ctx: ServiceContext,
  site: SiteRow,
  query: { lang?: unknown; status?: unknown; parent?: unknown },
  window: ListWindow,
): Promise<PageList> {
  const state = await languageState(ctx.db, site.id);
  const lang = checkLangIn(state, query.lang);
  let statuses: readonly string[] = PAGE_STATUSES.filter((status) => status !== "trash");
  if (query.status !== undefined && query.status !== "") {
    const value = typeof query.status === "string" ? query.status.trim().toLowerCase() : "";
    if (!(LIST_STATUSES as readonly string[]).includes(value)) {
      throw fail(
        "invalid_field",
        { field: "status", allowed: LIST_STATUSES, status: query.status },
        `status must be one of ${LIST_STATUSES.join(", ")}.`,
      );
    }
    statuses = value === "any" ? PAGE_STATUSES : [value];
  }
  let parentId: number | undefined;
  const parentRef = refFrom(query.parent, "parent");
  if (parentRef !== undefined) {
    parentId =
      parentRef === 0
        ? 0
        : (await findPageByRef(ctx.db, site.id, parentRef, { field: "parent", ...(lang !== null ? { lang } : {}) })).id;
  }
  let matching = ctx.db
    .selectFrom("pages")
    .where("site_id", "=", site.id)
    .where("status", "in", [...statuses]);
  if (lang !== null) matching = matching.where("lang", "=", lang);
  if (parentId !== undefined) matching = matching.where("parent_id", "=", parentId);
  const { total, rows } = await listWindow(matching.selectAll().orderBy("path").orderBy("lang").orderBy("id"), window);
  return Object.freeze({ total, pages: Object.freeze(await pageRecords(ctx.db, site, ctx.publicFront, rows)) });
}
