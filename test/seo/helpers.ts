// Shared by the SEO tests: a test app, a fresh site on its own domain (optionally bilingual, en
// default and de), and calls on it, site-scoped and public (with the site's Host).
import assert from "node:assert/strict";
import { startTestApp, type Answer, type TestApp } from "../support/app.ts";

export interface SeoSite {
  id: number;
  name: string;
  host: string;
  /** `http://<host>:8080`: where absolute addresses point (the test app's public port). */
  origin: string;
  api(method: string, path: string, body?: unknown): Promise<Answer>;
  /** A public GET on the site's domain. */
  visit(path: string, headers?: Record<string, string>): Promise<Answer>;
  frame(slug: string, html: string): Promise<void>;
  /** A published page on a frame (or none); answers its id. */
  page(title: string, frame: string | null, extra?: Record<string, unknown>): Promise<number>;
}

let sites = 0;

export function ok(answer: Answer, what: string, status = 200): any {
  assert.equal(answer.status, status, `${what}: ${answer.status} ${answer.text.slice(0, 400)}`);
  return answer.body;
}

export async function seoSite(t: TestApp, options: { languages?: boolean } = {}): Promise<SeoSite> {
  const host = `seo${++sites}-${process.pid}.localhost`;
  const name = `Acme ${sites}`;
  const created = ok(await t.call("POST", "/api/sites", { body: { name, domain: host } }), "site", 201);
  const id = created.site.id as number;
  const api = (method: string, path: string, body?: unknown) =>
    t.call(method, `/api/site/${id}${path}`, body === undefined ? {} : { body });
  const site: SeoSite = {
    id,
    name,
    host,
    origin: `http://${host}:${t.config.port}`,
    api,
    visit: (path, headers = {}) => t.call("GET", path, { token: null, headers: { host, ...headers } }),
    async frame(slug, html) {
      ok(await api("POST", "/frames", { slug, html }), `frame ${slug}`, 201);
    },
    async page(title, frame, extra = {}) {
      const body = ok(
        await api("POST", "/pages", { title, status: "publish", ...(frame ? { frame } : {}), ...extra }),
        `page ${title}`,
        201,
      );
      return body.page.id as number;
    },
  };
  if (options.languages) {
    for (const code of ["en", "de"]) ok(await api("POST", "/languages", { code }), `language ${code}`, 201);
  }
  return site;
}

export { startTestApp };
