// The effect table of docs/publishing.md, row by row, over real sockets: each public address is
// fetched twice before the write (so it sits in the static copy table and in memory), the write is
// made, and the very next request of every address the row names shows the new content. On
// SQLite one process serves both; under `npm run test:pg` two processes share the database, the
// write goes through one and the reads through the other.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { call, SITE, startCluster, type Cluster, type Reply } from "../cluster/helpers.ts";
import { testServerUrl } from "../support/database.ts";

const bind = (target: string, token: string) => `data-op-bind='{"${target}": "${token}"}'`;
/** The links a menu prints, by title. */
const linkTitles = (html: string) => [...html.matchAll(/<a href="[^"]*"[^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);

function ok(reply: Reply, what: string, status = 200): any {
  assert.equal(reply.status, status, `${what}: ${reply.status} ${reply.text.slice(0, 400)}`);
  return reply.body;
}

const processes = testServerUrl ? 2 : 1;

describe(`every write reaches the public site on the next request (${processes === 2 ? "PostgreSQL, two processes" : "SQLite"})`, () => {
  let cluster: Cluster;
  let writer: number;
  let reader: number;
  const api = (method: string, path: string, body?: unknown) => call(writer, method, path.startsWith("/api/") ? path : `${SITE}${path}`, { token: cluster.token, body });
  const visit = (path: string, host = "localhost") => call(reader, "GET", path, { host });
  /** Fetched twice, so the address is in the static copy table and in memory. */
  async function primed(path: string, host = "localhost"): Promise<Reply> {
    await visit(path, host);
    const second = await visit(path, host);
    assert.equal(second.status, 200, `${path} before the write: ${second.status}`);
    return second;
  }
  async function page(slug: string, frame: string, extra: Record<string, unknown> = {}, site = SITE): Promise<number> {
    return ok(await call(writer, "POST", `${site}/pages`, { token: cluster.token, body: { title: slug, slug, status: "publish", frame, ...extra } }), `page ${slug}`, 201).page.id;
  }
  async function frame(slug: string, html: string, site = SITE): Promise<void> {
    ok(await call(writer, "POST", `${site}/frames`, { token: cluster.token, body: { slug, html } }), `frame ${slug}`, 201);
  }

  before(async () => {
    cluster = await startCluster(processes, { SVC_RATE_LIMIT_PER_MIN: "100000" });
    writer = cluster.processes[0].port;
    reader = cluster.processes[processes - 1].port;
  });
  after(() => cluster?.close());

  it("frame PUT: the pages on the frame print the new markup", async () => {
    await frame("fx-frame", "<p>first</p>");
    await page("fx-page", "fx-frame");
    assert.match((await primed("/fx-page/")).text, /first/);
    ok(await api("PUT", "/frames/fx-frame", { html: "<p>second</p>" }), "PUT frame");
    const after = await visit("/fx-page/");
    assert.match(after.text, /second/);
    assert.equal(after.headers["x-svc-printed"], "static");
  });

  it("settings tagline: frames printing settings show the new tagline", async () => {
    await frame("fx-tagline", `<p ${bind("text", "settings.tagline")}></p>`);
    await page("fx-tagline-page", "fx-tagline");
    await primed("/fx-tagline-page/");
    ok(await api("PATCH", "/settings", { tagline: "Fresh tagline" }), "PATCH settings");
    assert.match((await visit("/fx-tagline-page/")).text, /Fresh tagline/);
  });

  it("settings home_page set, moved and cleared: / answers the named page, then 404 once cleared", async () => {
    await frame("fx-home-a", "<p>Alpha home</p>");
    await frame("fx-home-b", "<p>Beta home</p>");
    const a = await page("fx-home-a-page", "fx-home-a");
    const b = await page("fx-home-b-page", "fx-home-b");
    ok(await api("PATCH", "/settings", { home_page: a }), "home_page A");
    assert.match((await primed("/")).text, /Alpha home/);
    const moved = ok(await api("PATCH", "/settings", { home_page: b }), "home_page B");
    assert.ok(moved.rebaked.cache.flushed.urls.urls.includes("/"), "the answer names / as flushed");
    const after = await visit("/");
    assert.equal(after.status, 200);
    assert.match(after.text, /Beta home/);
    await primed("/");
    ok(await api("PATCH", "/settings", { home_page: null }), "home_page cleared");
    assert.equal((await visit("/")).status, 404);
  });

  it("settings theme: menus are kept per theme, so pages printing a menu print the new theme's", async () => {
    await frame("fx-themed", `<nav><!-- svc/menu {"location": "footer_2"} /--></nav>`);
    await page("fx-themed-page", "fx-themed");
    ok(await api("POST", "/menus", { name: "Default theme footer", location: "footer_2", items: [{ url: "/somewhere", title: "Default theme link" }] }), "menu", 201);
    assert.deepEqual(linkTitles((await primed("/fx-themed-page/")).text), ["Default theme link"]);
    ok(await api("PATCH", "/settings", { theme: "dark" }), "PATCH theme");
    assert.deepEqual(linkTitles((await visit("/fx-themed-page/")).text), []);
    ok(await api("PATCH", "/settings", { theme: "default" }), "PATCH theme back");
    assert.deepEqual(linkTitles((await visit("/fx-themed-page/")).text), ["Default theme link"]);
  });

  it("data set standing in for a missing menu: pages printing that menu location show its items", async () => {
    await frame("fx-stand-in", `<nav><!-- svc/menu {"location": "footer_3"} /--></nav>`);
    await page("fx-stand-in-page", "fx-stand-in");
    ok(await api("PUT", "/data/footer_3", { items: [{ title: "Stand-in one", url: "/one" }] }), "PUT data", 201);
    assert.deepEqual(linkTitles((await primed("/fx-stand-in-page/")).text), ["Stand-in one"]);
    ok(await api("PUT", "/data/footer_3", { items: [{ title: "Stand-in two", url: "/two" }] }), "PUT data again");
    assert.deepEqual(linkTitles((await visit("/fx-stand-in-page/")).text), ["Stand-in two"]);
  });

  it("site name (PATCH /api/sites/{id}): static copies printing site.name print the new name", async () => {
    await frame("fx-site-name", `<h1 ${bind("text", "site.name")}></h1>`);
    await page("fx-site-name-page", "fx-site-name");
    await primed("/fx-site-name-page/");
    ok(await api("PATCH", "/api/sites/1", { name: "Renamed network" }), "PATCH site");
    const after = await visit("/fx-site-name-page/");
    assert.match(after.text, /Renamed network/);
    assert.equal(after.headers["x-svc-printed"], "static");
  });

  it("site domain: the site answers on the new host, and site.url and menu links carry it", async () => {
    const created = ok(await api("POST", "/api/sites", { name: "Moving", domain: "before.localhost" }), "site", 201);
    const site = `/api/site/${created.site.id}`;
    await frame("fx-moving", `<a class="home" ${bind("href", "site.url")}>home</a><nav><!-- svc/menu {"location": "header"} /--></nav>`, site);
    const id = await page("fx-moving-page", "fx-moving", {}, site);
    ok(await call(writer, "POST", `${site}/menus`, { token: cluster.token, body: { name: "Moving menu", location: "header", items: [{ page: id, title: "To the page" }] } }), "menu", 201);
    assert.match((await primed("/fx-moving-page/", "before.localhost")).text, /before\.localhost/);
    ok(await api("PATCH", `/api/sites/${created.site.id}`, { domain: "after.localhost" }), "PATCH domain");
    const after = await visit("/fx-moving-page/", "after.localhost");
    assert.equal(after.status, 200);
    assert.doesNotMatch(after.text, /before\.localhost/);
    assert.match(after.text, /class="home" href="http:\/\/after\.localhost[^"]*"/);
    assert.match(after.text, /<a href="http:\/\/after\.localhost[^"]*\/fx-moving-page\/"/);
  });

  it("settings default_lang: every address moves between /<path>/ and /<lang>/<path>/", async () => {
    const created = ok(await api("POST", "/api/sites", { name: "Bilingual", domain: "langs.localhost" }), "site", 201);
    const site = `/api/site/${created.site.id}`;
    for (const code of ["en", "de"]) ok(await call(writer, "POST", `${site}/languages`, { token: cluster.token, body: { code } }), `language ${code}`, 201);
    await frame("fx-lang", "<p>Hello in English</p>", site);
    await page("fx-lang-page", "fx-lang", { lang: "en" }, site);
    await primed("/fx-lang-page/", "langs.localhost");
    ok(await call(writer, "PATCH", `${site}/settings`, { token: cluster.token, body: { default_lang: "de" } }), "PATCH default_lang");
    const moved = await visit("/en/fx-lang-page/", "langs.localhost");
    assert.equal(moved.status, 200);
    assert.match(moved.text, /Hello in English/);
    assert.equal((await visit("/fx-lang-page/", "langs.localhost")).status, 404);
  });
});
