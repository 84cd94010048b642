// Everything `svc dev` does not render itself (docs/cli.md, "svc dev"): media, stylesheet bundles,
// feed.xml, sitemap.xml, robots.txt, lists' pages, the site's 404 — asked of the service's public
// site with the site's host name, as a visitor would ask it, and answered as the service answers.
// Only GET and HEAD are sent on (nothing is written); HTML answers get the reload script and the
// dev server's origin in their links (inject.ts), and redirects to the site's origin point at the
// dev server.
import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import { injectDev } from "./inject.ts";

export interface ProxyTarget {
  /** The service's address (`--url`). */
  serviceUrl: string;
  /** The site's public origin (`http://example.org`), whose host name the service answers the site on. */
  siteOrigin: string;
  devOrigin: string;
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "host", "accept-encoding"]);

/**
 * Whether the service answered with a move to the same address on the site's https origin: the
 * browser would be sent back here for it, again and again (secure-front.ts redirects plain HTTP).
 */
function upgradedHere(target: ProxyTarget, path: string, answer: IncomingMessage): boolean {
  const status = answer.statusCode ?? 0;
  if ((status !== 301 && status !== 308) || !target.siteOrigin.startsWith("https:")) return false;
  return answer.headers.location === `${target.siteOrigin.replace(/\/+$/, "")}${path}`;
}

export function proxyRequest(target: ProxyTarget, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", `${target.serviceUrl.replace(/\/+$/, "")}/`);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  headers.host = target.siteOrigin ? new URL(target.siteOrigin).host : url.host;
  // svc dev stands where the site's TLS proxy stands: a service that trusts this machine
  // (SVC_TRUST_PROXY) then answers an https site here instead of sending it to https.
  if (target.siteOrigin) headers["x-forwarded-proto"] = new URL(target.siteOrigin).protocol.slice(0, -1);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const upstream = send(url, { method: req.method, headers, servername: url.hostname } as never, (answer) => {
    if (upgradedHere(target, req.url ?? "/", answer)) {
      answer.resume();
      res.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
      res.end(
        `svc dev: ${target.serviceUrl} sends ${target.siteOrigin} to https and does not trust this machine's ` +
          "X-Forwarded-Proto. Point --url at the TLS proxy in front of it, or add this machine's address to " +
          "the service's SVC_TRUST_PROXY.\n",
      );
      return;
    }
    const out: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined && !HOP_BY_HOP.has(name) && name !== "content-length") out[name] = value;
    if (typeof out.location === "string" && target.siteOrigin && out.location.startsWith(target.siteOrigin))
      out.location = target.devOrigin + out.location.slice(target.siteOrigin.length);
    const html = String(answer.headers["content-type"] ?? "").startsWith("text/html");
    if (!html || req.method === "HEAD") {
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
      return;
    }
    const chunks: Buffer[] = [];
    answer.on("data", (chunk: Buffer) => chunks.push(chunk));
    answer.on("end", () => {
      delete out.etag;
      const body = injectDev(Buffer.concat(chunks).toString("utf8"), target.siteOrigin, target.devOrigin, "");
      res.writeHead(answer.statusCode ?? 502, out);
      res.end(body);
    });
  });
  upstream.on("error", (error) => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
    res.end(`svc dev: cannot reach ${target.serviceUrl} (${error.message})\n`);
  });
  upstream.end();
}
