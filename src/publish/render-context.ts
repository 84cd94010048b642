// What a render reads, as plain data (RenderInput), and the RenderContext over it. Plain data so
// that a render can run in the service's thread or, when it is long, in the render worker
// (render-pool.ts), which receives the same input and the markup of the frames it may embed.
// No I/O here: render-job.ts reads the database and builds the input.
import {
  type FormView,
  mediaToken,
  type CompiledFrame,
  type CurrentPage,
  type Heading,
  type LanguageLink,
  type ListPage,
  type MediaView,
  type MenuNode,
  type RenderContext,
  type SeoHead,
} from "../markup/index.ts";
import type { SidebarView } from "./sidebar-view.ts";

export interface RenderInput {
  /** The frame rendered. */
  slug: string;
  /** Items of the data sources the frame and its embeds read (`data.<set>`, `menu.<location>`, …). */
  items: Array<[string, unknown[] | undefined]>;
  site: { name: string; tagline: unknown; url: string; lang: string | null };
  settings: Record<string, unknown>;
  /** The page shown, for frames that render on request and page-scoped sources. */
  page: Record<string, unknown> | undefined;
  links: LanguageLink[];
  /** The site's media files the frame and its embeds read (`media.<ref>`), by ref, in the output's language; a ref naming nothing is absent. */
  media: Array<[string, MediaView]>;
  /** The addresses of the stylesheets of the site's theme the frame and its embeds link (`style.<name>`), by name; a name naming none is absent. */
  styles: Array<[string, string]>;
  /** The head tags of the page shown, when the frame or an embed prints `svc/seo` (source `seo`). */
  seo?: SeoHead;
  /** The documentation sidebars the frame and its embeds read (`sidebar.<name>`), as the page shown sees them. */
  sidebars: Array<[string, SidebarView]>;
  /** The forms the frame and its embeds print (`form.<name>`), labels in the output's language. */
  forms?: Array<[string, FormView]>;
  /** The headings of the page's content (svc/toc). */
  headings: Heading[];
  /** The page shown, whose menu items are marked; null for a bake (marked per page later). */
  current: CurrentPage | null;
  /** The texts of the strings the frame reads (`t.<key>`), in the output's language or the default one's. */
  strings: Array<[string, string]>;
  /** The page of the page's list shown (docs/markup.md, "Lists"), when its frame pages one. */
  listPage?: ListPage;
}

/** A frame a render may embed, by slug and by id. */
export interface ReachableFrame {
  id: string;
  slug: string;
  sha256: string;
  compiled: CompiledFrame;
}

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
      page: typeof item.page === "number" ? item.page : null,
      target: (item.target as string | null | undefined) ?? null,
      classes: (item.classes as string | null | undefined) ?? null,
      valid: item.valid !== false,
      children: menuNodes(Array.isArray(item.children) ? item.children : []),
    };
  });
}

/** The frames by slug and by id, as `RenderContext.frame` looks them up. */
export function framesByRef(frames: Iterable<ReachableFrame>): Map<string, ReachableFrame> {
  const byRef = new Map<string, ReachableFrame>();
  for (const frame of frames) {
    byRef.set(frame.slug, frame);
    byRef.set(frame.id, frame);
  }
  return byRef;
}

export function renderContext(input: RenderInput, frames: ReadonlyMap<string, ReachableFrame>): RenderContext {
  const items = new Map(input.items);
  const media = new Map(input.media);
  const styles = new Map(input.styles);
  const sidebars = new Map(input.sidebars);
  const forms = new Map(input.forms ?? []);
  const strings = new Map(input.strings);
  const { site, settings, page, links } = input;
  return {
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
        case "t":
          return strings.get(path.join("."));
        case "media": {
          // The ref may hold dots: mediaToken splits at the last one.
          const parts = mediaToken(token);
          const file = parts && media.get(parts.ref);
          return file ? file[parts.field] : undefined;
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
    media: (ref) => media.get(ref),
    style: (name) => styles.get(name),
    seo: () => input.seo,
    sidebar: (name) => sidebars.get(name)?.nodes,
    pager: (name) => sidebars.get(name)?.pager,
    form: (name) => forms.get(name),
    headings: () => input.headings,
    current: () => input.current,
    listPage: () => input.listPage,
  };
}
