// A page brought back from the trash (docs/revisions.md; POST /trash/pages/{id}/restore
// through history/pages.ts): the row is made again under its id with its last revision's state,
// where it stood: under its parent, or at the top (warning `parent_missing`) when the parent is
// gone or now in another language. Its slug taken there meanwhile is 409 slug_taken with the
// occupant's id, nothing written. The children the delete moved up go back under it while they
// still stand where the delete put them. A frame, a translation partner or an SEO image gone
// meanwhile is left out with a warning. One transaction, checked and published as a page write.
import { claimWaitingRefs, writeContentRefs } from "./content.ts";
import { fail, ServiceError } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { ServiceContext } from "../write/context.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Db } from "../store/database.ts";
import { pageBytes } from "../quotas/bytes.ts";
import { postColumnsOfState } from "./post-fields.ts";
import { leaveTrash } from "../revisions/trash.ts";
import { childPath } from "./paths.ts";
import { movePaths } from "./placement.ts";
import { pageAt, pageById, slugsUnder } from "./queries.ts";
import { NO_SEO, requireMedia, SEO_KEYS, seoJsonAfter, type PageSeo } from "./seo.ts";
import { writeAndAnnounce, type PageWriteAnswer } from "./page-write.ts";
import { firstFreeSlug } from "./slug.ts";
import { keptTiming } from "./schedule-rule.ts";

/** A page's state as its revision keeps it (revision.ts pageSnapshot's fields). */
export type PageState = Record<string, unknown>;

const text = (value: unknown, fallback: string): string => (typeof value === "string" ? value : fallback);
const whole = (value: unknown): number | null =>
  typeof value === "number" && Number.isSafeInteger(value) ? value : null;

/** The frame still exists in the site. */
export async function frameStands(db: Db, siteId: number, frameId: string): Promise<boolean> {
  return (
    (await db
      .selectFrom("frames")
      .select("id")
      .where("site_id", "=", siteId)
      .where("id", "=", frameId)
      .executeTakeFirst()) !== undefined
  );
}

/** A revision's SEO fields, complete (defaults for the missing), its image left out with a warning when the file is gone. */
export async function seoOfState(db: Db, siteId: number, value: unknown, warnings: Warning[]): Promise<PageSeo> {
  const stored =
    value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const seo = Object.fromEntries(SEO_KEYS.map((key) => [key, stored[key] ?? NO_SEO[key]])) as unknown as PageSeo;
  if (seo.og_image !== null) {
    try {
      await requireMedia(db, siteId, seo.og_image, "seo.og_image");
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== "media_not_found") throw error;
      warnings.push(
        warning(
          "media_missing",
          `The SEO image "${seo.og_image}" is no longer in the media library; the page has none.`,
          { field: "seo.og_image", ref: seo.og_image },
        ),
      );
      seo.og_image = null;
    }
  }
  return seo;
}

interface MovedChild {
  id: number;
  slug: string;
  moved_slug: string;
}

function movedChildren(extra: Record<string, unknown>): MovedChild[] {
  if (!Array.isArray(extra.children)) return [];
  return extra.children.filter(
    (c): c is MovedChild =>
      c !== null &&
      typeof c === "object" &&
      Number.isSafeInteger(c.id) &&
      typeof c.slug === "string" &&
      typeof c.moved_slug === "string",
  );
}

/** Makes the page `id` again from its state; answers the page write's answer and the children put back under it. */
export async function undeletePage(
  ctx: ServiceContext,
  site: SiteRow,
  id: number,
  state: PageState,
  extra: Record<string, unknown>,
  trashedSlug: string,
): Promise<PageWriteAnswer & { children_restored: number[] }> {
  const warnings: Warning[] = [];
  let restored: number[] = [];
  const answer = await writeAndAnnounce(ctx, site, warnings, async (trx, now, region) => {
    restored = [];
    const lang = text(state.lang, "");
    const formerParent = whole(state.parent) ?? 0;
    let parent = formerParent === 0 ? undefined : await pageById(trx, site.id, formerParent);
    if (formerParent !== 0 && (!parent || parent.lang !== lang)) {
      warnings.push(
        warning("parent_missing", `Page ${formerParent}, the page's parent, is gone; the page stands at the top.`, {
          parent: formerParent,
        }),
      );
      parent = undefined;
    }
    const slug = text(state.slug, trashedSlug);
    const occupant = await pageAt(trx, site.id, parent?.id ?? 0, lang, slug);
    if (occupant) {
      throw fail(
        "slug_taken",
        { id: occupant.id, slug, parent: parent?.id ?? 0 },
        `Page ${occupant.id} holds the slug "${slug}" there now; rename or move it, then restore.`,
      );
    }
    let frameId = typeof state.frame_id === "string" ? state.frame_id : null;
    if (frameId !== null && !(await frameStands(trx, site.id, frameId))) {
      warnings.push(
        warning(
          "frame_missing",
          `The page's frame (${frameId}) was deleted; the page has no frame until one is assigned.`,
          { frame: frameId },
        ),
      );
      frameId = null;
    }
    let group = whole(state.translation_group);
    if (group !== null) {
      const partner = await trx
        .selectFrom("pages")
        .select("id")
        .where("site_id", "=", site.id)
        .where("translation_group", "=", group)
        .where("lang", "=", lang)
        .executeTakeFirst();
      if (partner) {
        warnings.push(
          warning(
            "translation_unlinked",
            `Page ${partner.id} is the "${lang}" translation now; the page is not linked to its translations.`,
            { translation: partner.id, lang },
          ),
        );
        group = null;
      }
    }
    const values = {
      id,
      site_id: site.id,
      parent_id: parent?.id ?? 0,
      lang,
      slug,
      path: childPath(parent?.path ?? "", slug),
      title: text(state.title, slug),
      ...keptTiming(state, now, warnings),
      content: text(state.content, ""),
      // A Markdown page's state keeps its format and whose source it is (revision.ts).
      content_format: state.content_format === "markdown" ? "markdown" : "html",
      content_trust: state.content_trust === "raw" ? "raw" : "sanitized",
      fields_json: JSON.stringify(state.fields ?? {}),
      frame_id: frameId,
      translation_group: group,
      seo_json: seoJsonAfter(NO_SEO, await seoOfState(trx, site.id, state.seo, warnings)),
      menu_order: whole(state.menu_order) ?? 0,
      ...postColumnsOfState(state),
      created_at_gmt: now,
      updated_at_gmt: now,
    };
    // A published page has a date (its first publication, else now).
    if (values.date_gmt === null && values.status === "publish") values.date_gmt = now;
    const row = await trx.insertInto("pages").values(values).returningAll().executeTakeFirstOrThrow();
    await writeContentRefs(trx, row, warnings);
    await claimWaitingRefs(trx, row);
    await leaveTrash(trx, site.id, "pages", String(id));

    // Children the delete moved up go back while they stand where it put them (a child moved
    // or re-languaged since stays); a child not renamed since gets its former slug back.
    const back = [];
    for (const moved of movedChildren(extra)) {
      const child = await pageById(trx, site.id, moved.id);
      if (child && child.parent_id === formerParent && child.lang === lang) back.push({ child, moved });
    }
    for (const { child } of back) await region.enter(child);
    for (const { child, moved } of back) {
      const childSlug = firstFreeSlug(
        child.slug === moved.moved_slug ? moved.slug : child.slug,
        await slugsUnder(trx, site.id, id, lang, child.id),
      );
      const path = childPath(row.path, childSlug);
      await trx
        .updateTable("pages")
        .set({ parent_id: id, slug: childSlug, path, updated_at_gmt: now })
        .where("site_id", "=", site.id)
        .where("id", "=", child.id)
        .execute();
      if (path !== child.path) await movePaths(trx, site.id, child.id, child.path, path);
      restored.push(child.id);
    }
    if (row.status === "trash") {
      warnings.push(
        warning(
          "still_trashed",
          "The page was in the trash (status trash) when it was deleted for good, and is again; PATCH its status to bring it out.",
          { id },
        ),
      );
    }
    return {
      written: { row, created: true, room: { pages: 1, stored_bytes: pageBytes(values) } },
      revise: restored,
      action: "restored",
    };
  });
  return { ...answer, children_restored: restored };
}
