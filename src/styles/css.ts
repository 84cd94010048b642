// The stylesheet compiler (issue 18), over lightningcss: a stylesheet's parse (what it imports and
// which media it points to, or the parser's refusal with its position), and its bundle as served
// (imports inlined in their place, `url(media:<ref>)` turned into the file's address, minified,
// vendor prefixes for the browserslist target below). No database here: the caller hands in the
// stylesheets of the theme and the media addresses.
import { fail, ServiceError } from "../errors.ts";
import { isStyleName } from "./names.ts";
import { MAX_CSS_NESTING, tooDeepAt } from "./nesting.ts";

/**
 * Which browsers the bundles are prefixed and lowered for (docs/styles.md): browserslist's
 * `defaults` (over 0.5% of use, the last two versions of each browser, Firefox ESR, none dead).
 */
export const BROWSERS_QUERY = "defaults";

type LightningCss = typeof import("lightningcss");

interface Compiler {
  css: LightningCss;
  targets: ReturnType<LightningCss["browserslistToTargets"]>;
  /**
   * What every bundle is made with besides its sources; part of each bundle's source key, so a
   * new browser list (browserslist's data updated) or a new format below makes the bundles again.
   */
  settings: string;
}

let compiler: Promise<Compiler> | undefined;

/**
 * lightningcss (a native module) and browserslist's data, loaded on first use: a start of the
 * service that serves no stylesheet does not pay for them (bench, cold_start).
 */
function loadCompiler(): Promise<Compiler> {
  compiler ??= Promise.all([import("lightningcss"), import("browserslist")]).then(([css, list]) => {
    const browsers = list.default(BROWSERS_QUERY);
    return { css, targets: css.browserslistToTargets(browsers), settings: `format 1; ${browsers.join(",")}` };
  });
  return compiler;
}

/** The settings every bundle is made with (part of its source key; see Compiler.settings). */
export async function bundleSettings(): Promise<string> {
  return (await loadCompiler()).settings;
}

/** A place in a stylesheet: 1-based line and column (UTF-16 units), as lightningcss reports them. */
export interface CssSpot {
  line: number;
  column: number;
}

export interface ParsedStylesheet {
  /** `@import "<name>"` of the same theme's stylesheets, in order. */
  imports: Array<CssSpot & { name: string }>;
  /** `url(media:<ref>)`, in order. */
  media: Array<CssSpot & { ref: string }>;
}

const MEDIA_SCHEME = "media:";

/** An import the browser fetches itself, left as an `@import` of the bundle: http(s) or protocol-relative. */
function isExternal(specifier: string): boolean {
  return /^(https?:)?\/\//i.test(specifier);
}

/** 422 invalid_css at a place, with the message the caller reads. */
export function invalidCss(message: string, spot: CssSpot, details: Record<string, unknown> = {}): ServiceError {
  return fail("invalid_css", { line: spot.line, column: spot.column, ...details }, message);
}

/** A lightningcss failure as invalid_css: its text and position (the start when it gives none). */
function refusalOf(error: unknown, details: (fileName: string | undefined) => Record<string, unknown> = () => ({})): ServiceError {
  if (error instanceof ServiceError) return error;
  const { message, loc, fileName } = error as { message?: unknown; loc?: { line?: unknown; column?: unknown }; fileName?: unknown };
  if (typeof message !== "string") throw error;
  const line = typeof loc?.line === "number" ? loc.line : 1;
  const column = typeof loc?.column === "number" ? loc.column : 1;
  return invalidCss(message, { line, column }, details(typeof fileName === "string" && fileName !== "" ? fileName : undefined));
}

/**
 * Parses one stylesheet as uploaded: 422 invalid_css at the parser's error, at an `@import` of
 * anything but a stylesheet name or an http(s) address, or at a `url(media:)` without a ref.
 */
export async function parseStylesheet(css: string): Promise<ParsedStylesheet> {
  const { transform } = (await loadCompiler()).css;
  const deep = tooDeepAt(css);
  if (deep) throw invalidCss(`Blocks, parentheses and brackets nest at most ${MAX_CSS_NESTING} levels deep`, deep, { max_nesting: MAX_CSS_NESTING });
  const parsed: ParsedStylesheet = { imports: [], media: [] };
  // Collected, not thrown from the visitor: the visitor runs inside the parser.
  let refusal: ServiceError | undefined;
  try {
    transform({
      filename: "stylesheet.css",
      code: Buffer.from(css, "utf8"),
      errorRecovery: false,
      visitor: {
        Rule: {
          import(rule) {
            const { url, loc } = rule.value;
            if (isExternal(url)) return;
            // A rule's line counts from 0, a url's and an error's from 1.
            const spot = { line: loc.line + 1, column: loc.column };
            if (!isStyleName(url)) {
              refusal ??= invalidCss(`@import "${url}" names no stylesheet: import another stylesheet of the theme by its name (@import "reset"), or an http(s) address`, spot, { import: url });
            }
            parsed.imports.push({ name: url, ...spot });
          },
        },
        Url(url) {
          if (!url.url.startsWith(MEDIA_SCHEME)) return;
          const ref = url.url.slice(MEDIA_SCHEME.length).trim();
          if (ref === "") refusal ??= invalidCss("url(media:) names no media file: write url(media:<id or slug>)", url.loc);
          parsed.media.push({ ref, line: url.loc.line, column: url.loc.column });
        },
      },
    });
  } catch (error) {
    throw refusalOf(error);
  }
  if (refusal) throw refusal;
  return parsed;
}

/**
 * The bundle of `name` as served: its imports inlined in their place (an import of a stylesheet
 * that is gone prints nothing), media refs as their addresses (a ref naming no file is left as
 * written), minified and prefixed. `sheets` holds the CSS of `name` and of what it imports.
 * A refusal (invalid_css) names the stylesheet it is in (`stylesheet`).
 */
export async function bundleStylesheet(name: string, sheets: ReadonlyMap<string, string>, mediaUrls: ReadonlyMap<string, string>): Promise<string> {
  const { css, targets } = await loadCompiler();
  try {
    const { code } = await css.bundleAsync({
      filename: name,
      minify: true,
      targets,
      errorRecovery: false,
      resolver: {
        read: (file) => sheets.get(file) ?? "",
        resolve: (specifier) => (isExternal(specifier) ? { external: specifier } : specifier),
      },
      visitor: {
        Url(url) {
          if (!url.url.startsWith(MEDIA_SCHEME)) return;
          const address = mediaUrls.get(url.url.slice(MEDIA_SCHEME.length).trim());
          return address === undefined ? undefined : { ...url, url: address };
        },
      },
    });
    return Buffer.from(code).toString("utf8");
  } catch (error) {
    throw refusalOf(error, (fileName) => ({ stylesheet: fileName ?? name }));
  }
}
