// Translations (docs/content-model.md, "Translations"): POST /pages/language links a new page in
// another language to its origin (`{missing: true, lang?}`, which gives every page without a language
// one, is missing-language.ts). Pages that translate one another share a translation group (the
// origin's id); each page's record lists the group as `translations: {lang: id}`, itself included.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Rebaked, Written } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import type { Db } from "../store/database.ts";
import { childPath } from "./paths.ts";
import { pageChangesBetween } from "../effects/page-changes.ts";
import { booleanFrom, inputWarnings, slugFrom, statusFrom, titleFrom } from "./input.ts";
import { dateFrom, tagsFrom, tagsOf } from "./post-fields.ts";
import { postColumns } from "./page-rows.ts";
import { authoredContent } from "./page-change.ts";
import type { MarkupTrust } from "../site/roles.ts";
import { liteRowsOf, pageById, slugsUnder, type PageLite, type PageRow, type PageStatus } from "./queries.ts";
import { pageRecords, type PageRecord } from "./record.ts";
import { candidateOf, isPresentRef, lookupPage } from "./refs.ts";
import type { SlugChanged } from "./page-write.ts";
import { firstFreeSlug, slugFromTitle } from "./slug.ts";
import { PageTree } from "./tree.ts";
import { WriteRegion } from "./region.ts";
import { recordAddressChanges } from "./moves.ts";
import "./revision.ts";
import { pageBytes } from "../quotas/bytes.ts";
import type { UsageDelta } from "../quotas/usage.ts";

const LINK_KEYS = ["page", "lang", "title", "slug", "content", "status", "date", "tags", "feed", "missing"] as const;

export interface TranslationAnswer {
  page: PageRecord;
  origin: { id: number; lang: string };
  created: boolean;
  slug_changed?: SlugChanged;
  rebaked: Rebaked;
  warnings: Warning[];
}

function linkFailed(
  reason: "lang_required" | "same_language" | "origin_not_found" | "origin_has_no_language",
  details: Record<string, unknown>,
  message: string,
): never {
  throw fail("translation_link_failed", { reason, ...details }, message);
}

/** Which pages a write changes: `written` (and `created`) by it; `enter` the page whose region it reads before (pages/region.ts). */
interface Scope<T> {
  enter: PageLite;
  written: (result: T) => { written: number[]; created: number[] };
}

/** What a translation write's rows came to: its result, the pages it wrote (a revision each) and the room they take. */
interface Rows<T> {
  result: T;
  wrote: number[];
  room?: UsageDelta;
}

/**
 * A write whose page changes (tree before and after) are announced after it commits, through the
 * write pipeline. `touched`: the pages whose other columns (content) it wrote, announced even
 * when their light row is as it was. With a `scope` only the region of the pages it names is read
 * (the cost of a write follows the pages it changes); without one, every page of the site (a
 * write over all of them, as `{missing: true}` is). The work may run twice (a trial rehearsed,
 * write/pipeline.ts): what it warns of is counted from the start each time.
 */
export async function announcedWrite<T>(
  ctx: ServiceContext,
  siteId: number,
  warnings: Warning[],
  work: (trx: Db) => Promise<Rows<T>>,
  touched: (result: T) => number[] = () => [],
  scope?: Scope<T>,
): Promise<{ result: T; rebaked: Rebaked }> {
  const warned = warnings.length;
  const done = await runWrite(ctx, {
    siteId,
    // What prints the pages, within the render budgets, or nothing is written.
    trial: true,
    apply: async (trx) => {
      warnings.length = warned;
      const region = scope ? new WriteRegion(trx, siteId) : null;
      if (region && scope) await region.enter(scope.enter);
      const whole = region ? null : new PageTree(await liteRowsOf(trx, siteId));
      const { result, wrote, room } = await work(trx);
      const named = scope?.written(result);
      const { before, after, subjects } =
        region && named
          ? await region.trees(named.written, named.created)
          : { before: whole as PageTree, after: new PageTree(await liteRowsOf(trx, siteId)), subjects: undefined };
      const addressing = { langs: await languageState(trx, siteId) };
      const now = gmt(ctx.clock());
      const moved = await recordAddressChanges(trx, siteId, now, { before, after, within: subjects }, addressing);
      const created = new Set(named?.created ?? []);
      return {
        value: result,
        wrote: [
          ...wrote.map(
            (id): Written => ({ kind: "page", id: String(id), action: created.has(id) ? "created" : "updated" }),
          ),
          ...moved.wrote,
        ],
        changes: [...pageChangesBetween(before, after, touched(result), subjects), ...moved.changes],
        room,
      };
    },
  });
  return { result: done.value, rebaked: done.rebaked };
}

/**
 * POST /pages/language `{page, lang, title?, slug?, content?, status?}`. The new page copies
 * what is not given from its origin (title, content, fields, frame, status), stands under the
 * translation of the origin's parent (at the top when that has none), and joins the origin's
 * group. A translation that already exists in that language is updated instead. `markup`: how the
 * content given is stored (page-change.ts).
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
  const title = titleFrom(body.title);
  if (title === "") throw fail("title_required", { field: "title" }, "The title is empty.");
  const slug = slugFrom(body.slug, warnings);
  const content = await authoredContent(ctx, site, body.content, markup, warnings);
  const status = statusFrom(body.status);
  const post = { date: dateFrom(body.date), tags: tagsFrom(body.tags), feed: booleanFrom(body.feed, "feed") };

  const found = await lookupPage(ctx.db, site.id, body.page, {}, state);
  if ("candidates" in found)
    throw fail("ambiguous_page", { field: "page", ref: body.page, candidates: found.candidates.map(candidateOf) });
  if (!("found" in found)) linkFailed("origin_not_found", { page: body.page }, "The origin page does not exist.");
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
        const room = {
          stored_bytes:
            pageBytes({
              ...existing,
              ...(title !== undefined ? { title } : {}),
              ...(content !== undefined ? { content } : {}),
            }) - pageBytes(existing),
        };
        const row = await trx
          .updateTable("pages")
          .set({
            slug: finalSlug,
            path,
            updated_at_gmt: now,
            ...(title !== undefined ? { title } : {}),
            ...(content !== undefined ? { content } : {}),
            ...(status !== undefined ? { status } : {}),
            ...postColumns({ status, ...post }, existing, now),
          })
          .where("site_id", "=", site.id)
          .where("id", "=", existing.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return {
          result: {
            row,
            created: false,
            slugChanged: finalSlug !== desired ? { from: desired, to: finalSlug } : undefined,
          },
          wrote: wrote(row),
          room,
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
      const values = {
        site_id: site.id,
        parent_id: parentId,
        lang,
        slug: finalSlug,
        path: childPath(parentPath, finalSlug),
        title: title ?? current.title,
        status: copiedStatus,
        content: content ?? current.content,
        fields_json: current.fields_json,
        frame_id: current.frame_id,
        translation_group: group,
        // A translation is dated, tagged and fed as its origin unless told otherwise.
        ...postColumns(
          {
            ...post,
            status: copiedStatus as PageStatus,
            date: post.date !== undefined ? post.date : current.date_gmt,
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
      return {
        result: {
          row,
          created: true,
          slugChanged: finalSlug !== desired ? { from: desired, to: finalSlug } : undefined,
        },
        wrote: wrote(row),
        room: { pages: 1, stored_bytes: pageBytes(values) },
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
  const [page] = await pageRecords(ctx.db, site, ctx.publicPort, [result.row]);
  return {
    page,
    origin: { id: origin.id, lang: origin.lang },
    created: result.created,
    ...(result.slugChanged ? { slug_changed: result.slugChanged } : {}),
    rebaked,
    warnings,
  };
}
