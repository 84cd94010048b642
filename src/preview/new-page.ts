// A preview of a page not saved yet (docs/preview.md, "A page not saved yet"): `new_page` is the
// body POST /pages takes without an id, and `new_parents` the bodies of its parents not saved
// either, made first, in order. Each is read and placed as POST /pages reads and places it
// (pages/page-change.ts readChange, pages/publish-service.ts upsertBySlug), inside the preview's
// transaction, so a frame previewed with it is known and everything is rolled back with the rest.
// Its refusals and warnings are POST /pages's, their `field` named under the key that gave it
// (`new_page.title`, `new_parents.0.slug`), as page_fields' are.
import { fail, ServiceError } from "../errors.ts";
import { readChange } from "../pages/page-change.ts";
import { inputWarnings, PATCH_KEYS } from "../pages/input.ts";
import type { PageRow } from "../pages/queries.ts";
import { shownLang, type PageTarget } from "./page.ts";
import { WriteRegion } from "../pages/region.ts";
import { upsertBySlug } from "../pages/publish-service.ts";
import type { MarkupTrust } from "../site/roles.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Db } from "../store/database.ts";
import { warning, type Warning } from "../warnings.ts";
import type { ServiceContext } from "../write/context.ts";

/** At most this many parents made before a new page (a path is rarely deeper). */
export const MAX_NEW_PARENTS = 20;

/** A page body and the key its refusals and warnings are named under. */
export interface NewPageBody {
  body: Record<string, unknown>;
  at: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function notAPage(field: string): never {
  throw fail(
    "invalid_field",
    { field, expected: "an object: the body of POST /pages" },
    `${field} must be an object: the body of POST /pages.`,
  );
}

/**
 * The bodies to make, parents first and the page shown last; none without `new_page`. `page` or
 * `lang` beside it is 400 invalid_field (the new page is the one shown, in its own language), as
 * is `new_parents` without it or beyond MAX_NEW_PARENTS.
 */
export function newPageInputs(body: {
  page?: unknown;
  lang?: unknown;
  new_page?: unknown;
  new_parents?: unknown;
}): NewPageBody[] {
  const parents = body.new_parents ?? [];
  if (body.new_page === undefined || body.new_page === null) {
    if (Array.isArray(parents) && parents.length === 0) return [];
    throw fail("invalid_field", { field: "new_parents" }, "new_parents are made only with a new_page.");
  }
  if (!isObject(body.new_page)) notAPage("new_page");
  for (const key of ["page", "lang"] as const)
    if (body[key] !== undefined && body[key] !== null)
      throw fail(
        "invalid_field",
        { field: key },
        `With new_page the page shown is the new one, in its own language (new_page.lang): leave ${key} out.`,
      );
  if (!Array.isArray(parents) || parents.length > MAX_NEW_PARENTS)
    throw fail(
      "invalid_field",
      { field: "new_parents", max_items: MAX_NEW_PARENTS },
      `new_parents must be an array of at most ${MAX_NEW_PARENTS} page bodies.`,
    );
  const out = parents.map((parent, i): NewPageBody => {
    if (!isObject(parent)) notAPage(`new_parents.${i}`);
    return { body: parent, at: `new_parents.${i}` };
  });
  return [...out, { body: body.new_page, at: "new_page" }];
}

/** `field` under `at` (`title` → `new_page.title`). */
function under(at: string, field: unknown): string {
  return typeof field === "string" && field !== "" ? `${at}.${field}` : at;
}

/** Refusals of `work` with their field named under `at`. */
async function named<T>(at: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    throw new ServiceError(error.code, error.message, { ...error.details, field: under(at, error.details.field) });
  }
}

/**
 * Makes each page in `trx` as POST /pages would (a body naming a page already saved updates it, as
 * POST /pages does), and answers the last: the page the preview shows, in its language, with the
 * ids made on the way (pages and parents' stubs). A trashed one shows
 * nowhere: 400 invalid_field (`new_page.status`).
 */
export async function writeNewPages(
  ctx: ServiceContext,
  trx: Db,
  site: SiteRow,
  now: string,
  pages: readonly NewPageBody[],
  markup: MarkupTrust,
  warnings: Warning[],
): Promise<PageTarget & { created: number[] }> {
  // Read through the transaction: a frame, data set or parent made by this preview is known.
  const reading = { ...ctx, db: trx };
  const created: number[] = [];
  let page: PageRow | undefined;
  for (const { body, at } of pages) {
    const own = inputWarnings(body, PATCH_KEYS);
    const work = await named(at, async () => {
      const input = await readChange(reading, site, body, own, markup);
      return upsertBySlug(trx, site.id, input, now, own, new WriteRegion(trx, site.id));
    });
    const { row, slugChanged } = work.written;
    if (slugChanged)
      own.push(
        warning(
          "slug_changed",
          `The slug "${slugChanged.from}" is taken here; the page would get "${slugChanged.to}".`,
          {
            field: "slug",
            ...slugChanged,
          },
        ),
      );
    warnings.push(...own.map((w) => ({ ...w, field: under(at, w.field) })));
    if (work.written.created) created.push(row.id);
    created.push(...(work.placed?.stubs ?? []).map((stub) => stub.id));
    page = row;
  }
  if (!page) throw new Error("writeNewPages: no page to make");
  if (page.status === "trash")
    throw fail("invalid_field", { field: "new_page.status" }, "A trashed page shows nowhere: it cannot be previewed.");
  return { page, lang: await shownLang(trx, site.id, page), created };
}
