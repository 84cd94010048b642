// Prepares a frame render: loads (asynchronously) the frames it embeds and the data its sources
// name, then hands back a synchronous job over that data for the executor to run.
import { renderFrame, type CompiledFrame, type LanguageLink, type MenuNode, type RenderContext, type RenderResult } from "../markup/index.ts";
import { languageHomeUrl, pageUrl } from "../site/addresses.ts";
import { homePageOf } from "../site/settings.ts";
import type { Db } from "../store/database.ts";
import type { PageRow } from "../store/schema.ts";
import type { CompiledCache } from "./compiled-cache.ts";
import type { PublishSources } from "./contract.ts";
import type { SiteState } from "./site-state.ts";

export interface RenderTarget {
  lang: string | null;
  /** The page shown, for frames that render on request. */
  page?: PageRow;
}

/** Sources answered from the site state itself rather than the data source. */
const LOCAL = new Set(["site", "settings", "page"]);

function pathValue(root: unknown, path: readonly string[]): unknown {
  let at = root;
  for (const key of path) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

function menuNodes(items: readonly unknown[]): MenuNode[] {
  return items.map((raw) => {
    const item = raw as Record<string, unknown>;
    return {
      title: String(item.title ?? ""),
      url: String(item.url ?? ""),
      target: (item.target as string | null | undefined) ?? null,
      classes: (item.classes as string | null | undefined) ?? null,
      valid: item.valid !== false,
      children: menuNodes(Array.isArray(item.children) ? item.children : []),
    };
  });
}

function settingsValues(state: SiteState): Record<string, unknown> {
  return {
    name: state.site.name,
    tagline: state.settings.tagline,
    theme: state.settings.theme,
    default_lang: state.addressing.langs.defaultLang,
    home_page: homePageOf(state.settings),
    render_model: "v2",
  };
}

function pageValues(state: SiteState, sources: PublishSources, page: PageRow, lang: string | null): Record<string, unknown> {
  const parent = page.parent_id ? state.tree.get(page.parent_id) : undefined;
  return {
    id: page.id,
    title: page.title,
    slug: page.slug,
    url: pageUrl(state.addressing, page.lang, page.path),
    path: page.path,
    lang,
    content: page.content,
    parent_title: parent?.title,
    parent_url: parent ? pageUrl(state.addressing, parent.lang, parent.path) : undefined,
    fields: sources.pages.fields(page),
  };
}

function languageLinks(state: SiteState, page: PageRow | undefined, lang: string | null): LanguageLink[] {
  const langs = state.addressing.langs;
  if (!langs.active) return [];
  const translations = new Map<string, string>();
  if (page && page.translation_group !== null) {
    for (const member of state.tree.all()) {
      if (member.translation_group === page.translation_group && member.lang !== "" && state.tree.visible(member.id) && !translations.has(member.lang)) {
        translations.set(member.lang, pageUrl(state.addressing, member.lang, member.path));
      }
    }
  }
  if (page && page.lang !== "") translations.set(page.lang, pageUrl(state.addressing, page.lang, page.path));
  return state.addressing.langs.rows.map((row) => ({
    code: row.code,
    name: row.name,
    url: translations.get(row.code) ?? languageHomeUrl(state.addressing, row.code),
    current: row.code === lang,
  }));
}

/** The embedded frames a render may reach, by slug and by id, compiled. */
async function frameClosure(db: Db, sources: PublishSources, state: SiteState, cache: CompiledCache, slug: string) {
  const slugs = new Set<string>([slug]);
  const queue = [slug];
  for (let i = 0; i < queue.length; i++) {
    for (const next of state.index.embeddedSlugs(queue[i])) {
      if (!slugs.has(next) && state.index.get(next)) {
        slugs.add(next);
        queue.push(next);
      }
    }
  }
  const ids = [...slugs].map((s) => state.index.get(s)?.id).filter((id): id is string => id !== undefined);
  const rows = ids.length === 0 ? [] : await sources.frames.heads(db, ids);
  const byRef = new Map<string, { slug: string; compiled: CompiledFrame }>();
  const add = (row: { id: string; slug: string }, compiled: CompiledFrame) => {
    const entry = { slug: row.slug, compiled };
    byRef.set(row.slug, entry);
    byRef.set(row.id, entry);
  };
  // The markup is read only for frames whose program is not held already.
  const missing: typeof rows = [];
  for (const row of rows) {
    const compiled = cache.peek(row.sha256);
    if (compiled) add(row, compiled);
    else missing.push(row);
  }
  if (missing.length > 0) {
    const markup = await sources.frames.markup(db, missing.map((row) => row.id));
    for (const row of markup) add(row, cache.get(row.sha256, row.html));
  }
  return byRef;
}

export async function prepareRender(db: Db, sources: PublishSources, state: SiteState, cache: CompiledCache, slug: string, target: RenderTarget): Promise<() => RenderResult> {
  const frames = await frameClosure(db, sources, state, cache, slug);
  const top = frames.get(slug);
  if (!top) throw new Error(`frame ${slug} vanished before it could be rendered`);

  const items = new Map<string, unknown[] | undefined>();
  for (const source of state.index.effectiveSources(slug)) {
    if (LOCAL.has(source)) continue;
    // A language is asked for only while the site has languages; otherwise sources have none.
    const lang = state.addressing.langs.active ? target.lang : null;
    items.set(source, await sources.data.items(db, state.site, source, { lang, pageId: target.page?.id }));
  }
  const site = {
    name: state.site.name,
    tagline: state.settings.tagline,
    url: languageHomeUrl(state.addressing, target.lang),
    lang: target.lang,
  };
  const settings = settingsValues(state);
  const page = target.page ? pageValues(state, sources, target.page, target.lang) : undefined;
  const links = languageLinks(state, target.page, target.lang);

  const context: RenderContext = {
    value(token) {
      const [namespace, ...path] = token.split(".");
      switch (namespace) {
        case "site":
          return pathValue(site, path);
        case "settings":
          return pathValue(settings, path);
        case "page":
          return page ? pathValue(page, path) : undefined;
        case "data": {
          const [set, ...rest] = path;
          return set === undefined ? undefined : pathValue(items.get(`data.${set}`), rest);
        }
        default:
          return undefined;
      }
    },
    items(source) {
      if (source === "site") return [site];
      if (source === "settings") return [settings];
      return items.get(source);
    },
    menu(location) {
      return menuNodes(items.get(`menu.${location}`) ?? []);
    },
    languageLinks: () => links,
    frame: (ref) => frames.get(ref) ?? frames.get(ref.trim().toLowerCase()),
  };
  return () => renderFrame(top.compiled, context, { slug });
}
