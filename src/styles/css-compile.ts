// The lightningcss work itself: a stylesheet's parse (what it imports and which media
// it points to, or the parser's refusal with its position) and its bundle as served (imports
// inlined in their place, `url(media:<ref>)` turned into the file's address, minified, vendor
// prefixes for the browserslist target below). It runs only in the CSS worker process
// (css-worker.ts): lightningcss parses some inputs in quadratic time, in native code nothing can
// interrupt but ending the process (css-pool.ts). Answers are plain data that cross the process
// boundary; css.ts turns a refusal into 422 invalid_css.
import browserslist from "browserslist";
import { browserslistToTargets, bundleAsync, transform } from "lightningcss";
import { isStyleName } from "./names.ts";

/**
 * Which browsers the bundles are prefixed and lowered for (docs/styles.md): browserslist's
 * `defaults` (over 0.5% of use, the last two versions of each browser, Firefox ESR, none dead).
 */
export const BROWSERS_QUERY = "defaults";

const browsers = browserslist(BROWSERS_QUERY);
const targets = browserslistToTargets(browsers);

/**
 * What every bundle is made with besides its sources; part of each bundle's source key, so a
 * new browser list (browserslist's data updated) or a new format below makes the bundles again.
 */
const SETTINGS = `format 1; ${browsers.join(",")}`;

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

/** Why a stylesheet cannot be used, at a place: css.ts answers it as 422 invalid_css. */
export interface CssRefusal extends CssSpot {
  message: string;
  details: Record<string, unknown>;
}

/** What the worker is asked to do. */
export type CssJob =
  | { kind: "settings" }
  | { kind: "parse"; css: string }
  | { kind: "bundle"; name: string; sheets: ReadonlyMap<string, string>; media: ReadonlyMap<string, string> };

/** What each kind of job answers when it succeeds. */
export interface CssValues {
  settings: string;
  parse: ParsedStylesheet;
  bundle: string;
}

export type CssAnswer =
  | { ok: true; value: CssValues[CssJob["kind"]] }
  | { ok: false; refusal: CssRefusal }
  | { ok: false; error: string };

const MEDIA_SCHEME = "media:";

/** An import the browser fetches itself, left as an `@import` of the bundle: http(s) or protocol-relative. */
function isExternal(specifier: string): boolean {
  return /^(https?:)?\/\//i.test(specifier);
}

class Refused extends Error {
  constructor(readonly refusal: CssRefusal) {
    super(refusal.message);
  }
}

const refused = (message: string, spot: CssSpot, details: Record<string, unknown> = {}): CssRefusal => ({
  message,
  line: spot.line,
  column: spot.column,
  details,
});

/** A lightningcss failure as a refusal: its text and position (the start when it gives none); undefined for any other error. */
function refusalOf(
  error: unknown,
  details: (fileName: string | undefined) => Record<string, unknown>,
): CssRefusal | undefined {
  if (error instanceof Refused) return error.refusal;
  const { message, loc, fileName } = (error ?? {}) as {
    message?: unknown;
    loc?: { line?: unknown; column?: unknown };
    fileName?: unknown;
  };
  if (typeof message !== "string") return undefined;
  const line = typeof loc?.line === "number" ? loc.line : 1;
  const column = typeof loc?.column === "number" ? loc.column : 1;
  return refused(
    message,
    { line, column },
    details(typeof fileName === "string" && fileName !== "" ? fileName : undefined),
  );
}

/**
 * Parses one stylesheet as uploaded: refused at the parser's error, at an `@import` of anything
 * but a stylesheet name or an http(s) address, or at a `url(media:)` without a ref.
 */
function parse(css: string): ParsedStylesheet {
  const parsed: ParsedStylesheet = { imports: [], media: [] };
  // Collected, not thrown from the visitor: the visitor runs inside the parser.
  let refusal: CssRefusal | undefined;
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
            refusal ??= refused(
              `@import "${url}" names no stylesheet: import another stylesheet of the theme by its name (@import "reset"), or an http(s) address`,
              spot,
              { import: url },
            );
          }
          parsed.imports.push({ name: url, ...spot });
        },
      },
      Url(url) {
        if (!url.url.startsWith(MEDIA_SCHEME)) return;
        const ref = url.url.slice(MEDIA_SCHEME.length).trim();
        if (ref === "") refusal ??= refused("url(media:) names no media file: write url(media:<id or slug>)", url.loc);
        parsed.media.push({ ref, line: url.loc.line, column: url.loc.column });
      },
    },
  });
  if (refusal) throw new Refused(refusal);
  return parsed;
}

/**
 * The bundle of `name` as served: its imports inlined in their place (an import of a stylesheet
 * that is gone prints nothing), media refs as their addresses (a ref naming no file is left as
 * written), minified and prefixed. `sheets` holds the CSS of `name` and of what it imports.
 */
async function bundle(
  name: string,
  sheets: ReadonlyMap<string, string>,
  mediaUrls: ReadonlyMap<string, string>,
): Promise<string> {
  const { code } = await bundleAsync({
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
}

/** Runs one job; a refusal (of a bundle: naming the stylesheet it is in, `stylesheet`) and any other failure are answers too. */
export async function runCssJob(job: CssJob): Promise<CssAnswer> {
  try {
    if (job.kind === "settings") return { ok: true, value: SETTINGS };
    if (job.kind === "parse") return { ok: true, value: parse(job.css) };
    return { ok: true, value: await bundle(job.name, job.sheets, job.media) };
  } catch (error) {
    const refusal = refusalOf(error, (fileName) => (job.kind === "bundle" ? { stylesheet: fileName ?? job.name } : {}));
    if (refusal) return { ok: false, refusal };
    return { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}
