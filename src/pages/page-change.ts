// The input of a page write (POST and PATCH /pages): read from its body and checked before
// anything is written.
import { warning, type Warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import type { ServiceContext } from "../write/context.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import { frameIdFromRef } from "./frame-facts.ts";
import {
  booleanFrom,
  fieldsFrom,
  menuOrderFrom,
  refFrom,
  slugFrom,
  statusFrom,
  titleFrom,
  urlFrom,
  type SlugInput,
} from "./input.ts";
import type { PageStatus } from "./queries.ts";
import type { Placement } from "./placement.ts";
import { requireMedia, seoPatchFrom, type PageSeo } from "./seo.ts";
import type { MarkupTrust } from "../site/roles.ts";
import { contentGate } from "./authored-html.ts";
import { readContent, type ContentInput } from "./content.ts";
import { dateFrom, tagsFrom } from "./post-fields.ts";

/** The input of one page write once read and checked. Undefined keeps what is stored. */
export interface PageChange {
  title?: string;
  slug?: SlugInput;
  placement?: Placement;
  lang?: string;
  status?: PageStatus;
  /** The content, its format and trust as the body gives them, stored by the row's write (content.ts). */
  content?: ContentInput;
  fields?: Record<string, unknown>;
  frameId?: string | null;
  seo?: Partial<PageSeo>;
  menuOrder?: number;
  /** The publication date as stored; null clears it (post-fields.ts). */
  date?: string | null;
  tags?: string[];
  feed?: boolean;
}

/**
 * The pieces every write body shares, read and checked before anything is written. `markup`: how
 * its content and fields are stored (an editor's sanitised, pages/authored-html.ts), checked
 * against the limits again as stored.
 */
export async function readChange(
  ctx: ServiceContext,
  site: SiteRow,
  body: Record<string, unknown>,
  warnings: Warning[],
  markup: MarkupTrust,
) {
  const title = titleFrom(body.title);
  const slug = slugFrom(body.slug, warnings);
  const status = statusFrom(body.status);
  const written = fieldsFrom(body.fields);
  const content = await readContent(ctx.db, site.id, body, markup);
  const gate = await contentGate(ctx.db, site.id, markup, warnings);
  const fields = written === undefined ? undefined : fieldsFrom(gate.values(written, "fields"));
  const createMissing = booleanFrom(body.create_missing_parents, "create_missing_parents") ?? false;
  const parent = refFrom(body.parent, "parent");
  let url = urlFrom(body.url);
  if (parent !== undefined && url !== undefined) {
    warnings.push(
      warning("url_ignored", "Both parent and url were given; the page was placed by parent.", { field: "url" }),
    );
    url = undefined;
  }
  const state = await languageState(ctx.db, site.id);
  const lang = checkLangIn(state, body.lang);
  const frameId = Object.hasOwn(body, "frame") ? await frameIdFromRef(ctx.db, site.id, body.frame) : undefined;
  const seo = seoPatchFrom(body.seo, warnings);
  const menuOrder = menuOrderFrom(body.menu_order);
  const post = { date: dateFrom(body.date), tags: tagsFrom(body.tags), feed: booleanFrom(body.feed, "feed") };
  await requireMedia(ctx.db, site.id, seo?.og_image ?? null, "seo.og_image");
  return {
    title,
    slug,
    status,
    content,
    fields,
    createMissing,
    parent,
    url,
    state,
    lang,
    frameId,
    seo,
    menuOrder,
    post,
  };
}

/** A write body once read and checked (readChange). */
export type PageInput = Awaited<ReturnType<typeof readChange>>;

/** The stored columns a write body sets (placement and language are decided by the caller). */
export function columnsOf(input: PageInput): PageChange {
  return {
    title: input.title,
    slug: input.slug,
    status: input.status,
    content: input.content,
    fields: input.fields,
    frameId: input.frameId,
    seo: input.seo,
    menuOrder: input.menuOrder,
    ...input.post,
  };
}
