// The page a preview shows, and the `page_fields` it overrides.
//
// `page` names it as everywhere else (an id, a slug or a path: pages/refs.ts); `lang` picks its
// translation in that language. A trashed page shows nowhere, so it is not found either.
//
// `page_fields` are written to the page's row inside the preview's transaction, so whatever the
// render reads of the page (its own tokens, its entry in menus, lists and sidebars) shows them:
// - record fields: `title`, `content` and `content_format` (stored as a page write stores them,
//   pages/content.ts: an editor's HTML sanitised, a Markdown source with its references), `slug` (checked and made free among its siblings as a
//   PATCH makes it, `slug_changed` when taken; the page's path follows), `menu_order`, `seo`
//   (merged into the page's SEO fields), `fields` (merged into its fields; a key set to null is
//   removed), `frame` (the page shown on another frame: an id or slug, one previewed in `frames`
//   too);
// - fields a preview cannot change (`id`, `status`, `parent`, `lang`, `url`, `path`,
//   `translations`, `created_at_gmt`, `updated_at_gmt`): ignored with a warning `field_ignored`;
//   a draft is shown as it would show once published;
// - any other key sets `fields.<key>` (null removes it).
import { fail } from "../errors.ts";
import { frameByRef } from "../frames/queries.ts";
import { fieldsFrom, mergeFields, menuOrderFrom, slugFrom, titleFrom } from "../pages/input.ts";
import { childPath } from "../pages/paths.ts";
import { findPageByRef } from "../pages/refs.ts";
import { fieldsOf } from "../pages/record.ts";
import { requireMedia, seoJsonAfter, seoOf, seoPatchFrom } from "../pages/seo.ts";
import { slugsUnder, type PageRow } from "../pages/queries.ts";
import { firstFreeSlug } from "../pages/slug.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import type { Db } from "../store/database.ts";
import { warning, type Warning } from "../warnings.ts";
import type { ContentGate } from "../pages/authored-html.ts";
import { contentColumns, writeContentRefs, type ContentInput } from "../pages/content.ts";

/** Keys of a page record a preview does not change. */
const NOT_PREVIEWED = [
  "id",
  "status",
  "parent",
  "lang",
  "url",
  "path",
  "translations",
  "created_at_gmt",
  "updated_at_gmt",
];

/** The page and the language it is shown in (its own, else the site's default; null without languages). */
export interface PageTarget {
  page: PageRow;
  lang: string | null;
}

/**
 * The page `ref` names, in `lang` when given (its translation in that language): 400 page_required
 * or invalid_field, 404 page_not_found (also for a trashed page, or no translation in `lang`), 409
 * ambiguous_page; `lang` itself as every call checks it (409 multilang_inactive, 400
 * unknown_language, invalid_language_code).
 */
export async function pageTarget(db: Db, siteId: number, ref: unknown, rawLang: unknown): Promise<PageTarget> {
  const langs = await languageState(db, siteId);
  const lang = checkLangIn(langs, rawLang);
  let page = await findPageByRef(db, siteId, ref);
  if (lang !== null && page.lang !== lang) {
    const translation =
      page.translation_group === null
        ? undefined
        : await db
            .selectFrom("pages")
            .selectAll()
            .where("site_id", "=", siteId)
            .where("translation_group", "=", page.translation_group)
            .where("lang", "=", lang)
            .where("status", "!=", "trash")
            .executeTakeFirst();
    if (!translation)
      throw fail("page_not_found", { field: "page", ref, lang }, `The page has no translation in "${lang}".`);
    page = translation;
  }
  if (page.status === "trash")
    throw fail(
      "page_not_found",
      { field: "page", ref, status: "trash" },
      "The page is in the trash: it shows nowhere.",
    );
  return { page, lang: page.lang === "" ? langs.defaultLang : page.lang };
}

/** The language a page is shown in: its own, else the site's default (null without languages). */
export async function shownLang(db: Db, siteId: number, page: PageRow): Promise<string | null> {
  return page.lang === "" ? (await languageState(db, siteId)).defaultLang : page.lang;
}

/** Keys of `page_fields` that hold no HTML or are the content (stored as a write stores it, pages/content.ts): every other is a field. */
const NOT_HTML = new Set([
  "title",
  "slug",
  "menu_order",
  "seo",
  "frame",
  "content",
  "content_format",
  ...NOT_PREVIEWED,
]);

/**
 * `page_fields` as the writes would store them (pages/authored-html.ts): an editor's content and
 * fields sanitised, reported in warnings naming `page_fields.<key>`, so a preview shows what a save keeps.
 */
export function gatedPageFields(input: Record<string, unknown>, gate: ContentGate): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const field = `page_fields.${key}`;
    const gated = NOT_HTML.has(key) || value === null ? value : gate.values(value, field);
    Object.defineProperty(out, key, { value: gated, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The sibling slugs' rule of a PATCH: the slug asked for, else the first free one (`-2`, …). */
async function slugChange(
  trx: Db,
  siteId: number,
  page: PageRow,
  value: unknown,
  warnings: Warning[],
): Promise<{ slug: string; path: string } | undefined> {
  const input = slugFrom(value, warnings);
  if (!input || input.slug === page.slug) return undefined;
  const slug = firstFreeSlug(input.slug, await slugsUnder(trx, siteId, page.parent_id, page.lang, page.id));
  if (slug !== input.slug)
    warnings.push(
      warning("slug_changed", `The slug "${input.slug}" is taken here; the page would get "${slug}".`, {
        from: input.slug,
        to: slug,
      }),
    );
  return { slug, path: childPath(page.path.slice(0, page.path.lastIndexOf("/")), slug) };
}

/**
 * Writes `page_fields` to the page's row in `trx` and answers the row as the render is to show it.
 * Wrong types are 400 invalid_field naming the field, as the page writes answer them.
 */
export async function overridePage(
  trx: Db,
  siteId: number,
  page: PageRow,
  input: Record<string, unknown>,
  content: ContentInput | undefined,
  warnings: Warning[],
): Promise<PageRow> {
  const keys = Object.keys(input);
  if (keys.length === 0) return page;
  const set: Partial<PageRow> = await contentColumns(trx, content, page, warnings);
  const extra: Record<string, unknown> = {};
  for (const key of keys) {
    const value = input[key];
    switch (key) {
      case "title":
        set.title = titleFrom(value) ?? page.title;
        break;
      case "content":
      case "content_format":
        // Stored as a write stores them (contentColumns, above).
        break;
      case "slug":
        Object.assign(set, await slugChange(trx, siteId, page, value, warnings));
        break;
      case "menu_order":
        set.menu_order = menuOrderFrom(value);
        break;
      case "fields": {
        const fields = fieldsFrom(value);
        if (fields)
          Object.assign(
            extra,
            value === null ? Object.fromEntries(Object.keys(fieldsOf(page)).map((k) => [k, null])) : fields,
          );
        break;
      }
      case "seo": {
        const patch = seoPatchFrom(value, warnings);
        if (patch) {
          await requireMedia(trx, siteId, patch.og_image ?? null, "seo.og_image");
          set.seo_json = seoJsonAfter(seoOf(page), patch);
        }
        break;
      }
      case "frame": {
        if (value === null) throw fail("page_without_frame", { page: page.id, field: "page_fields.frame" });
        if (typeof value !== "string" || value.trim() === "")
          throw fail(
            "invalid_field",
            { field: "page_fields.frame", expected: "a frame id or slug" },
            "page_fields.frame must be a frame id or slug.",
          );
        const frame = await frameByRef(trx, siteId, value);
        if (!frame) throw fail("frame_not_found", { ref: value, field: "page_fields.frame" });
        set.frame_id = frame.id;
        break;
      }
      default:
        if (NOT_PREVIEWED.includes(key))
          warnings.push(
            warning("field_ignored", `A preview does not change "${key}"; it was ignored.`, {
              field: `page_fields.${key}`,
            }),
          );
        else Object.defineProperty(extra, key, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  // Defined through mergeFields, which keeps keys such as __proto__ as data and checks the size.
  if (Object.keys(extra).length > 0) set.fields_json = JSON.stringify(mergeFields(fieldsOf(page), extra));
  // Content undefined (absent) leaves it; null empties it (contentFrom answers "").
  for (const key of Object.keys(set) as Array<keyof PageRow>) if (set[key] === undefined) delete set[key];
  if (Object.keys(set).length === 0) return page;
  await trx.updateTable("pages").set(set).where("site_id", "=", siteId).where("id", "=", page.id).execute();
  const shown = { ...page, ...set };
  if (set.content !== undefined || set.content_format !== undefined) await writeContentRefs(trx, shown, warnings);
  return shown;
}
