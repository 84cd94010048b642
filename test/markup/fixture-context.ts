// Builds a RenderContext from plain fixture data, so a fixture file holds everything a
// render reads: token values, repeat sources, menus, language links and other frames.
import { compileFrame } from "../../src/markup/index.ts";
import type {
  CompiledFrame,
  CurrentPage,
  Heading,
  LanguageLink,
  ListPage,
  MediaView,
  MenuNode,
  PagerLinks,
  RenderContext,
  SeoHead,
  SidebarNode,
} from "../../src/markup/index.ts";

export interface FixtureContext {
  /** token -> value (any JSON: objects and arrays count as no value). */
  values?: Record<string, unknown>;
  /** repeat source (as listed in `sources`, e.g. "data.team", "pages.children") -> items. */
  items?: Record<string, unknown[]>;
  /** menu location -> tree. */
  menus?: Record<string, MenuNode[]>;
  languages?: LanguageLink[];
  /** slug -> markup, or {id, markup} to be found by id too. */
  frames?: Record<string, string | string[] | { id?: string; markup: string | string[] }>;
  /** media ref (id or slug) -> the file as a render prints it. */
  media?: Record<string, MediaView>;
  /** stylesheet name -> the address its link prints. */
  styles?: Record<string, string>;
  /** the head tags svc/seo prints for the page shown. */
  seo?: SeoHead;
  /** sidebar name -> its tree as the page shown sees it, and its pager. */
  sidebars?: Record<string, { nodes: SidebarNode[]; pager: PagerLinks }>;
  /** the headings of the page's content (svc/toc). */
  headings?: Heading[];
  /** the page shown (menus mark its item); absent: a bake, which prints markers. */
  current?: CurrentPage | null;
  /** the page of the page's list shown (svc/pagination, the page's paged repeat). */
  listPage?: ListPage;
}

export function joined(text: string | string[]): string {
  return Array.isArray(text) ? text.join("") : text;
}

const own = (o: object, k: string): boolean => Object.hasOwn(o, k);

export function fixtureContext(data: FixtureContext = {}): RenderContext & { calls: string[] } {
  const compiled = new Map<string, { slug: string; compiled: CompiledFrame }>();
  const calls: string[] = [];
  const frames = data.frames ?? {};
  const find = (ref: string): { slug: string; compiled: CompiledFrame } | undefined => {
    for (const slug of Object.keys(frames)) {
      const f = frames[slug]!;
      const id = typeof f === "object" && !Array.isArray(f) ? f.id : undefined;
      if (slug !== ref && id !== ref) continue;
      let hit = compiled.get(slug);
      if (!hit) {
        const markup = typeof f === "object" && !Array.isArray(f) ? f.markup : f;
        hit = { slug, compiled: compileFrame(joined(markup)) };
        compiled.set(slug, hit);
      }
      return hit;
    }
    return undefined;
  };
  return {
    calls,
    value(token) {
      calls.push(`value ${token}`);
      return data.values && own(data.values, token) ? data.values[token] : undefined;
    },
    items(source) {
      calls.push(`items ${source}`);
      return data.items && own(data.items, source) ? data.items[source] : undefined;
    },
    menu(location) {
      calls.push(`menu ${location}`);
      return data.menus && own(data.menus, location) ? data.menus[location]! : [];
    },
    languageLinks() {
      calls.push("languageLinks");
      return data.languages ?? [];
    },
    frame(ref) {
      calls.push(`frame ${ref}`);
      return find(ref);
    },
    media(ref) {
      calls.push(`media ${ref}`);
      return data.media && own(data.media, ref) ? data.media[ref] : undefined;
    },
    style(name) {
      calls.push(`style ${name}`);
      return data.styles && own(data.styles, name) ? data.styles[name] : undefined;
    },
    seo() {
      calls.push("seo");
      return data.seo;
    },
    sidebar(name) {
      calls.push(`sidebar ${name}`);
      return data.sidebars && own(data.sidebars, name) ? data.sidebars[name]!.nodes : undefined;
    },
    pager(name) {
      calls.push(`pager ${name}`);
      return data.sidebars && own(data.sidebars, name) ? data.sidebars[name]!.pager : undefined;
    },
    headings() {
      calls.push("headings");
      return data.headings ?? [];
    },
    current() {
      return data.current === undefined ? { id: null, urls: [] } : data.current;
    },
    listPage() {
      calls.push("listPage");
      return data.listPage;
    },
  };
}
