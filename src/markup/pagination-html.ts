// What svc/pagination prints (docs/markup.md, "Lists"): a nav, labelled, with a link to the
// previous page (`rel="prev"`), the page numbers — the first, the last and two on each side of the
// page shown, the gaps as `…` — the page shown marked `aria-current="page"`, and a link to the next
// page (`rel="next"`), as WordPress's paginate_links prints them. Nothing for a list of one page.
import { escapeAttr, escapeText } from "./escape.ts";
import { listPageUrl } from "./list-window.ts";
import type { PaginationLabels } from "./program.ts";
import type { ListPage } from "./types.ts";

/** Page numbers shown on each side of the page shown. */
const AROUND = 2;

/** The page numbers printed, in order, with 0 where a gap is. */
export function pageNumbers(page: number, pages: number): number[] {
  const out: number[] = [];
  for (let n = 1; n <= pages; n++) {
    if (n === 1 || n === pages || Math.abs(n - page) <= AROUND) out.push(n);
    else if (out[out.length - 1] !== 0) out.push(0);
  }
  return out;
}

export function paginationHtml(list: ListPage | undefined, labels: PaginationLabels, cls: string | null): string {
  if (list === undefined || list.pages <= 1) return "";
  const href = (n: number) => escapeAttr(listPageUrl(list.base, n));
  const parts = [`<nav class="${escapeAttr(cls ?? "pagination")}" aria-label="${escapeAttr(labels.label)}">`];
  if (list.page > 1)
    parts.push(`<a class="prev" rel="prev" href="${href(list.page - 1)}">${escapeText(labels.previous)}</a>`);
  for (const n of pageNumbers(list.page, list.pages)) {
    if (n === 0) parts.push('<span class="dots">…</span>');
    else if (n === list.page) parts.push(`<a class="page current" href="${href(n)}" aria-current="page">${n}</a>`);
    else parts.push(`<a class="page" href="${href(n)}">${n}</a>`);
  }
  if (list.page < list.pages)
    parts.push(`<a class="next" rel="next" href="${href(list.page + 1)}">${escapeText(labels.next)}</a>`);
  parts.push("</nav>");
  return parts.join("");
}
