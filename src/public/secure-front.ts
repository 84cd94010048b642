// The first step of every request, before the public site's answers from memory, the kept API
// reads and Fastify (docs/domains.md, "Schemes"; docs/deploy.md, "TLS in front"):
// - an answer over HTTPS (a trusted proxy's X-Forwarded-Proto: https) carries
//   Strict-Transport-Security when SVC_HSTS_MAX_AGE is set;
// - a plain-HTTP request (no trusted proxy, or one saying `http`) on the primary domain of a site
//   whose scheme is https answers 301 to its https address (308 for other methods than GET and
//   HEAD), before any page, file or form is answered there. The service's own paths (`/api/…`,
//   `/healthz`) answer on either scheme: API clients and health checks are pointed where the
//   operator says (SVC_API_URL), and a redirect would turn a POST into a GET. An alias redirects to
//   the primary's address (already https) on its own; a host of no site is left as it is.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { PublicFront } from "../config.ts";
import { isServicePath } from "../http/bodies.ts";
import { requestHost, requestScheme, type ProxyTrust } from "../http/forwarded.ts";
import { writeRawAnswer } from "../http/raw-answer.ts";
import type { RequestLines } from "../http/request-line.ts";
import type { SiteDirectory } from "../publish/site-directory.ts";
import { hostOf, schemeOf, siteOrigin } from "../site/addresses.ts";
import type { SiteRow } from "../site/sites.ts";
import { movedToOrigin } from "./alias-redirect.ts";

export interface SecureFrontOptions {
  directory: SiteDirectory;
  front: PublicFront;
  /** SVC_TRUST_PROXY's trust (http/forwarded.ts); null: the service is reached directly. */
  trust: ProxyTrust | null;
  /** SVC_HSTS_MAX_AGE, in seconds; 0: no Strict-Transport-Security. */
  hstsMaxAge: number;
  /** The request line of each redirect answered here (http/request-line.ts). */
  lines: RequestLines;
  /** Fastify's logger, for a failed host lookup (the request then goes on). */
  log: { error(object: unknown, message: string): void };
}

/** A request goes on to the next step by calling `next`, or is answered here. */
export type SecureFront = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export function secureFront(options: SecureFrontOptions): SecureFront {
  const { directory, front, trust, lines } = options;
  const hsts = options.hstsMaxAge > 0 ? `max-age=${options.hstsMaxAge}` : null;

  /** Whether the request, on `host` and plain HTTP, is for a site's https primary domain. */
  const upgrades = (site: SiteRow | undefined, host: string) =>
    site !== undefined && site.domain === host && schemeOf(site.https, front) === "https";

  const redirect = (req: IncomingMessage, res: ServerResponse, site: SiteRow) => {
    const status = req.method === "GET" || req.method === "HEAD" ? 301 : 308;
    const answer = movedToOrigin(siteOrigin(site, front), req.url ?? "/", status);
    writeRawAnswer(req, res, answer, { lines, siteId: site.id, userId: null, route: null, started: performance.now() });
  };

  return (req, res, next) => {
    if (requestScheme(req, trust) === "https") {
      if (hsts !== null) res.setHeader("strict-transport-security", hsts);
      return next();
    }
    const url = req.url ?? "/";
    if (isServicePath(url)) return next();
    const host = hostOf(requestHost(req, trust));
    const known = directory.peek(host);
    if (known !== undefined) return upgrades(known, host) ? redirect(req, res, known) : next();
    directory.match(host).then(
      (matched) => (upgrades(matched?.site, host) ? redirect(req, res, matched!.site) : next()),
      (error: unknown) => {
        options.log.error({ err: error }, "host lookup");
        next();
      },
    );
  };
}
