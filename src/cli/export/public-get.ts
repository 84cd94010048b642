// A public address of the site asked of the service as a visitor asks it: from the service's
// address (--url) with the site's host name, so an export works before the site's domain points
// at the service, and without the token (a page is what anyone reads). Redirects are answers, not
// followed. A 429 or 503 with Retry-After is waited out (told on stderr) and asked again.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

const TIMEOUT_MS = 30_000;
const MAX_RETRIES = 5;
const MAX_WAIT_S = 60;

export interface PublicAnswer {
  status: number;
  type: string;
  location: string | null;
  body: Buffer;
}

export interface PublicSite {
  serviceUrl: string;
  /** The site's host name (`example.org`), sent as Host. */
  host: string;
  onWait?: (seconds: number, why: string) => void;
}

function once(site: PublicSite, path: string): Promise<PublicAnswer & { retryAfter: string | null }> {
  const url = new URL(path, `${site.serviceUrl.replace(/\/+$/, "")}/`);
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        headers: { host: site.host, "user-agent": "svc-cli export-static", "accept-encoding": "identity" },
        servername: url.hostname,
        timeout: TIMEOUT_MS,
      } as never,
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const header = (name: string) => {
            const value = res.headers[name];
            return typeof value === "string" ? value : null;
          };
          resolve({
            status: res.statusCode ?? 0,
            type: header("content-type") ?? "",
            location: header("location"),
            retryAfter: header("retry-after"),
            body: Buffer.concat(chunks),
          });
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error(`GET ${path} timed out`)));
    req.on("error", reject);
    req.end();
  });
}

export async function getPublic(site: PublicSite, path: string): Promise<PublicAnswer> {
  for (let attempt = 0; ; attempt++) {
    const { retryAfter, ...answer } = await once(site, path);
    const busy = answer.status === 429 || answer.status === 503;
    if (!busy || retryAfter === null || attempt >= MAX_RETRIES) return answer;
    const seconds = Math.min(MAX_WAIT_S, Math.max(1, Number(retryAfter) || 1));
    site.onWait?.(seconds, answer.status === 429 ? "rate limit" : "service busy");
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}
