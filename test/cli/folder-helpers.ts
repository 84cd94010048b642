// What the tests of the folder's kinds share: calls to a site that must succeed, a site of its own
// per test (so a push into an empty site is a push into a new one), and a public page asked with
// the site's host name.
import assert from "node:assert/strict";
import { request } from "node:http";
import type { Served } from "./harness.ts";

/** A call to site `site` that must answer 2xx; its body. */
export async function must(t: Served, site: number, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await t.api(method, path.startsWith("/api/") ? path : `/api/site/${site}${path}`, body);
  assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

let made = 0;

/** A new empty site; its id and its domain. */
export async function newSite(t: Served, name = "Site"): Promise<{ id: number; domain: string }> {
  const domain = `s${process.pid}-${++made}-${Date.now() % 100000}.localhost`;
  const answer = await must(t, 0, "POST", "/api/sites", { name, domain });
  return { id: Number(answer.site.id), domain };
}

/** A public address of a site, asked of the service with the site's host name. */
export function publicPage(
  t: Served,
  host: string,
  path: string,
): Promise<{ status: number; text: string; type: string; location: string }> {
  const url = new URL(path, t.url);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          text,
          type: String(res.headers["content-type"] ?? ""),
          location: String(res.headers.location ?? ""),
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

/** svc with the site given (`--site n`). */
export function svcSite(t: Served, site: number, args: string[]) {
  return t.svc([...args, "--site", String(site)]);
}

/** Uploads a file to a site's media; its record. */
export async function upload(t: Served, site: number, filename: string, type: string, body: string): Promise<any> {
  const answer = await fetch(`${t.url}/api/site/${site}/media?filename=${encodeURIComponent(filename)}`, {
    method: "POST",
    headers: { authorization: `Bearer ${t.token}`, "content-type": type },
    body,
  });
  const json = await answer.json();
  assert.equal(answer.status, 201, JSON.stringify(json));
  return json.media;
}
