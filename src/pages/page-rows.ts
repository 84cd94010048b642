// The row of a page write: a page made under its placement, or a stored page changed, its slug
// kept free under its parent and its descendants' paths following it.
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { Db } from "../store/database.ts";
import { childPath } from "./paths.ts";
import { ancestorsOf, pageById, slugsUnder, type PageRow } from "./queries.ts";
import { firstFreeSlug, slugFromTitle } from "./slug.ts";
import type { WriteRegion } from "./region.ts";
import { movePaths, parentPathOf, type Placement } from "./placement.ts";
import { pageBytes } from "../quotas/bytes.ts";
import { NO_SEO, seoJsonAfter, seoOf } from "./seo.ts";
import type { PageChange } from "./page-change.ts";
import { trashVerb, type PageWritten } from "./page-write.ts";
import { claimWaitingRefs, contentColumns, writeContentRefs } from "./content.ts";
import { scheduledStatus } from "./schedule-rule.ts";

/**
 * The date, tags and feed a write leaves (post-fields.ts): those given, else what is stored; a page
 * the write leaves published without a date is dated now, so its date is its first publication.
 */
export function postColumns(
  change: PageChange,
  page: Pick<PageRow, "status" | "date_gmt"> | undefined,
  now: string,
): { date_gmt: string | null; tags_json?: string; feed?: number } {
  const status = change.status ?? page?.status ?? "publish";
  const date = change.date !== undefined ? change.date : (page?.date_gmt ?? null);
  return {
    date_gmt: date === null && status === "publish" ? now : date,
    ...(change.tags !== undefined ? { tags_json: JSON.stringify(change.tags) } : {}),
    ...(change.feed !== undefined ? { feed: change.feed ? 1 : 0 } : {}),
  };
}

export async function createPage(
  trx: Db,
  siteId: number,
  lang: string,
  where: Placement,
  change: PageChange & { title: string },
  now: string,
  warnings: Warning[] = [],
): Promise<PageWritten> {
  const desired = change.slug?.slug ?? slugFromTitle(change.title, lang);
  const slug = firstFreeSlug(desired, await slugsUnder(trx, siteId, where.parentId, lang));
  const content = await contentColumns(trx, change.content, null, warnings);
  const status = scheduledStatus(change, undefined, now, warnings) ?? "publish";
  const values = {
    site_id: siteId,
    parent_id: where.parentId,
    lang,
    slug,
    path: childPath(where.parentPath, slug),
    title: change.title,
    status,
    content: content.content ?? "",
    ...(content.content_format ? { content_format: content.content_format } : {}),
    ...(content.content_trust ? { content_trust: content.content_trust } : {}),
    fields_json: JSON.stringify(change.fields ?? {}),
    frame_id: change.frameId ?? null,
    translation_group: null,
    seo_json: seoJsonAfter(NO_SEO, change.seo ?? {}),
    menu_order: change.menuOrder ?? 0,
    // The status the schedule leaves (a `future` page whose time has come is published now).
    ...postColumns({ ...change, status }, undefined, now),
    created_at_gmt: now,
    updated_at_gmt: now,
  };
  const row = await trx.insertInto("pages").values(values).returningAll().executeTakeFirstOrThrow();
  await writeContentRefs(trx, row, warnings);
  await claimWaitingRefs(trx, row);
  return {
    row,
    created: true,
    ...(slug !== desired ? { slugChanged: { from: desired, to: slug } } : {}),
    room: { pages: 1, stored_bytes: pageBytes(row) },
  };
}

/**
 * Applies a change to a stored page: moves (refusing cycles and other-language parents), a
 * language change (refused while it has children), the `-2` rule for a slug another page holds
 * there, and the paths of its descendants.
 */
export async function updatePage(
  trx: Db,
  siteId: number,
  page: PageRow,
  change: PageChange,
  now: string,
  warnings: Warning[],
  region: WriteRegion,
): Promise<PageWritten> {
  await region.enter(page);
  const lang = change.lang ?? page.lang;
  let group = page.translation_group;
  if (lang !== page.lang) {
    const child = await trx
      .selectFrom("pages")
      .select("id")
      .where("site_id", "=", siteId)
      .where("parent_id", "=", page.id)
      .executeTakeFirst();
    if (child) throw fail("page_has_children", { id: page.id, lang: page.lang || null, requested: lang || null });
    if (group !== null) {
      const partner = await trx
        .selectFrom("pages")
        .select("id")
        .where("site_id", "=", siteId)
        .where("translation_group", "=", group)
        .where("lang", "=", lang)
        .where("id", "!=", page.id)
        .executeTakeFirst();
      if (partner) {
        group = null;
        warnings.push(
          warning(
            "translation_unlinked",
            `Page ${partner.id} is already the "${lang}" translation; this page left the translation group.`,
            { translation: partner.id, lang },
          ),
        );
      }
    }
  }

  const where = change.placement ?? {
    parentId: page.parent_id,
    parentPath: parentPathOf(page),
    stubs: [],
    stubBytes: 0,
  };
  if (where.parentId !== 0) {
    const parent = await pageById(trx, siteId, where.parentId);
    if (!parent)
      throw fail("parent_not_found", {
        field: "parent",
        parent: where.parentId,
        segment: String(where.parentId),
        created_stubs: [],
      });
    if (parent.id === page.id || (await ancestorsOf(trx, siteId, parent)).some((a) => a.id === page.id)) {
      throw fail("parent_cycle", { id: page.id, parent: parent.id });
    }
    if (parent.lang !== lang)
      throw fail("parent_lang_mismatch", { parent: parent.id, parent_lang: parent.lang || null, lang: lang || null });
  }

  const desired = change.slug?.slug ?? page.slug;
  const moved = where.parentId !== page.parent_id || lang !== page.lang;
  let slug = desired;
  if (moved || desired !== page.slug)
    slug = firstFreeSlug(desired, await slugsUnder(trx, siteId, where.parentId, lang, page.id));
  const path = childPath(where.parentPath, slug);
  const fieldsJson = change.fields !== undefined ? JSON.stringify(change.fields) : undefined;
  const content = await contentColumns(trx, change.content, page, warnings);
  const status = scheduledStatus(change, page, now, warnings);
  const row = await trx
    .updateTable("pages")
    .set({
      parent_id: where.parentId,
      lang,
      slug,
      path,
      translation_group: group,
      ...(change.title !== undefined ? { title: change.title } : {}),
      ...(status !== undefined ? { status } : {}),
      ...content,
      ...(fieldsJson !== undefined ? { fields_json: fieldsJson } : {}),
      ...(change.frameId !== undefined ? { frame_id: change.frameId } : {}),
      ...(change.seo !== undefined ? { seo_json: seoJsonAfter(seoOf(page), change.seo) } : {}),
      ...(change.menuOrder !== undefined ? { menu_order: change.menuOrder } : {}),
      ...postColumns({ ...change, status }, page, now),
      updated_at_gmt: now,
    })
    .where("site_id", "=", siteId)
    .where("id", "=", page.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (path !== page.path) await movePaths(trx, siteId, page.id, page.path, path);
  if (content.content !== undefined || content.content_format !== undefined) await writeContentRefs(trx, row, warnings);
  if (row.path !== page.path || row.lang !== page.lang || row.status !== page.status) await claimWaitingRefs(trx, row);
  const verb = trashVerb(page.status, row.status);
  return {
    row,
    created: false,
    ...(verb ? { verb } : {}),
    ...(slug !== desired ? { slugChanged: { from: desired, to: slug } } : {}),
    room: { stored_bytes: pageBytes(row) - pageBytes(page) },
  };
}
