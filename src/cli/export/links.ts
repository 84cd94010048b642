// Where an exported file's links to the site point (docs/cli.md, "svc export-static"). An address
// is the site's own when it is root-relative (`/about/`) or absolute on the site's host or the
// service's (either scheme); every other value (another site, `mailto:`, `#top`, `contact/`) is
// left as written. An own address is written one of three ways:
// - root-relative (`/about/`), the default;
// - relative to the file (`../about/`), with --relative;
// - absolute on the base URL (`https://example.org/about/`), with --base-url.
// Some places want an absolute address whatever the mode (canonical and hreflang links, Open Graph
// tags, JSON-LD, sitemaps, feeds, robots.txt): they get the base URL, which without --base-url is
// the site's own origin as the service prints it. Pure.
import { posix } from "node:path";

export type LinkMode = "root" | "relative" | "absolute";

export interface Linking {
  mode: LinkMode;
  /** The site's origin as the service prints it (`https://example.org`). */
  siteOrigin: string;
  /** Hosts whose addresses are the site's own: the site's, and the service's. */
  hosts: ReadonlySet<string>;
  /** What absolute addresses start with, without a trailing slash: --base-url, else the site's origin. */
  base: string;
}

/** How a link is written: as the mode says, always absolute, or root-relative (a 404 page answers at any depth). */
export type LinkForm = "mode" | "absolute" | "root";

export interface OwnAddress {
  /** The path as printed (percent-encoded), starting with `/`. */
  path: string;
  /** The query and fragment, as printed. */
  rest: string;
}

/** The path of the base URL (`/docs` for `https://example.org/docs`), "" for an origin. */
function basePath(linking: Linking): string {
  return new URL(`${linking.base}/`).pathname.replace(/\/$/, "");
}

/** The site's own address a link names, or null when it names something else. */
export function ownAddress(value: string, linking: Linking): OwnAddress | null {
  const text = value.trim();
  if (text === "") return null;
  const rootRelative = text.startsWith("/") && !text.startsWith("//");
  if (!rootRelative && !/^(https?:)?\/\//i.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text, `${linking.siteOrigin}/`);
  } catch {
    return null;
  }
  if (!/^https?:$/.test(url.protocol) || !linking.hosts.has(url.host.toLowerCase())) return null;
  return { path: url.pathname, rest: `${url.search}${url.hash}` };
}

/** `to` relative to the file at `from` (both paths on the site): `../about/`, `./`, `main.css`. */
export function relativePath(from: string, to: string): string {
  const dir = from.endsWith("/") ? from : from.slice(0, from.lastIndexOf("/") + 1);
  let relative = posix.relative(dir, to);
  if (to.endsWith("/") && relative !== "" && !relative.endsWith("/")) relative += "/";
  if (relative === "") return to.endsWith("/") ? "./" : posix.basename(to);
  // A first segment with a colon would read as a scheme.
  return /^[^/]*:/.test(relative) ? `./${relative}` : relative;
}

/** An own address written for the file at `document` (a site path), in the form asked for. */
export function writeAddress(address: OwnAddress, document: string, linking: Linking, form: LinkForm = "mode"): string {
  if (form === "absolute" || (form === "mode" && linking.mode === "absolute"))
    return `${linking.base}${address.path}${address.rest}`;
  // Root-relative under the base URL's own path, when it has one (`/docs/about/`).
  if (form === "root" || linking.mode === "root") return `${basePath(linking)}${address.path}${address.rest}`;
  return `${relativePath(document, address.path)}${address.rest}`;
}

/** The link `value` rewritten for the file at `document`; null when it is not the site's own. */
export function rewriteLink(value: string, document: string, linking: Linking, form: LinkForm = "mode"): string | null {
  const address = ownAddress(value, linking);
  return address ? writeAddress(address, document, linking, form) : null;
}

/** Service addresses a static host cannot answer: never fetched, reported where pages use them. */
export function isServiceEndpoint(path: string): boolean {
  return /^\/(_|api\/|admin\/)/.test(path);
}
