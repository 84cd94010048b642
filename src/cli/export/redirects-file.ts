// `_redirects` (Netlify's and Cloudflare Pages' format, docs/cli.md "svc export-static"): one
// `<from> <to> <status>` line per redirect of the site (GET /seo/redirects, automatic ones
// included), then the addresses the service answers with a redirect of its own that a page list
// names (a home page's own path, which goes to `/`). A target on the site is written
// root-relative (under the base URL's path); one elsewhere as it is. A redirect of one query
// string (`/?page_id=12`) has no line: those formats match paths only; it is reported instead.
import { data, type Api, type Rec } from "../api.ts";
import { ownAddress, writeAddress, type Linking } from "./links.ts";

export interface RedirectLine {
  from: string;
  to: string;
  status: number;
}

export interface RedirectsFile {
  text: string;
  /** Redirects left out: their `from` holds a query string. */
  skipped: string[];
}

export async function siteRedirects(api: Api): Promise<RedirectLine[]> {
  const answer = await data(api, api.site.GET("/seo/redirects", {}));
  return ((answer.redirects ?? []) as Rec[]).map((redirect) => ({
    from: String(redirect.from),
    to: String(redirect.to),
    status: Number(redirect.status),
  }));
}

export function redirectsFile(redirects: readonly RedirectLine[], linking: Linking): RedirectsFile {
  const lines: string[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const redirect of redirects) {
    if (redirect.from.includes("?")) {
      skipped.push(redirect.from);
      continue;
    }
    if (seen.has(redirect.from)) continue;
    seen.add(redirect.from);
    const from = writeAddress({ path: redirect.from, rest: "" }, "/", linking, "root");
    const own = ownAddress(redirect.to, linking);
    const to = own ? writeAddress(own, "/", linking, "root") : redirect.to;
    lines.push(`${from} ${to} ${redirect.status}`);
  }
  return { text: lines.map((line) => `${line}\n`).join(""), skipped };
}
