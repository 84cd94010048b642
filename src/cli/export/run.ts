// `svc export-static` from start to end (docs/cli.md): what to ask for, the crawl, the files the
// export makes itself (404 pages, `_redirects`), then only the files whose bytes changed written
// and the files of the last export that are no longer there deleted, and the manifest.
import { createHash } from "node:crypto";
import { listAll, type Api, type Rec } from "../api.ts";
import type { SiteFacts } from "../files.ts";
import { Crawl, type Entry, type Missing } from "./crawl.ts";
import { ownAddress, type Linking } from "./links.ts";
import { readManifest, removeOut, standsAsRecorded, writeManifest, writeOut, type Manifest } from "./manifest.ts";
import type { PublicSite } from "./public-get.ts";
import { redirectsFile, siteRedirects } from "./redirects-file.ts";
import { eventsAfter, refetchOf } from "./since.ts";

/** An address no page can have (page slugs hold no `_`): what it answers is the site's 404 page. */
const NOT_FOUND = "__svc_export_404__/";
const FIXED = ["/sitemap.xml", "/robots.txt"];

export interface ExportOptions {
  out: string;
  site: number;
  serviceUrl: string;
  linking: Linking;
  since: number | null;
  onProgress?: (done: number, total: number) => void;
  onWait?: (seconds: number, why: string) => void;
}

export interface ExportSummary {
  written: string[];
  unchanged: string[];
  deleted: string[];
  missing: Missing[];
  /** Redirects `_redirects` cannot hold (a query string). */
  skippedRedirects: string[];
  /** The service's endpoints pages send visitors to, with those pages' files. */
  endpoints: Array<{ path: string; files: string[] }>;
  /** Every page fetched (no --since, or a write of the site's whole since then). */
  everything: boolean;
  lastEvent: number | null;
}

interface Roots {
  pages: string[];
  media: string[];
}

async function rootsOf(api: Api, facts: SiteFacts, linking: Linking): Promise<Roots> {
  const [pages, media] = await Promise.all([
    listAll(api, (page) => api.site.GET("/pages", { params: { query: { per_page: 500, page } } }), "pages"),
    listAll(api, (page) => api.site.GET("/media", { params: { query: { per_page: 500, page } } }), "media"),
  ]);
  const homes = ["/", ...facts.languages.filter((lang) => lang !== facts.defaultLang).map((lang) => `/${lang}/`)];
  const pagePaths = pages
    .filter((page) => page.status === "publish")
    .map((page) => ownAddress(String(page.url ?? ""), linking)?.path)
    .filter((path): path is string => path !== undefined);
  const mediaPaths = media.flatMap((file: Rec) => [
    String(file.url),
    ...((Array.isArray(file.variants) ? file.variants : []) as Rec[]).map((variant) => String(variant.url)),
  ]);
  return {
    pages: [...new Set([...homes, ...pagePaths])],
    media: mediaPaths.map((url) => ownAddress(url, linking)?.path).filter((path): path is string => !!path),
  };
}

function sameExport(previous: Manifest | null, options: ExportOptions): previous is Manifest {
  return (
    previous !== null &&
    previous.site === options.site &&
    previous.service === options.serviceUrl &&
    previous.links.mode === options.linking.mode &&
    previous.links.base === options.linking.base
  );
}

/** A list's further page (`/news/page/2/`) or feed (`/news/feed.xml`) of one of the pages named. */
function listOrFeedOf(key: string, named: ReadonlySet<string>): boolean {
  for (const page of named)
    if (page.endsWith("/") && key.startsWith(page) && /^(page\/\d+\/|feed\.xml)$/.test(key.slice(page.length)))
      return true;
  return false;
}

/** Keeps what pages, media and the fixed files lead to; drops what nothing links to any more. */
function reachable(entries: Map<string, Entry>, roots: Iterable<string>): Map<string, Entry> {
  const kept = new Map<string, Entry>();
  const stack = [...roots, ...[...entries].filter(([, entry]) => entry.page).map(([key]) => key)];
  while (stack.length > 0) {
    const key = stack.pop()!;
    const entry = entries.get(key);
    if (!entry || kept.has(key)) continue;
    kept.set(key, entry);
    stack.push(...entry.links);
  }
  return kept;
}

export async function exportStatic(api: Api, facts: SiteFacts, options: ExportOptions): Promise<ExportSummary> {
  const { out, linking } = options;
  const previous = readManifest(out);
  const incremental = options.since !== null && sameExport(previous, options);
  const from = options.since ?? (sameExport(previous, options) ? previous.last_event : null) ?? 0;
  const events = await eventsAfter(api, from).catch((error) => {
    if (options.since !== null) throw error;
    return null; // an editor's token reads no events: the export still works, without a last event
  });
  const refetch = incremental && events ? refetchOf(events.events, linking) : null;
  const everything = refetch === null || refetch.everything;
  const roots = await rootsOf(api, facts, linking);

  const kept = new Map<string, Entry>();
  if (!everything && previous)
    for (const [key, entry] of Object.entries(previous.files)) if (key.startsWith("/")) kept.set(key, entry);
  const site: PublicSite = {
    serviceUrl: options.serviceUrl,
    host: new URL(linking.siteOrigin).host,
    onWait: options.onWait,
  };
  const crawl = new Crawl(site, linking, out, previous?.files ?? {}, kept, options.onProgress);

  for (const address of [...roots.pages, ...roots.media]) crawl.follow(address, null);
  for (const address of FIXED) crawl.ask(address);
  if (everything) for (const address of roots.pages) crawl.ask(address);
  else {
    for (const address of refetch!.addresses) crawl.ask(address);
    for (const [key, entry] of kept) {
      if (listOrFeedOf(key, refetch!.addresses) || /^\/sitemap(-\d+)?\.xml$/.test(key) || !standsAsRecorded(out, entry))
        crawl.ask(key);
    }
  }

  // The site's 404 page, at the top and in each other language (Cloudflare Pages serves the nearest one).
  const root404 = await crawl.special("404.html", `/${NOT_FOUND}`, "404.html", "root");
  for (const lang of facts.languages.filter((code) => code !== facts.defaultLang)) {
    const bytes = await crawl.special(`${lang}/404.html`, `/${lang}/${NOT_FOUND}`, `${lang}/404.html`, "root");
    if (bytes && root404 && bytes.equals(root404)) crawl.entries.delete(`${lang}/404.html`);
  }
  await crawl.run();

  // The redirects the crawl met, with those of the last export it did not ask again (--since asks
  // only what changed), in address order: the same site makes the same `_redirects`.
  const crawled = [
    ...crawl.redirects.filter((answer) => !answer.from.includes("?")),
    ...(everything ? [] : (previous?.crawled_redirects ?? []).filter((line) => !crawl.wasAsked(line.from))),
  ].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const redirects = redirectsFile([...(await siteRedirects(api)), ...crawled], linking);
  const redirectBytes = Buffer.from(redirects.text, "utf8");
  const fixedKeys = [...FIXED, ...[...crawl.entries.keys()].filter((key) => !key.startsWith("/"))];
  const entries = reachable(crawl.entries, [...fixedKeys, ...roots.media]);
  entries.set("_redirects", {
    file: "_redirects",
    sha256: createHash("sha256").update(redirectBytes).digest("hex"),
    bytes: redirectBytes.length,
    links: [],
    endpoints: [],
    page: false,
    content: redirectBytes,
  });

  const summary: ExportSummary = {
    written: [],
    unchanged: [],
    deleted: [],
    missing: crawl.missing.filter((missing) => !entries.has(missing.address)),
    skippedRedirects: redirects.skipped,
    endpoints: [],
    everything,
    lastEvent: events?.last ?? null,
  };
  for (const [key, entry] of entries) {
    const before = previous?.files[key];
    const same = before && before.file === entry.file && before.sha256 === entry.sha256;
    if (entry.content === undefined || (same && standsAsRecorded(out, before))) summary.unchanged.push(entry.file);
    else {
      writeOut(out, entry.file, entry.content);
      summary.written.push(entry.file);
    }
  }
  const files = new Set([...entries.values()].map((entry) => entry.file));
  for (const before of Object.values(previous?.files ?? {}))
    if (!files.has(before.file) && !summary.deleted.includes(before.file)) {
      removeOut(out, before.file);
      summary.deleted.push(before.file);
    }
  const endpoints = new Map<string, string[]>();
  for (const entry of entries.values())
    for (const path of entry.endpoints) endpoints.set(path, [...(endpoints.get(path) ?? []), entry.file]);
  summary.endpoints = [...endpoints].map(([path, files]) => ({ path, files: files.sort() }));
  for (const list of [summary.written, summary.unchanged, summary.deleted]) list.sort();

  writeManifest(out, {
    service: options.serviceUrl,
    site: options.site,
    links: { mode: linking.mode, base: linking.base },
    last_event: summary.lastEvent,
    files: Object.fromEntries([...entries].map(([key, { content: _content, ...entry }]) => [key, entry])),
    crawled_redirects: crawled.map(({ from, to, status }) => ({ from, to, status })),
  });
  return summary;
}
