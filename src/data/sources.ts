// The one resolver of data sources (docs/content-model.md, "Data sources"): what a frame sees for a
// source, used by GET /data/{source}, POST /data/resolve and the renderer. Sources: a data-set name
// (or `data.<name>`), `menu.<location>`, `pages`, `pages.children`, `breadcrumbs`, `languages`,
// `site`, `settings`. Item shapes are documented in docs/content-model.md.
import type { PublicFront } from "../config.ts";
import { fail, ServiceError } from "../errors.ts";
import type { Db } from "../store/database.ts";
import type { SiteRow } from "../site/sites.ts";
import { languageHomeUrl, linkUrl, siteAddressing, type SiteAddressing } from "../site/addresses.ts";
import { withHomes } from "../pages/home.ts";
import { findPages, groupMembers, withAncestors, pagesByIds, type PageRow } from "../pages/queries.ts";
import { pageItem, type PageItem } from "../pages/record.ts";
import { findPageByRef } from "../pages/refs.ts";
import { PageTree } from "../pages/tree.ts";
import { readSettings } from "../settings/settings-service.ts";
import { checkLangIn, languageRecords } from "../site/languages.ts";
import { settingsOf } from "../site/settings.ts";
import type { ServiceContext } from "../write/context.ts";
import { DATASET_NAME_PATTERN, isDatasetName, readDataset } from "./datasets.ts";
import { listed, matchItems, parseOrderBy, type Match, type OrderBy } from "../markup/index.ts";
import { menuSourceItems } from "./menu-source.ts";
import { menuLocationsOf } from "../site/menu-locations.ts";

/** Sources with a fixed name; any other name is a data set. */
export const NAMED_SOURCES = ["site", "settings", "languages", "pages", "pages.children", "breadcrumbs"] as const;

/** The part of the service context a source reads (the publish engine calls it with no publisher). */
/** `addressing`: a publish run's, with the home page's paths (pages/home.ts); read anew when absent. */
export type SourceContext = Pick<ServiceContext, "db" | "publicFront"> & { addressing?: SiteAddressing };

export interface SourceRequest {
  source: unknown;
  /** A language code; default: the page's language, else the site's default language. */
  lang?: unknown;
  /** A page reference (id, slug or path): the page being shown. */
  page?: unknown;
  match?: unknown;
  /** `date`, `modified`, `title`, `menu_order` or `fields.<name>`, `-` first for descending (markup/list-order.ts). */
  order_by?: unknown;
  /** Skip the first n items (after match and order). */
  offset?: unknown;
  /** Keep the first n items (after offset). */
  limit?: unknown;
}

export interface SourceAnswer {
  source: string;
  items: unknown[];
  meta: Record<string, unknown>;
}

/** The item of source `site` (tokens `site.name`, `site.tagline`, `site.url`, `site.lang`). */
export interface SiteItem {
  id: number;
  name: string;
  tagline: string;
  url: string;
  domain: string;
  lang: string | null;
  default_lang: string | null;
  theme: string;
}

/** An item of source `languages`. */
export interface LanguageItem {
  code: string;
  name: string;
  default: boolean;
  prefix: string;
  /** The language's home address. */
  url: string;
  /** The language being resolved. */
  current: boolean;
  /** With a page: its translation in this language, else null. */
  page_id: number | null;
  page_url: string | null;
}

function sourceName(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw fail(
      "invalid_field",
      { field: "source", expected: "source name", sources: [...NAMED_SOURCES, "menu.<location>", "<data set name>"] },
      "Name a source.",
    );
  }
  return value.trim();
}

function matchFrom(value: unknown): Match | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value))
    throw fail("invalid_field", { field: "match", expected: "object" }, "match must be an object of {path: value}.");
  return value as Match;
}

function orderFrom(value: unknown): OrderBy | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const order = parseOrderBy(value);
  if (order === undefined)
    throw fail(
      "invalid_field",
      { field: "order_by", expected: "date, modified, title, menu_order or fields.<name>; - first for descending" },
      "order_by must be date, modified, title, menu_order or fields.<name>, - first to sort descending.",
    );
  return order;
}

function countFrom(value: unknown, field: "limit" | "offset"): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^\d{1,9}$/.test(value.trim())
        ? Number(value)
        : NaN;
  if (!Number.isSafeInteger(n) || n < 0)
    throw fail("invalid_field", { field, expected: "non-negative integer" }, `${field} must be a whole number.`);
  return n;
}

/** Published pages whose every ancestor is published, in path order. */
function visibleOnly(rows: PageRow[], tree: PageTree): PageRow[] {
  return rows.filter((row) => tree.visible(row.id));
}

async function siteItem(
  ctx: SourceContext,
  site: SiteRow,
  addressing: SiteAddressing,
  lang: string | null,
): Promise<SiteItem> {
  const settings = await settingsOf(ctx.db, site.id);
  return {
    id: site.id,
    name: site.name,
    tagline: settings.tagline,
    url: languageHomeUrl(addressing, lang),
    domain: site.domain,
    lang: lang ?? addressing.langs.defaultLang,
    default_lang: addressing.langs.defaultLang,
    theme: settings.theme,
  };
}

async function languageItems(
  ctx: SourceContext,
  site: SiteRow,
  addressing: SiteAddressing,
  lang: string | null,
  page: PageRow | undefined,
): Promise<LanguageItem[]> {
  const translations = new Map<string, PageRow>();
  if (page) {
    if (page.translation_group !== null) {
      const members = await groupMembers(ctx.db, site.id, [page.translation_group]);
      for (const row of await pagesByIds(
        ctx.db,
        site.id,
        members.map((m) => m.id),
      ))
        translations.set(row.lang, row);
    }
    if (page.lang !== "") translations.set(page.lang, page);
  }
  return languageRecords(addressing.langs).map((language) => {
    const translation = translations.get(language.code);
    return {
      ...language,
      url: languageHomeUrl(addressing, language.code),
      current: language.code === lang,
      page_id: translation?.id ?? null,
      page_url: translation ? linkUrl(addressing, translation.lang, translation.path) : null,
    };
  });
}

function requirePage(page: PageRow | undefined, source: string): PageRow {
  if (!page)
    throw fail(
      "page_required",
      { source },
      `The source ${source} depends on the page being shown; pass page (id, slug or path).`,
    );
  return page;
}

/**
 * Resolves a source for a site, in a language, for a page. Refusals: 400 page_required
 * (pages.children, breadcrumbs without a page), 400 unknown_location, 400
 * invalid_dataset_name, 404 dataset_not_found, 404 page_not_found, the `lang` check's codes.
 */
export async function resolveSource(ctx: SourceContext, site: SiteRow, request: SourceRequest): Promise<SourceAnswer> {
  const source = sourceName(request.source);
  const match = matchFrom(request.match);
  const orderBy = orderFrom(request.order_by);
  const offset = countFrom(request.offset, "offset");
  const limit = countFrom(request.limit, "limit");
  const addressing = ctx.addressing ?? (await siteAddressing(ctx.db, site, ctx.publicFront));
  // Where links to pages point (`/` for the home page): asked only by the sources that print them.
  const links = async () => (addressing.homes ? addressing : withHomes(ctx.db, site.id, addressing));
  const langs = addressing.langs;
  const given = checkLangIn(langs, request.lang);
  const page =
    request.page === undefined || request.page === null || request.page === ""
      ? undefined
      : await findPageByRef(ctx.db, site.id, request.page, { field: "page" });
  const lang = given ?? (page && page.lang !== "" ? page.lang : null) ?? (langs.active ? langs.defaultLang : null);

  let items: unknown[];
  let meta: Record<string, unknown>;
  if (source === "site") {
    items = [await siteItem(ctx, site, addressing, lang)];
    meta = { lang };
  } else if (source === "settings") {
    items = [await readSettings(ctx, site)];
    meta = {};
  } else if (source === "languages") {
    items = await languageItems(ctx, site, await links(), lang, page);
    meta = { active: langs.active, default_lang: langs.defaultLang, lang, ...(page ? { page: page.id } : {}) };
  } else if (source === "pages" || source === "pages.children") {
    // Children share their parent's language. `pages`: without languages every page; with them,
    // the pages of the language resolved.
    const filter =
      source === "pages.children"
        ? { parentId: requirePage(page, source).id }
        : langs.active && lang !== null
          ? { lang }
          : {};
    const rows = await findPages(ctx.db, site.id, { statuses: ["publish"], ...filter });
    const tree = new PageTree(
      await withAncestors(
        ctx.db,
        site.id,
        rows.map((row) => row.id),
      ),
    );
    const linking = await links();
    items = visibleOnly(rows, tree).map((row): PageItem => pageItem(row, linking));
    meta = { lang, ...(page ? { page: page.id } : {}) };
  } else if (source === "breadcrumbs") {
    const current = requirePage(page, source);
    const tree = new PageTree(await withAncestors(ctx.db, site.id, [current.id]));
    const chain = [...tree.ancestors(current.id)].reverse().map((a) => a.id);
    const byId = new Map((await pagesByIds(ctx.db, site.id, chain)).map((row) => [row.id, row]));
    const linking = await links();
    items = [...chain.map((id) => byId.get(id)).filter((row): row is PageRow => row !== undefined), current].map(
      (row) => pageItem(row, linking),
    );
    meta = { page: current.id, lang: current.lang === "" ? null : current.lang };
  } else if (source.startsWith("menu.")) {
    const location = source.slice(5);
    const settings = await settingsOf(ctx.db, site.id);
    const locations = menuLocationsOf(settings);
    if (!locations.includes(location)) throw fail("unknown_location", { location, locations });
    const theme = settings.theme;
    const menu = await menuSourceItems(ctx.db, site.id, {
      location,
      lang,
      theme,
      publicFront: ctx.publicFront,
      addressing: ctx.addressing,
    });
    items = menu.items;
    meta = { ...menu.meta, location, lang, theme };
    if (menu.meta.menu_id === 0) {
      // No menu there: a data set with the location's short name stands in (docs/content-model.md).
      const stand = await readDataset(ctx.db, site.id, location, lang);
      if (stand) {
        items = stand.items;
        meta.same_name_dataset = location;
      }
    }
  } else {
    const name = source.startsWith("data.") ? source.slice(5) : source;
    if (!isDatasetName(name)) {
      throw fail(
        "invalid_dataset_name",
        { name: source, pattern: DATASET_NAME_PATTERN, sources: [...NAMED_SOURCES, "menu.<location>"] },
        `"${source}" is neither a source nor a data-set name.`,
      );
    }
    const read = await readDataset(ctx.db, site.id, name, lang);
    if (!read) throw fail("dataset_not_found", { name, lang });
    items = read.items;
    meta = { dataset: name, lang, variant: read.variant };
  }

  // What a svc/repeat with the same parameters prints (markup/list-window.ts).
  const matched = matchItems(items, match);
  const kept = listed(
    matched,
    { match: null, orderBy: orderBy ?? null, offset: offset ?? 0, limit: limit ?? -1 },
    lang,
  );
  return {
    source,
    items: kept,
    meta: { ...meta, total: kept.length, ...(match ? { matched: matched.length, of: items.length } : {}) },
  };
}

/** The items of a source as renders print them: a missing data set prints nothing, a source naming nothing printable is undefined. */
export async function itemsForRender(
  db: Db,
  publicFront: PublicFront,
  site: SiteRow,
  source: string,
  { lang, pageId, addressing }: { lang: string | null; pageId?: number; addressing?: SiteAddressing },
): Promise<unknown[] | undefined> {
  const name = source.startsWith("data.") ? source.slice("data.".length) : source;
  try {
    const answer = await resolveSource({ db, publicFront, addressing }, site, {
      source: name,
      lang: lang ?? undefined,
      page: pageId,
    });
    return answer.items;
  } catch (error) {
    if (error instanceof ServiceError) return error.code === "dataset_not_found" ? [] : undefined;
    throw error;
  }
}
