// Shared by the effect tests (test/publish/effects-*.test.ts): the effect table of
// docs/publishing.md, row by row, over real sockets. Each public address is fetched twice before
// the write (so it sits in the static copy table and in memory), the write is made, and the very
// next request of every address the row names shows the new content. On SQLite one process
// serves both; under `npm run test:pg` two processes share the database, the write goes through
// one and the reads through the other.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { call, SITE, startCluster, type Cluster, type Reply } from "../cluster/helpers.ts";
import { testServerUrl } from "../support/database.ts";

export { SITE, type Reply };

export const processes = testServerUrl ? 2 : 1;

/** The name of a group's describe: what it checks, and on what. */
export const suite = (group: string) =>
  `${group}: every write reaches the public site on the next request (${processes === 2 ? "PostgreSQL, two processes" : "SQLite"})`;

/** A `data-op-bind` attribute binding one target to one token. */
export const bind = (target: string, token: string) => `data-op-bind='{"${target}": "${token}"}'`;

/** The titles of the links a page prints (menus, page lists), in order. */
export const linkTitles = (html: string) => [...html.matchAll(/<a href="[^"]*"[^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);

/** The hrefs of the links a page prints, in order. */
export const linkUrls = (html: string) => [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);

/** The answer's body, after checking its status. */
export function ok(reply: Reply, what: string, status = 200): any {
  assert.equal(reply.status, status, `${what}: ${reply.status} ${reply.text.slice(0, 400)}`);
  return reply.body;
}

/** A 404 of the public site, with the reason it gives. */
export function gone(reply: Reply, what: string, reason?: string): void {
  assert.equal(reply.status, 404, `${what}: ${reply.status} ${reply.text.slice(0, 200)}`);
  if (reason) assert.equal(reply.headers["x-svc-reason"], reason, `${what}: reason`);
}

/** A redirect of the public site (docs/seo.md): its status and its Location (a site path, as redirects send it). */
export function redirected(reply: Reply, what: string, location: string, status = 301): void {
  assert.equal(reply.status, status, `${what}: ${reply.status} ${reply.text.slice(0, 200)}`);
  assert.equal(reply.headers.location, location, `${what}: Location`);
}

/** A 200 of the public site served as `printed` (static, on_request, cache). */
export function served(reply: Reply, what: string, printed?: string): string {
  assert.equal(reply.status, 200, `${what}: ${reply.status} ${reply.text.slice(0, 200)}`);
  if (printed) assert.equal(reply.headers["x-svc-printed"], printed, `${what}: X-Svc-Printed`);
  return reply.text;
}

export interface Effects {
  readonly cluster: Cluster;
  /** A call through the writing process: site-scoped paths go to site 1, or to `site` when given. */
  api(method: string, path: string, body?: unknown, site?: number): Promise<Reply>;
  /** A public GET through the reading process. */
  visit(path: string, host?: string): Promise<Reply>;
  /** Fetched twice, so the address is in the static copy table and in memory; answers the second. */
  primed(path: string, host?: string): Promise<Reply>;
  /** A published page on a frame; answers its id. */
  page(slug: string, frame: string | null, extra?: Record<string, unknown>, site?: number): Promise<number>;
  frame(slug: string, html: string, site?: number): Promise<void>;
  /** A frame, a published page on it at `/<slug>-page/` and that page fetched twice; answers its address. */
  shown(slug: string, html: string): Promise<string>;
  /** A new site on `domain`; answers its id. */
  site(name: string, domain: string): Promise<number>;
}

/**
 * Starts the cluster of a group (inside its describe: before and after are registered there)
 * with one process on SQLite, two on PostgreSQL.
 */
export function effects(env: Record<string, string> = {}): Effects {
  let cluster: Cluster;
  let writer: number;
  let reader: number;
  before(async () => {
    cluster = await startCluster(processes, { SVC_RATE_LIMIT_PER_MIN: "100000", ...env });
    writer = cluster.processes[0].port;
    reader = cluster.processes[processes - 1].port;
  });
  after(() => cluster?.close());

  const api = (method: string, path: string, body?: unknown, site?: number) =>
    call(
      writer,
      method,
      path.startsWith("/api/") ? path : `${site === undefined ? SITE : `/api/site/${site}`}${path}`,
      { token: cluster.token, body },
    );
  // With the administrator's token, so a 404 says why (X-Svc-Reason; test/security/leaks.test.ts).
  const visit = (path: string, host = "localhost") => call(reader, "GET", path, { host, token: cluster.token });
  return {
    get cluster() {
      return cluster;
    },
    api,
    visit,
    async primed(path, host = "localhost") {
      await visit(path, host);
      const second = await visit(path, host);
      assert.equal(second.status, 200, `${path} before the write: ${second.status}`);
      return second;
    },
    async page(slug, frame, extra = {}, site) {
      return ok(
        await api("POST", "/pages", { title: slug, slug, status: "publish", frame, ...extra }, site),
        `page ${slug}`,
        201,
      ).page.id;
    },
    async frame(slug, html, site) {
      ok(await api("POST", "/frames", { slug, html }, site), `frame ${slug}`, 201);
    },
    async shown(slug, html) {
      await this.frame(slug, html);
      await this.page(`${slug}-page`, slug);
      await this.primed(`/${slug}-page/`);
      return `/${slug}-page/`;
    },
    async site(name, domain) {
      return ok(await api("POST", "/api/sites", { name, domain }), `site ${domain}`, 201).site.id;
    },
  };
}
