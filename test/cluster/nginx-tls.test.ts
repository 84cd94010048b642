// docs/nginx-tls.conf.example (docs/deploy.md, "TLS in front"), as shipped (its ports and
// certificate paths changed), with a self-signed certificate made here, in front of the built
// service started with SVC_PUBLIC_SCHEME=https and SVC_TRUST_PROXY=127.0.0.1. A site with a menu,
// translations (hreflang), a paged list, a feed, a redirect, an alias and a preview link is crawled
// over HTTPS from its home page, sitemap, feed and robots.txt: every address it prints (pages,
// sitemap, feed, Location and Link headers, API answers) is https:// without a port, and no
// http:// address of the site appears anywhere. Needs nginx (Debian's nginx-light) and openssl;
// skipped without them. One process on SQLite (two on PostgreSQL under `npm run test:pg`).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, replyOf, startCluster, type Cluster, type Reply } from "./helpers.ts";
import { testServerUrl } from "../support/database.ts";
import { findNginx, mainConfig, runNginxServing, type RunningNginx } from "../support/nginx.ts";
import { freePort } from "../support/ports.ts";

const EXAMPLE = new URL("../../docs/nginx-tls.conf.example", import.meta.url).pathname;
const DOMAIN = "shop.example.test";
const ALIAS = `www.${DOMAIN}`;

const nginx = findNginx();
const hasOpenssl = !spawnSync("openssl", ["version"], { stdio: "ignore" }).error;
const skip = !nginx ? "nginx is not installed (apt-get install nginx-light)" : !hasOpenssl ? "needs openssl" : false;

/** The example with this test's ports and certificate: plain HTTP on `plain`, TLS on `tls`. */
function renderExample(text: string, ports: { plain: number; tls: number; upstreams: number[] }, dir: string): string {
  const servers = /^(\s*)server 127\.0\.0\.1:\d+( [^;]*)?;\n/gm;
  const first = [...text.matchAll(servers)][0];
  assert.ok(first, "the example lists its upstream servers");
  let rendered = text.replace(servers, (line) =>
    line === first[0]
      ? ports.upstreams.map((port) => `${first[1]}server 127.0.0.1:${port}${first[2] ?? ""};\n`).join("")
      : "",
  );
  for (const [from, to] of [
    [/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${ports.plain};`],
    [/^(\s*)listen 443 ssl http2;$/m, `$1listen 127.0.0.1:${ports.tls} ssl http2;`],
    [/^(\s*)ssl_certificate \S+;$/m, `$1ssl_certificate ${dir}/cert.pem;`],
    [/^(\s*)ssl_certificate_key \S+;$/m, `$1ssl_certificate_key ${dir}/key.pem;`],
  ] as const) {
    assert.match(rendered, from, `the example has ${from}`);
    rendered = rendered.replace(from, to);
  }
  return rendered;
}

/** Every absolute http(s) address in a text (attributes, XML, headers). */
const addressesIn = (text: string) => [...text.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0]);

describe("nginx with TLS in front of the service (docs/nginx-tls.conf.example): a crawl over HTTPS", { skip }, () => {
  let cluster: Cluster;
  let dir: string;
  let cert: string;
  let proxy: RunningNginx | null = null;
  const ports = { plain: 0, tls: 0 };
  let site = 0;

  /** A request to nginx over TLS for `host` (SNI and Host), trusting the test's certificate only. */
  function secure(method: string, path: string, options: { host?: string; token?: string; body?: unknown } = {}) {
    const host = options.host ?? DOMAIN;
    const headers: Record<string, string> = { host };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (payload !== undefined) headers["content-type"] = "application/json";
    return new Promise<Reply>((resolve, reject) => {
      const req = httpsRequest(
        { host: "127.0.0.1", port: ports.tls, servername: host, ca: cert, method, path, headers, agent: false },
        (res) => replyOf(res).then(resolve, reject),
      );
      req.on("error", reject);
      req.end(payload);
    });
  }
  const api = (method: string, path: string, body?: unknown) =>
    secure(method, path.startsWith("/api/") ? path : `/api/site/${site}${path}`, { token: cluster.token, body });
  const ok = (reply: Reply, what: string, status = 200): any => {
    assert.equal(reply.status, status, `${what}: ${reply.status} ${reply.text.slice(0, 300)}`);
    return reply.body;
  };

  before(async () => {
    [ports.plain, ports.tls] = [await freePort(), await freePort()];
    cluster = await startCluster(testServerUrl ? 2 : 1, {
      SVC_PUBLIC_SCHEME: "https",
      SVC_TRUST_PROXY: "127.0.0.1",
      SVC_HSTS_MAX_AGE: "600",
      SVC_API_URL: `https://${DOMAIN}`,
      SVC_RATE_LIMIT_PER_MIN: "100000",
    });
    dir = mkdtempSync(join(tmpdir(), "svc-nginx-tls-"));
    // When the test runs as root, nginx's workers run as an unprivileged user: they must reach the temp folders.
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, "temp"));
    const made = spawnSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", `/CN=${DOMAIN}`],
        ...["-addext", `subjectAltName=DNS:${DOMAIN},DNS:${ALIAS}`],
        ...["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
      ],
      { encoding: "utf8" },
    );
    assert.equal(made.status, 0, `openssl: ${made.stderr}`);
    cert = readFileSync(join(dir, "cert.pem"), "utf8");
    const upstreams = cluster.processes.map((p) => p.port);
    writeFileSync(join(dir, "svc.conf"), renderExample(readFileSync(EXAMPLE, "utf8"), { ...ports, upstreams }, dir));
    writeFileSync(join(dir, "nginx.conf"), mainConfig(dir, join(dir, "svc.conf")));
    proxy = await runNginxServing(nginx!, dir, () => secure("GET", "/healthz"));
  });

  after(async () => {
    await proxy?.stop();
    await cluster?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("a site written through nginx over HTTPS is answered there, with https addresses in the API's answers", async () => {
    const created = ok(await api("POST", "/api/sites", { name: "Shop", domain: DOMAIN }), "site", 201).site;
    site = created.id;
    assert.equal(created.home_url, `https://${DOMAIN}/`);
    ok(await api("POST", `/api/sites/${site}/domains`, { domain: ALIAS }), "alias", 201);
    const domains = ok(await api("GET", `/api/sites/${site}/domains`), "domains").domains;
    assert.deepEqual(
      domains.map((d: { scheme: string }) => d.scheme),
      ["https", "https"],
    );
    for (const code of ["en", "de"]) ok(await api("POST", "/languages", { code }), `language ${code}`, 201);
    const bind = (target: string, token: string) => `data-op-bind='{"${target}": "${token}"}'`;
    const item = `<li><a ${bind("href", "item.url")}><span ${bind("text", "item.title")}></span></a></li>`;
    ok(
      await api("POST", "/frames", {
        slug: "layout",
        html: `<!DOCTYPE html><html><head><meta charset="utf-8"><!-- svc/seo /--></head><body><a class="home" ${bind("href", "site.url")}>home</a><nav><!-- svc/menu {"location": "header"} /--></nav><!-- svc/language-switcher /--><h1 ${bind("text", "page.title")}></h1><ul><!-- svc/repeat {"source": "pages.children", "order_by": "-date", "page_size": 2} -->${item}<!-- /svc/repeat --></ul><!-- svc/pagination /--></body></html>`,
      }),
      "frame",
      201,
    );
    const page = async (body: Record<string, unknown>) =>
      ok(await api("POST", "/pages", { status: "publish", frame: "layout", ...body }), `page ${body.slug}`, 201).page
        .id as number;
    const home = await page({ title: "Home", slug: "home", lang: "en" });
    ok(await api("PATCH", "/settings", { home_page: home }), "home page");
    ok(await api("POST", "/pages/language", { page: home, lang: "de", title: "Start", slug: "start" }), "de home", 201);
    const about = await page({ title: "About", slug: "about", lang: "en" });
    ok(await api("POST", "/pages/language", { page: about, lang: "de", title: "Über uns", slug: "ueber" }), "de", 201);
    const news = await page({ title: "News", slug: "news", lang: "en", feed: true });
    for (const day of [1, 2, 3])
      await page({ title: `Post ${day}`, slug: `post-${day}`, lang: "en", parent: news, date: `2024-01-0${day}` });
    ok(
      await api("POST", "/menus", {
        name: "Header",
        location: "header",
        items: [{ page: home }, { page: about }, { page: news }, { url: "/news/page/2/", title: "Older" }],
      }),
      "menu",
      201,
    );
    ok(await api("POST", "/seo/redirects", { from: "/old-about/", to: "/about/", status: 301 }), "redirect", 201);
    const pages = await api("GET", "/pages?per_page=1");
    assert.ok(
      String(pages.headers.link).includes(`<https://${DOMAIN}/api/site/${site}/pages?`),
      String(pages.headers.link),
    );
  });

  it("the crawl: every address printed in pages, sitemap, feed, robots.txt and headers is https:// with no port; no http:// address of the site", async () => {
    const link = ok(await api("POST", "/preview/links", { page: "about" }), "preview link", 201);
    assert.match(link.url, new RegExp(`^https://${DOMAIN.replaceAll(".", "\\.")}/_preview/`));
    const ownAddress = (url: string) => /^https?:\/\/(www\.)?shop\.example\.test(?=[:/?#]|$)/.test(url);
    const start = ["/", "/sitemap.xml", "/robots.txt", "/news/feed.xml", "/old-about/", new URL(link.url).pathname];
    const queue: Array<{ path: string; host: string }> = start.map((path) => ({ path, host: DOMAIN }));
    queue.push({ path: "/about/?from=alias", host: ALIAS });
    const seen = new Set<string>();
    const printed: string[] = [];
    let pagesCrawled = 0;
    while (queue.length > 0) {
      const { path, host } = queue.shift()!;
      if (seen.has(`${host}${path}`)) continue;
      seen.add(`${host}${path}`);
      const reply = await secure("GET", path, { host });
      assert.ok([200, 301, 302].includes(reply.status), `${host}${path}: ${reply.status} ${reply.text.slice(0, 200)}`);
      assert.equal(reply.headers["strict-transport-security"], "max-age=600", `${host}${path}: HSTS`);
      const headerAddresses = [reply.headers.location, reply.headers.link].filter((v) => v !== undefined).map(String);
      const found = [...addressesIn(reply.text), ...headerAddresses.flatMap((h) => addressesIn(h) ?? [])];
      for (const address of found.filter(ownAddress)) {
        printed.push(address);
        assert.ok(address.startsWith(`https://${DOMAIN}/`), `${host}${path} prints ${address}`);
        const next = new URL(address);
        if (!next.pathname.startsWith("/api/")) queue.push({ path: next.pathname + next.search, host: DOMAIN });
      }
      // A Location relative to the site (a redirect record, another spelling) is followed as well.
      const location = reply.headers.location;
      if (typeof location === "string" && location.startsWith("/")) queue.push({ path: location, host: DOMAIN });
      if (reply.status === 200 && String(reply.headers["content-type"]).startsWith("text/html")) pagesCrawled++;
    }
    for (const path of [
      "/",
      "/de/",
      "/about/",
      "/de/ueber/",
      "/news/",
      "/news/page/2/",
      "/news/feed.xml",
      "/news/post-1/",
    ])
      assert.ok(seen.has(`${DOMAIN}${path}`), `the crawl reached ${path}: ${[...seen].join(" ")}`);
    assert.ok(pagesCrawled >= 8, `pages crawled: ${pagesCrawled}`);
    assert.ok(printed.length > 30, `addresses printed: ${printed.length}`);
  });

  it("plain HTTP to nginx answers 301 to the https address; on the service's own port, a request that does not say https (X-Forwarded-Proto) answers 301 too", async () => {
    const plain = await call(ports.plain, "GET", "/about/?x=1", { host: DOMAIN });
    assert.equal(plain.status, 301);
    assert.equal(plain.headers.location, `https://${DOMAIN}/about/?x=1`);
    const direct = await call(cluster.processes[0].port, "GET", "/about/", {
      host: DOMAIN,
      headers: { "x-forwarded-proto": "https" },
    });
    assert.equal(direct.status, 200, "X-Forwarded-Proto from 127.0.0.1 (nginx's address) is believed");
    assert.equal(
      (await call(cluster.processes[0].port, "GET", "/about/", { host: DOMAIN })).headers.location,
      `https://${DOMAIN}/about/`,
    );
  });
});
