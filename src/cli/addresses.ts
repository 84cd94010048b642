// The public addresses a push changed, as they answer after it (docs/cli.md, "changed: lines").
// A write's `rebaked` report names what it flushed, and that is more than pages a visitor reads:
// cache keys (`/404:en`), a language's prefix that redirects (`/en/`), the home page's own path
// (`/home/`, which redirects to `/`). Each is asked once with HEAD, as media are downloaded: from
// the service's address with the site's host name (remote.ts `download`), so it works where the
// API is reachable even before the site's domain resolves. 200 is a changed page; a redirect is
// shown `from → to`; anything else is left out. At most MAX_CHECKED are asked, 4 at a time.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { eachLimited } from "./api.ts";

export const MAX_CHECKED = 200;
const TIMEOUT_MS = 10_000;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface Redirect {
  from: string;
  to: string;
}

export interface Answered {
  /** Addresses that answer 200. */
  changed: string[];
  redirects: Redirect[];
  /** Addresses not asked (past MAX_CHECKED) or that could not be asked (the service unreachable). */
  unchecked: string[];
}

interface Probe {
  status: number;
  location: string | null;
}

/** HEAD of a public address, asked of the service with the address's host name. */
function head(serviceUrl: string, address: string): Promise<Probe> {
  const target = new URL(address);
  const url = new URL(`${target.pathname}${target.search}`, `${serviceUrl.replace(/\/+$/, "")}/`);
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "HEAD",
        headers: { host: target.host, "user-agent": "svc-cli" },
        servername: url.hostname,
        timeout: TIMEOUT_MS,
      } as never,
      (res) => {
        res.resume();
        const location = res.headers.location;
        resolve({ status: res.statusCode ?? 0, location: typeof location === "string" ? location : null });
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end();
  });
}

/** Sorts `urls` (absolute public addresses) by how they answer now. */
export async function answeringAddresses(serviceUrl: string, urls: readonly string[]): Promise<Answered> {
  const asked = urls.slice(0, MAX_CHECKED);
  const answered: Answered = { changed: [], redirects: [], unchecked: urls.slice(MAX_CHECKED) };
  const probes = await eachLimited(asked, 4, async (address) => {
    try {
      return await head(serviceUrl, address);
    } catch {
      return null;
    }
  });
  asked.forEach((address, index) => {
    const probe = probes[index];
    if (probe === null) answered.unchecked.push(address);
    else if (probe.status === 200) answered.changed.push(address);
    else if (REDIRECTS.has(probe.status) && probe.location)
      answered.redirects.push({ from: address, to: new URL(probe.location, address).href });
  });
  return answered;
}
