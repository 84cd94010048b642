// Pages' history (docs/revisions.md): each translation is an object of its own, kept
// by its page id, found by id, slug or path as GET /pages/{ref} finds it (`?lang` narrows a slug
// or path). A restore writes the revision's title, content, fields, status, frame, SEO fields,
// menu order, date, tags and feed through POST /pages with the page's id (checked, revised, published); the page
// keeps its current slug, parent, language and translations. A page deleted for good comes back
// from the trash under its id (pages/undelete.ts).
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import { findPageByRef } from "../pages/refs.ts";
import { pageSnapshot } from "../pages/revision.ts";
import { publishPage } from "../pages/publish-service.ts";
import { frameStands, seoOfState, undeletePage } from "../pages/undelete.ts";
import type { HistoryKind } from "./kind.ts";

export const pageHistory: HistoryKind = {
  kind: "pages",
  written: "page",
  path: "/pages/:ref",
  param: "ref",
  noun: "page",
  langVariants: true,
  langDescription: "the language of the page a slug or path names (as GET /pages/{ref})",

  async locate(call, ref) {
    const lang = checkLangIn(await languageState(call.ctx.db, call.site.id), call.query.lang);
    const page = await findPageByRef(call.ctx.db, call.site.id, ref, { ...(lang !== null ? { lang } : {}) });
    return { id: String(page.id), current: pageSnapshot(page) };
  },

  async restore(call, id, state) {
    const kept = state.fields;
    const warnings: Warning[] = [];
    const body: Record<string, unknown> = {
      id: Number(id),
      title: kept.title,
      content: kept.content,
      content_format: kept.content_format === "markdown" ? "markdown" : "html",
      fields: kept.fields ?? {},
      status: kept.status,
      seo: await seoOfState(call.ctx.db, call.site.id, kept.seo, warnings),
      menu_order: kept.menu_order ?? 0,
      // A revision made before pages kept a date leaves the page's date as it is.
      ...(Object.hasOwn(kept, "date") ? { date: kept.date } : {}),
    };
    // Revisions from before dates, tags and feeds keep none: the page keeps its own.
    for (const key of ["date", "tags", "feed"] as const) if (Object.hasOwn(kept, key)) body[key] = kept[key];
    const frameId = typeof kept.frame_id === "string" ? kept.frame_id : null;
    if (frameId === null || (await frameStands(call.ctx.db, call.site.id, frameId))) body.frame = frameId;
    else
      warnings.push(
        warning(
          "frame_missing",
          `Revision ${state.revision}'s frame (${frameId}) was deleted; the page keeps its current frame.`,
          { frame: frameId },
        ),
      );
    // A revision's state goes back as it was stored: what an editor wrote was sanitised then
    // (docs/roles.md), and an administrator's raw HTML is the administrator's. A Markdown source
    // is kept as written, so it goes back as whose it was: an editor's prints sanitised.
    const markup = kept.content_format === "markdown" && kept.content_trust !== "raw" ? "sanitized" : "raw";
    const answer = await publishPage(call.ctx, call.site, body, markup);
    return { body: { site_id: call.site.id, ...answer, warnings: [...warnings, ...answer.warnings] } };
  },

  async undelete(call, entry, state) {
    const id = /^[1-9][0-9]{0,14}$/.test(entry.id) ? Number(entry.id) : Number.NaN;
    if (!Number.isSafeInteger(id)) throw fail("trash_item_not_found", { kind: "pages", id: entry.id });
    const answer = await undeletePage(call.ctx, call.site, id, state.fields, entry.extra, entry.slug);
    return { body: { site_id: call.site.id, ...answer } };
  },
};
