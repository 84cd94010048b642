// Markdown content (docs/content-model.md, "Markdown"): CommonMark with GitHub's tables,
// strikethrough, task lists and autolinks, by markdown-it and @mdit/plugin-tasklist. Two link
// forms name what the site holds: `[text](page:<ref>)` prints the page's address and
// `![alt](media:<ref>)` the file as `svc/image` prints it (image-html.ts); the caller says what
// each reference names (`MarkdownLinks`), and one that names nothing printable prints its text
// only (a link) or nothing (an image). Raw HTML is passed through: the caller sanitises the output
// of what an editor wrote (sanitize.ts), and gives headings their ids (headings.ts).
//
// Pure: the source in, the HTML out. markdown-it is loaded on the first call, not at start
// (bench/README.md, "Cold start"), and one instance serves every call: its configuration never
// changes and what one render needs travels in its `env`.
import type MarkdownIt from "markdown-it";
import type { Options, RendererRule, Token } from "markdown-it";
import { imageHtml } from "./image-html.ts";
import type { MediaView } from "./types.ts";

/** The two link forms' schemes. */
export const PAGE_SCHEME = "page:";
export const MEDIA_SCHEME = "media:";

/** The `page:` and `media:` references of a source, each once, in the order first written. */
export interface MarkdownRefs {
  pages: string[];
  media: string[];
}

/** What the references of one render name. */
export interface MarkdownLinks {
  /** The address a `page:` reference prints; null: the page is not public (its text prints alone). */
  page(ref: string): string | null;
  /** The file a `media:` reference names; null: none. */
  media(ref: string): MediaView | null;
}

export interface Markdown {
  refs(source: string): MarkdownRefs;
  html(source: string, links: MarkdownLinks): string;
}

interface RenderEnv {
  links: MarkdownLinks;
  /** The link being printed was left out: its closing tag is left out too (links never nest). */
  skipping: boolean;
}

/** A reference as written after its scheme, undoing the percent-encoding markdown-it gives URLs. */
function refAfter(url: string, scheme: string): string {
  const ref = url.slice(scheme.length);
  try {
    return decodeURIComponent(ref).trim();
  } catch {
    return ref.trim();
  }
}

/** Walks every token, inline children included. */
function eachToken(tokens: readonly Token[], visit: (token: Token) => void): void {
  for (const token of tokens) {
    visit(token);
    if (token.children) eachToken(token.children, visit);
  }
}

/**
 * `sizes` of a Markdown image: it fills the width it is given up to its own width (content
 * images stand in a column and are not stretched), so a small image never fetches a wide variant.
 */
function contentSizes(media: MediaView): string {
  return media.width === null ? "100vw" : `(max-width: ${media.width}px) 100vw, ${media.width}px`;
}

/** Table cells align with the `align` attribute, as GitHub prints them, rather than a `style`. */
function alignCells(state: { tokens: Token[] }): void {
  for (const token of state.tokens) {
    if (token.type !== "th_open" && token.type !== "td_open") continue;
    const style = token.attrGet("style");
    const align = style && /^text-align:(left|right|center)$/.exec(style);
    if (!align || !token.attrs) continue;
    token.attrs = token.attrs.filter(([name]) => name !== "style");
    token.attrSet("align", align[1]);
  }
}

function configure(md: MarkdownIt, tasklist: (md: MarkdownIt, options: object) => void): Markdown {
  md.use(tasklist, { disabled: true, label: false });
  md.core.ruler.push("align_cells", alignCells);
  const rules = md.renderer.rules;
  const asToken: RendererRule = (tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options);
  const defaultLinkOpen = rules.link_open ?? asToken;
  const defaultLinkClose = rules.link_close ?? asToken;
  const defaultImage = rules.image!;

  rules.link_open = (tokens, idx, options: Options, env: RenderEnv, self) => {
    const token = tokens[idx];
    const href = token.attrGet("href") ?? "";
    let target: string | null | undefined;
    if (href.startsWith(PAGE_SCHEME)) target = env.links.page(refAfter(href, PAGE_SCHEME));
    else if (href.startsWith(MEDIA_SCHEME)) target = env.links.media(refAfter(href, MEDIA_SCHEME))?.url ?? null;
    if (target === null) {
      env.skipping = true;
      return "";
    }
    if (target !== undefined) token.attrSet("href", target);
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
  rules.link_close = (tokens, idx, options: Options, env: RenderEnv, self) => {
    if (env.skipping) {
      env.skipping = false;
      return "";
    }
    return defaultLinkClose(tokens, idx, options, env, self);
  };
  rules.image = (tokens, idx, options: Options, env: RenderEnv, self) => {
    const token = tokens[idx];
    const src = token.attrGet("src") ?? "";
    if (src.startsWith(PAGE_SCHEME)) return "";
    if (!src.startsWith(MEDIA_SCHEME)) return defaultImage(tokens, idx, options, env, self);
    const media = env.links.media(refAfter(src, MEDIA_SCHEME));
    if (!media?.image) return "";
    // The text written between the brackets, else the file's own alt text.
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    return imageHtml({ ...media, alt: alt || media.alt }, { sizes: contentSizes(media), cls: null, loading: null });
  };

  return {
    refs(source) {
      const pages = new Set<string>();
      const media = new Set<string>();
      eachToken(md.parse(source, {}), (token) => {
        const url =
          token.type === "link_open" ? token.attrGet("href") : token.type === "image" ? token.attrGet("src") : null;
        if (url?.startsWith(PAGE_SCHEME)) pages.add(refAfter(url, PAGE_SCHEME));
        else if (url?.startsWith(MEDIA_SCHEME)) media.add(refAfter(url, MEDIA_SCHEME));
      });
      pages.delete("");
      media.delete("");
      return { pages: [...pages], media: [...media] };
    },
    html(source, links) {
      const env: RenderEnv = { links, skipping: false };
      return md.render(source, env);
    },
  };
}

let loading: Promise<Markdown> | undefined;

/** The Markdown renderer; markdown-it is loaded by the first call. */
export function markdown(): Promise<Markdown> {
  loading ??= Promise.all([import("markdown-it"), import("@mdit/plugin-tasklist")]).then(([it, plugin]) =>
    configure(
      new it.default({ html: true, linkify: true, typographer: false }),
      plugin.tasklist as (md: MarkdownIt, options: object) => void,
    ),
  );
  return loading;
}
