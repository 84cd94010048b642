// Public answers of a site in a running service, as bytes (node:http, so any Host header), and the
// addresses of the site's own origin a page, feed, sitemap or stylesheet names.
import { request } from "node:http";

export interface PublicAnswer {
  status: number;
  type: string;
  location: string;
  body: Buffer;
}

/** GET `path` of the site at `host`, from the service listening on `port`. */
export function publicAnswer(port: number, host: string, path: string): Promise<PublicAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { host }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers["content-type"] ?? ""),
          location: String(res.headers.location ?? ""),
          body: Buffer.concat(chunks),
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** Whether an answer of this type is text (compared after its domain is replaced) rather than bytes. */
export const isText = (type: string) => /^text\/|xml|json|javascript/.test(type);

const NAMED = [
  /\s(?:href|src|action)="([^"]*)"/g,
  // A meta tag's content is an address only when it is written as one (og:url, og:image).
  /\scontent="((?:https?:\/\/|\/)[^"]*)"/g,
  /<loc>([^<]*)<\/loc>/g,
  /url\(\s*['"]?([^'")]+)['"]?\s*\)/g,
  /^(?:Sitemap|Allow|Disallow):\s*(\S+)/gm,
];

/** The addresses on `origin` that `text` (found at `base`) names, as path and query. */
export function addressesIn(text: string, base: string, origin: string): string[] {
  const values: string[] = [];
  for (const pattern of NAMED) for (const match of text.matchAll(pattern)) values.push(match[1]);
  for (const match of text.matchAll(/\ssrcset="([^"]*)"/g))
    for (const candidate of match[1].split(",")) values.push(candidate.trim().split(/\s+/)[0]);
  const out = new Set<string>();
  for (const value of values) {
    let url: URL;
    try {
      url = new URL(value.replaceAll("&amp;", "&"), base);
    } catch {
      continue;
    }
    if (url.origin === origin) out.add(`${url.pathname}${url.search}`);
  }
  return [...out];
}
