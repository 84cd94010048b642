// Translations (docs/content-model.md, "Translations"): POST /pages/language links a new page in
// another language to its origin (`{missing: true, lang?}`, which gives every page without a language
// one, is missing-language.ts). Pages that translate one another share a translation group (the
// origin's id); each page's record lists the group as `translations: {lang: id}`, itself included.
// With `translation`, an existing page is linked instead (translation-link.ts).
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Rebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { checkLangIn, languageState, type LanguageState } from "../site/languages.ts";
import { childPath } from "./paths.ts";
import { booleanFrom, inputWarnings, slugFrom, statusFrom, titleFrom } from "./input.ts";
import { dateFrom, tagsFrom, tagsOf } from "./post-fields.ts";
import { postColumns } from "./page-rows.ts";
import { claimWaitingRefs, contentColumns, readContent, writeContentRefs } from "./content.ts";
import type { MarkupTrust } from "../site/roles.ts";
import { pageById, slugsUnder, type PageRow, type PageStatus } from "./queries.ts";
import { pageRecords, type PageRecord } from "./record.ts";
import { candidateOf, isPresentRef, lookupPage } from "./refs.ts";
import type { SlugChanged } from "./page-write.ts";
import { firstFreeSlug, slugFromTitle } from "./slug.ts";
import { linkExisting } from "./translation-link.ts";
import { announcedWrite } from "./announced-write.ts";
import "./revision.ts";
import { scheduledStatus } from "./schedule-rule.ts";
import { pageBytes } from "../quotas/bytes.ts";

const LINK_KEYS = [
  "page",
  "lang",
  "title",
  "slug",
  "content",
  "content_format",
  "status",
  "date",
  "tags",
  "feed",
  "missing",
  "translation",
] as const;

export interface TranslationAnswer {
  page: PageRecord;
  origin: { id: number; lang: string };
  created: boolean;
  slug_changed?: SlugChanged;
  rebaked: Rebaked;
  warnings: Warning[];
}

function linkFailed(
  reason: "lang_required" | "same_language" | "origin_not_found" | "origin_has_no_language" | "translation_not_found",
  details: Record<string, unknown>,
  message: string,
): never {
  throw fail("translation_link_failed", { reason, ...details }, message);
}

/** The origin page of a translation: found, with a language, not already in `lang`. */
async function originOf(
  ctx: ServiceContext,
  site: SiteRow,
  ref: unknown,
  state: LanguageState,
  lang: string,
): Promise<PageRow> {
  const found = await lookupPage(ctx.db, site.id, ref, {}, state);
  if ("candidates" in found)
    throw fail("ambiguous_page", { field: "page", ref, candidates: found.candidates.map(candidateOf) });
  if (!("found" in found)) linkFailed("origin_not_found", { page: ref }, "The origin page does not exist.");
  const origin = found.found;
  if (origin.lang === "") {
    linkFailed(
      "origin_has_no_language",
      { page: origin.id },
      "The origin page has no language; give it one first (POST /pages/language with {missing: true}).",
    );
  }
  if (origin.lang === lang)
    linkFailed("same_language", { page: origin.id, lang }, `The origin page is already in "${lang}".`);
  return origin;
}

/**
 * POST /pages/language `{page, lang, title?, slug?, content?, content_format?, status?}`; with
 * `translation` (an existing page in `lang`) that page is linked instead (translation-link.ts).
 * The new page copies what is not given from its origin (title, content and its format, fields,
 * frame, status, date), stands under the
 * translation of the origin's parent (at the top when that has none), and joins the origin's
 * group. A translation that already exists in that language is updated instead. `markup`: how the
 * content given is stored (content.ts).
 */
export async function linkTranslation(
  ctx: ServiceContext,
  site: SiteRow,
  body: Record<string, unknown>,
  markup: MarkupTrust,
): Promise<TranslationAnswer> {
  const warnings = inputWarnings(body, LINK_KEYS);
  if (body.lang === undefined || body.lang === null || body.lang === "") {
    linkFailed("lang_required", {}, "Name the language of the translation (`lang`).");
  }
  const state = await languageState(ctx.db, site.id);
  const lang = checkLangIn(state, body.lang) as string;
  if (!isPresentRef(body.page)) {
    if (body.page === undefined || body.page === null || body.page === "")
      throw fail("page_required", { field: "page" }, "Name the origin page (`page`: id, slug or path).");
    throw fail(
      "invalid_field",
      { field: "page", expected: "page id, slug or path" },
      "page must be a page id, a slug or a path.",
    );
  }
  if (body.translation !== undefined) {
    const origin = await originOf(ctx, site, body.page, state, lang);
    const found = await lookupPage(ctx.db, site.id, body.translation, {}, state);
    if ("candidates" in found)
      throw fail("ambiguous_page", {
        field: "translation",
        ref: body.translation,
        candidates: found.candidates.map(candidateOf),
      });
    if (!("found" in found))
      linkFailed("translation_not_found", { translation: body.translation }, "The page to link does not exist.");
    const linked = await linkExisting(ctx, site, origin, found.found, lang, body, warnings);
    const [page] = await pageRecords(ctx.db, site, ctx.publicFront, [
      (await pageById(ctx.db, site.id, linked.row.id)) ?? linked.row,
    ]);
    return { page, origin: { id: origin.id, lang: origin.lang }, created: false, rebaked: linked.rebaked, warnings };
  }
  const title = titleFrom(body.title);
  if (title === "") throw fail("title_required", { field: "title" }, "The title is empty.");
  const slug = slugFrom(body.slug, warnings);
  const content = await readContent(ctx.db, site.id, body, markup);
  const status = statusFrom(body.status);
  const post = { date: dateFrom(body.date), tags: tagsFrom(body.tags), feed: booleanFrom(body.feed, "feed") };
  const origin = await originOf(ctx, site, body.page, state, lang);

  const now = gmt(ctx.clock());
  const { result, rebaked } = await announcedWrite(
    ctx,
    site.id,
    warnings,
    async (trx) => {
      const current = (await pageById(trx, site.id, origin.id)) ?? origin;
      const group = current.translation_group ?? current.id;
      if (current.translation_group === null) {
        await trx
          .updateTable("pages")
          .set({ translation_group: group })
          .where("site_id", "=", site.id)
          .where("id", "=", current.id)
          .execute();
      }
      // The origin when it joined a group (its revision), the translation updated or made (its own).
      const wrote = (row: PageRow) => [...(current.translation_group === null ? [current.id] : []), row.id];
      const existing = await trx
        .selectFrom("pages")
        .selectAll()
        .where("site_id", "=", site.id)
        .where("translation_group", "=", group)
        .where("lang", "=", lang)
        .executeTakeFirst();
      if (existing) {
        const desired = slug?.slug ?? existing.slug;
        const finalSlug =
          desired === existing.slug
            ? desired
            : firstFreeSlug(desired, await slugsUnder(trx, site.id, existing.parent_id, lang, existing.id));
        const path = childPath(existing.path.slice(0, existing.path.lastIndexOf("/")), finalSlug);
        const hasChildren =
          path !== existing.path &&
          (await trx
            .selectFrom("pages")
            .select("id")
            .where("site_id", "=", site.id)
            .where("parent_id", "=", existing.id)
            .executeTakeFirst());
        if (hasChildren)
          throw fail(
            "page_has_children",
            { id: existing.id },
            "The translation has child pages; rename it with PATCH /pages/{ref}.",
          );
        const columns = await contentColumns(trx, content, existing, warnings);
        // Scheduled without a date of its own, it takes the origin's.
        const dated = { status: existing.status, date_gmt: existing.date_gmt ?? current.date_gmt };
        const timed = scheduledStatus({ status, date: post.date }, dated, now, warnings);
        const scheduled = timed === "future" || status === "future";
        const row = await trx
          .updateTable("pages")
          .set({
            slug: finalSlug,
            path,
            updated_at_gmt: now,
            ...(title !== undefined ? { title } : {}),
            ...columns,
            ...(timed !== undefined ? { status: timed } : {}),
            ...postColumns(
              {
                ...post,
                ...(timed !== undefined ? { status: timed } : {}),
                ...(scheduled && post.date === undefined ? { date: dated.date_gmt } : {}),
              },
              existing,
              now,
            ),
          })
          .where("site_id", "=", site.id)
          .where("id", "=", existing.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        if (Object.keys(columns).length > 0) await writeContentRefs(trx, row, warnings);
        return {
          result: {
            row,
            created: false,
            slugChanged: finalSlug !== desired ? { from: desired, to: finalSlug } : undefined,
          },
          wrote: wrote(row),
          room: { stored_bytes: pageBytes(row) - pageBytes(existing) },
        };
      }

      let parentId = 0;
      let parentPath = "";
      if (current.parent_id !== 0) {
        const parent = await pageById(trx, site.id, current.parent_id);
        const parentTranslation =
          parent?.translation_group == null
            ? undefined
            : await trx
                .selectFrom("pages")
                .selectAll()
                .where("site_id", "=", site.id)
                .where("translation_group", "=", parent.translation_group)
                .where("lang", "=", lang)
                .executeTakeFirst();
        if (parentTranslation) {
          parentId = parentTranslation.id;
          parentPath = parentTranslation.path;
        } else {
          warnings.push(
            warning(
              "parent_not_translated",
              `The origin's parent page has no "${lang}" translation; the translation stands at the top.`,
              { parent: current.parent_id, lang },
            ),
          );
        }
      }
      const desired = slug?.slug ?? (title !== undefined ? slugFromTitle(title, lang) : current.slug);
      const finalSlug = firstFreeSlug(desired, await slugsUnder(trx, site.id, parentId, lang));
      const copiedStatus = status ?? (current.status === "trash" ? "draft" : current.status);
      // A translation is dated as its origin unless told otherwise (and scheduled with it).
      const copiedDate = post.date !== undefined ? post.date : current.date_gmt;
      const timedStatus =
        scheduledStatus({}, { status: copiedStatus, date_gmt: copiedDate }, now, warnings) ?? copiedStatus;
      const values = {
        site_id: site.id,
        parent_id: parentId,
        lang,
        slug: finalSlug,
        path: childPath(parentPath, finalSlug),
        title: title ?? current.title,
        status: timedStatus,
        // The origin's content, as the body changes it.
        content: current.content,
        content_format: current.content_format,
        content_trust: current.content_trust,
        ...(await contentColumns(trx, content, current, warnings)),
        fields_json: current.fields_json,
        frame_id: current.frame_id,
        translation_group: group,
        // A translation is dated, tagged and fed as its origin unless told otherwise.
        ...postColumns(
          {
            ...post,
            status: timedStatus as PageStatus,
            date: copiedDate,
            tags: post.tags ?? tagsOf(current),
            feed: post.feed ?? current.feed === 1,
          },
          undefined,
          now,
        ),
        created_at_gmt: now,
        updated_at_gmt: now,
      };
      const row: PageRow = await trx.insertInto("pages").values(values).returningAll().executeTakeFirstOrThrow();
      await writeContentRefs(trx, row, warnings);
      await claimWaitingRefs(trx, row);
      return {
        result: {
          row,
          created: true,
          slugChanged: finalSlug !== desired ? { from: desired, to: finalSlug } : undefined,
        },
        wrote: wrote(row),
        room: { pages: 1, stored_bytes: pageBytes(row) },
      };
    },
    (written) => [written.row.id],
    {
      // The origin's region holds its partners, the existing translation among them.
      enter: origin,
      written: (done) => ({ written: [origin.id, done.row.id], created: done.created ? [done.row.id] : [] }),
    },
  );

  if (result.slugChanged) {
    warnings.push(
      warning(
        "slug_changed",
        `The slug "${result.slugChanged.from}" is taken here; the translation got "${result.slugChanged.to}".`,
        { ...result.slugChanged },
      ),
    );
  }
  const [page] = await pageRecords(ctx.db, site, ctx.publicFront, [result.row]);
  return {
    page,
    origin: { id: origin.id, lang: origin.lang },
    created: result.created,
    ...(result.slugChanged ? { slug_changed: result.slugChanged } : {}),
    rebaked,
    warnings,
  };
}
