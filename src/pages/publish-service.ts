// POST /pages (docs/content-model.md, "Pages"): publishing by upsert, a page updated by id or
// where its slug stands, else created.
import { fail } from "../errors.ts";
import type { SiteRow } from "../site/sites.ts";
import type { ServiceContext } from "../write/context.ts";
import type { MarkupTrust } from "../site/roles.ts";
import { inputWarnings, pageIdFrom, PUBLISH_KEYS } from "./input.ts";
import { pageAt, pageById } from "./queries.ts";
import { slugFromTitle } from "./slug.ts";
import { placement, TOP } from "./placement.ts";
import { columnsOf, readChange, type PageInput } from "./page-change.ts";
import { createPage, updatePage } from "./page-rows.ts";
import { writeAndAnnounce, type PageWork, type PageWriteAnswer } from "./page-write.ts";
import type { Db } from "../store/database.ts";
import type { Warning } from "../warnings.ts";
import type { WriteRegion } from "./region.ts";

/**
 * POST /pages. With `id`: that page is updated (409 lang_mismatch when `lang` names another
 * language). Without: the page holding the slug (explicit, else from the title) under the same
 * parent in the same language is updated, else a page is created. `markup`: how its content and
 * fields are stored (readChange).
 */
export async function publishPage(
  ctx: ServiceContext,
  site: SiteRow,
  body: Record<string, unknown>,
  markup: MarkupTrust,
): Promise<PageWriteAnswer> {
  const warnings = inputWarnings(body, PUBLISH_KEYS);
  const id = pageIdFrom(body.id);
  const input = await readChange(ctx, site, body, warnings, markup);
  if (input.title === "") throw fail("title_required", { field: "title" }, "The title is empty.");
  const status = input.status ?? "publish";

  if (id !== undefined) {
    const page = await pageById(ctx.db, site.id, id);
    if (!page) throw fail("page_not_found", { id });
    if (input.lang !== null && input.lang !== page.lang) {
      const partner =
        page.translation_group === null
          ? undefined
          : await ctx.db
              .selectFrom("pages")
              .select("id")
              .where("site_id", "=", site.id)
              .where("translation_group", "=", page.translation_group)
              .where("lang", "=", input.lang)
              .executeTakeFirst();
      throw fail("lang_mismatch", {
        id,
        lang: page.lang || null,
        requested: input.lang,
        ...(partner ? { translation: partner.id } : {}),
      });
    }
    return writeAndAnnounce(ctx, site, warnings, async (trx, now, region) => {
      const current = (await pageById(trx, site.id, id)) ?? page;
      const where = await placement(
        trx,
        site.id,
        input.state,
        current.lang,
        { parent: input.parent, url: input.url },
        input.createMissing,
        now,
      );
      const written = await updatePage(
        trx,
        site.id,
        current,
        { ...columnsOf(input), status, placement: where },
        now,
        warnings,
        region,
      );
      return { written, placed: where };
    });
  }

  return writeAndAnnounce(ctx, site, warnings, (trx, now, region) =>
    upsertBySlug(trx, site.id, input, now, warnings, region),
  );
}

/**
 * POST /pages without an id, inside the write's transaction: the page holding the slug (explicit,
 * else from the title) under the parent in the language is updated, else a page is created. A
 * preview of a page not yet saved makes it the same way (preview/new-page.ts).
 */
export async function upsertBySlug(
  trx: Db,
  siteId: number,
  input: PageInput,
  now: string,
  warnings: Warning[],
  region: WriteRegion,
): Promise<PageWork> {
  if (input.title === "") throw fail("title_required", { field: "title" }, "The title is empty.");
  if (input.title === undefined && input.slug === undefined) throw fail("title_required", { field: "title" });
  const status = input.status ?? "publish";
  let lang = input.lang;
  if (lang === null && input.parent !== undefined && input.parent !== 0) {
    // A page placed under a parent given by id takes the parent's language unless told otherwise.
    const byId =
      typeof input.parent === "number"
        ? input.parent
        : /^\d{1,15}$/.test(input.parent)
          ? Number(input.parent)
          : undefined;
    const parent = byId === undefined ? undefined : await pageById(trx, siteId, byId);
    if (parent) lang = parent.lang;
  }
  const pageLang = lang ?? (input.state.active ? (input.state.defaultLang ?? "") : "");
  const where =
    (await placement(
      trx,
      siteId,
      input.state,
      pageLang,
      { parent: input.parent, url: input.url },
      input.createMissing,
      now,
    )) ?? TOP;
  const slug = input.slug?.slug ?? slugFromTitle(input.title ?? "", pageLang);
  const existing = await pageAt(trx, siteId, where.parentId, pageLang, slug);
  if (existing) {
    const written = await updatePage(trx, siteId, existing, { ...columnsOf(input), status }, now, warnings, region);
    return { written, placed: where };
  }
  if (input.title === undefined) throw fail("title_required", { field: "title" });
  const written = await createPage(
    trx,
    siteId,
    pageLang,
    where,
    { ...columnsOf(input), title: input.title, status },
    now,
    warnings,
  );
  return { written, placed: where };
}
