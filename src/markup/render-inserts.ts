// What the inserts that print from the context alone put between their markers: menus (with the
// page shown marked), the language switcher, images, stylesheets, head tags and the documentation
// inserts. Embeds, repeats, ifs and slots recurse into markup and stay in render.ts.
import { escapeAttr } from "./escape.ts";
import { imageHtml } from "./image-html.ts";
import { seoHeadHtml } from "./seo-html.ts";
import { pagerHtml, sidebarHtml, tocHtml } from "./docs-html.ts";
import { langSwitcherHtml, menuHtml } from "./lists-html.ts";
import { paginationHtml } from "./pagination-html.ts";
import { formHtml } from "./form-html.ts";
import { searchBlockHtml, searchStrings } from "./search-html.ts";
import type { Marks } from "./current.ts";
import type { InsertOp } from "./program.ts";
import type { RenderContext } from "./types.ts";

export type Warn = (code: string, message: string, at: number) => void;

/** svc/image: the `<img>` of a media file of the site; nothing (with a warning) for an unknown ref or a file that is not an image. */
function image(ctx: RenderContext, op: InsertOp, warn: Warn): string {
  const media = ctx.media(op.media);
  if (media === undefined) {
    warn("media_not_found", `svc/image "${op.media}" names no media file of this site; it prints nothing`, op.at);
    return "";
  }
  if (!media.image) {
    warn("media_not_image", `svc/image "${op.media}" is not an image; it prints nothing`, op.at);
    return "";
  }
  return imageHtml(media, op);
}

/** The output of one of these inserts (without its markers). */
export function printedInsert(ctx: RenderContext, op: InsertOp, marks: Marks, warn: Warn): string {
  switch (op.kind) {
    case "menu":
      return menuHtml(ctx.menu(op.location), op.depth, op.cls, marks);
    case "lang":
      return langSwitcherHtml(ctx.languageLinks(), op.cls);
    case "image":
      return image(ctx, op, warn);
    case "sidebar": {
      const nodes = ctx.sidebar(op.name);
      return nodes ? sidebarHtml(nodes, op.depth, op.cls) : "";
    }
    case "pager": {
      const pager = ctx.pager(op.name);
      return pager ? pagerHtml(pager) : "";
    }
    case "form": {
      const form = ctx.form?.(op.name);
      if (form) return formHtml(form);
      warn("unknown_form", `svc/form "${op.name}" names no form of this site; it prints nothing`, op.at);
      return "";
    }
    case "search": {
      // The block without a query; an answer to `?q=` puts its results in (docs/search.md).
      const lang = ctx.value("site.lang");
      const view = {
        lang: typeof lang === "string" ? lang : "",
        query: null,
        total: 0,
        more: false,
        page: 1,
        first: 1,
        pages: 0,
      };
      return searchBlockHtml(
        { ...view, results: [] },
        searchStrings((key) => ctx.value(key)),
      );
    }
    case "toc":
      return tocHtml(ctx.headings(), op.levels);
    case "pagination":
      return paginationHtml(ctx.listPage?.(), op.labels!, op.cls);
    case "seo": {
      const head = ctx.seo();
      return head ? seoHeadHtml(head) : "";
    }
    case "styles": {
      // One link per stylesheet the site has, in order; a name it does not have prints nothing.
      let out = "";
      for (const name of op.styles) {
        const href = ctx.style(name);
        if (href !== undefined) out += `<link rel="stylesheet" href="${escapeAttr(href)}">`;
      }
      return out;
    }
    default:
      return "";
  }
}
