// Preview links (docs/preview.md): POST /preview/links → an absolute, unguessable /_preview/<token>
// on the site's domain; GET /preview/links; DELETE /preview/links/{id}. The link shows the page as
// it currently stands (draft or published; rendered on request, never cached, never a static copy),
// with noindex and private, no-store; a tampered, expired or revoked token, or one for another
// site's domain, answers the site's ordinary 404 bytes. Expiry follows the service's clock (node:test
// mock timers on Date). Over inject, and over a socket.
import { after, before, describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import { hashToken } from "../../src/tokens.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { rawHeader, rawRequest } from "../support/raw-http.ts";
import { changedTables, previewSite, storedState, visit, type Site } from "./helpers.ts";

const WEEK = 604_800;

describe("preview links", () => {
  let t: TestApp;
  let n = 0;
  const site = () => previewSite(t, `links${++n}`);
  const host = (s: Site) => `${s.domain}:8080`;
  const make = async (s: Site, body: Record<string, unknown>) => {
    const r = await t.call("POST", s.at("/preview/links"), { body });
    assert.equal(r.status, 201, r.text);
    return r.body;
  };
  const pathOf = (url: string) => new URL(url).pathname;

  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("POST /preview/links answers 201 with an absolute address on the site's domain, a token of 43 URL-safe characters kept only hashed, and expires_at 7 days on", async () => {
    const s = await site();
    const started = Date.now();
    const link = await make(s, { page: "about" });
    assert.deepEqual(Object.keys(link).sort(), [
      "created_at",
      "created_by",
      "expires_at",
      "id",
      "lang",
      "page",
      "site_id",
      "success",
      "url",
      "warnings",
    ]);
    assert.equal(link.site_id, s.id);
    assert.equal(link.page, s.pageId);
    assert.equal(link.lang, null);
    const match = /^http:\/\/([^/]+)\/_preview\/([A-Za-z0-9_-]+)$/.exec(link.url);
    assert.ok(match, link.url);
    assert.equal(match[1], host(s), "the site's primary domain and the public port");
    const token = match[2];
    assert.ok(token.length >= 32, "at least 32 characters");
    assert.match(link.expires_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const expires = Date.parse(link.expires_at);
    assert.ok(expires >= started + WEEK * 1000 && expires <= Date.now() + WEEK * 1000 + 1000, link.expires_at);
    // Only the SHA-256 of the token is stored; no column holds the token.
    const rows = await t.store.db.selectFrom("preview_links").selectAll().where("site_id", "=", s.id).execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0].token_hash, hashToken(token));
    assert.ok(!JSON.stringify(rows).includes(token));
    // Two links are two tokens.
    const other = await make(s, { page: "about" });
    assert.notEqual(other.url, link.url);
    // Listed without their addresses, newest first.
    const list = await t.call("GET", s.at("/preview/links"));
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.links.map((l: any) => l.id),
      [other.id, link.id],
    );
    assert.ok(!list.text.includes(token));
  });

  it("GET /_preview/<token> shows the page as it currently stands, draft too, rendered on request and never cached, noindex and private", async () => {
    const s = await site();
    const link = await make(s, { page: s.pageId });
    const path = pathOf(link.url);
    const published = await visit(t, host(s), "/about/");
    const shown = await visit(t, host(s), path);
    assert.equal(shown.status, 200);
    assert.equal(shown.body, published.body, "the page's bytes");
    assert.equal(shown.headers["x-robots-tag"], "noindex");
    assert.equal(shown.headers["cache-control"], "private, no-store");
    assert.equal(shown.headers["referrer-policy"], "no-referrer");
    assert.equal(shown.headers["content-type"], "text/html; charset=utf-8");
    assert.equal(shown.headers["x-svc-printed"], "on_request");
    assert.equal(shown.headers.etag, undefined);

    // As it stands now: a draft with a new title, which the public site no longer shows.
    const cacheBefore = t.deps.publicSite.cache.usageOf(s.id);
    const patched = await t.call("PATCH", s.at("/pages/about"), {
      body: { title: "Work in progress", status: "draft" },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal((await visit(t, host(s), "/about/")).status, 404);
    const draft = await visit(t, host(s), path);
    assert.equal(draft.status, 200);
    assert.match(draft.body, /<h1>Work in progress<\/h1>/);
    assert.equal(draft.headers["x-svc-printed"], "on_request");
    // Never cached and never a static copy: nothing was added to the page cache or the copies.
    assert.ok(t.deps.publicSite.cache.usageOf(s.id).pages <= cacheBefore.pages);
    const copies = await t.store.db.selectFrom("static_copies").select("page_id").where("site_id", "=", s.id).execute();
    assert.deepEqual(copies, []);
    // Showing it writes nothing.
    const stored = await storedState(t);
    await visit(t, host(s), path);
    assert.deepEqual(changedTables(stored, await storedState(t)), []);
  });

  it("a tampered token, a token of another site and a malformed one answer the site's ordinary 404 bytes", async () => {
    const s = await site();
    const other = await site();
    const link = await make(s, { page: "about" });
    const path = pathOf(link.url);
    const ordinary = await visit(t, host(s), "/no-page-here/");
    assert.equal(ordinary.status, 404);
    const flip = (c: string) => (c === "A" ? "B" : "A");
    const token = path.slice("/_preview/".length);
    const tampered = [
      `/_preview/${flip(token[0])}${token.slice(1)}`,
      `/_preview/${token.slice(0, -1)}${flip(token.at(-1)!)}`,
      `/_preview/${token.slice(0, -1)}`,
      `/_preview/${token}x`,
      `/_preview/${token.toUpperCase()}`,
      "/_preview/short",
      `/_preview/${encodeURIComponent("../../about/")}`,
    ];
    for (const address of tampered) {
      const r = await visit(t, host(s), address);
      assert.equal(r.status, 404, address);
      assert.equal(r.body, ordinary.body, address);
      assert.doesNotMatch(r.body, /About/);
      assert.equal(r.headers["x-robots-tag"], "noindex");
      assert.equal(r.headers["x-svc-reason"], undefined, "no reason told without a token");
    }
    const elsewhere = await visit(t, host(other), path);
    assert.equal(elsewhere.status, 404);
    assert.equal(elsewhere.body, (await visit(t, host(other), "/no-page-here/")).body);
  });

  it("a site's not_found_page is what a wrong token shows", async () => {
    const s = await site();
    await t.call("POST", s.at("/pages"), { body: { title: "Lost", slug: "lost", status: "publish", frame: "page" } });
    const set = await t.call("PATCH", s.at("/settings"), { body: { not_found_page: "lost" } });
    assert.equal(set.status, 200, set.text);
    const ordinary = await visit(t, host(s), "/no-page-here/");
    assert.match(ordinary.body, /<h1>Lost<\/h1>/);
    const r = await visit(t, host(s), `/_preview/${"A".repeat(43)}`);
    assert.equal(r.status, 404);
    assert.equal(r.body, ordinary.body);
  });

  it("DELETE /preview/links/{id} revokes: the address answers 404 at once; an unknown id, a second delete and another site's link are 404", async () => {
    const s = await site();
    const other = await site();
    const link = await make(s, { page: "about" });
    const kept = await make(s, { page: "about" });
    const foreign = await make(other, { page: "about" });
    assert.equal((await visit(t, host(s), pathOf(link.url))).status, 200);
    // A dry run answers what the revocation would, and revokes nothing.
    const dry = await t.call("DELETE", s.at(`/preview/links/${link.id}?dry_run=1`));
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.dry_run, true);
    assert.equal(dry.body.applied, false);
    assert.equal((await visit(t, host(s), pathOf(link.url))).status, 200, "still answers after the dry run");
    assert.equal(
      (await t.call("DELETE", s.at("/preview/links/999999?dry_run=true"))).body.error,
      "preview_link_not_found",
    );
    const revoked = await t.call("DELETE", s.at(`/preview/links/${link.id}`));
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal(revoked.body.revoked.id, link.id);
    assert.equal(revoked.body.revoked.page, s.pageId);
    assert.deepEqual(revoked.body.revoked, dry.body.revoked);
    assert.equal(revoked.body.dry_run, undefined);
    const gone = await visit(t, host(s), pathOf(link.url));
    assert.equal(gone.status, 404);
    assert.equal(gone.body, (await visit(t, host(s), "/no-page-here/")).body);
    assert.equal((await visit(t, host(s), pathOf(kept.url))).status, 200, "the other link still answers");
    for (const id of [link.id, foreign.id, 999_999, "abc", "0"]) {
      const r = await t.call("DELETE", s.at(`/preview/links/${id}`));
      assert.equal(r.status, 404, `${id}: ${r.text}`);
      assert.equal(r.body.error, "preview_link_not_found");
    }
    assert.equal((await visit(t, host(other), pathOf(foreign.url))).status, 200, "another site's link is untouched");
    // At the legacy address too.
    const legacy = await t.call("DELETE", `/api/preview/links/${kept.id}?blog_id=${s.id}`);
    assert.equal(legacy.status, 200, legacy.text);
    assert.deepEqual((await t.call("GET", s.at("/preview/links"))).body.links, []);
  });

  it("expires_in: seconds from 60 to 2592000 (else 400 invalid_expires_in); the link answers until expires_at on the service's clock, then 404", async () => {
    const s = await site();
    for (const bad of [59, 2_592_001, 0, -60, 60.5, "60", true, {}]) {
      const r = await t.call("POST", s.at("/preview/links"), { body: { page: "about", expires_in: bad } });
      assert.equal(r.status, 400, `${JSON.stringify(bad)}: ${r.text}`);
      assert.equal(r.body.error, "invalid_expires_in");
      assert.equal(r.body.min, 60);
      assert.equal(r.body.max, 2_592_000);
    }
    assert.equal((await t.call("GET", s.at("/preview/links"))).body.links.length, 0, "nothing made");
    const T0 = Date.parse("2030-01-01T00:00:00Z");
    mock.timers.enable({ apis: ["Date"], now: T0 });
    try {
      const short = await make(s, { page: "about", expires_in: 60 });
      assert.equal(short.expires_at, "2030-01-01T00:01:00Z");
      assert.equal(short.created_at, "2030-01-01T00:00:00Z");
      const longest = await make(s, { page: "about", expires_in: 2_592_000 });
      assert.equal(longest.expires_at, "2030-01-31T00:00:00Z");
      const usual = await make(s, { page: "about", expires_in: null });
      assert.equal(usual.expires_at, "2030-01-08T00:00:00Z");
      mock.timers.tick(59_999);
      assert.equal((await visit(t, host(s), pathOf(short.url))).status, 200, "a moment before it expires");
      mock.timers.tick(1);
      const expired = await visit(t, host(s), pathOf(short.url));
      assert.equal(expired.status, 404, "at expires_at");
      assert.equal(expired.body, (await visit(t, host(s), "/no-page-here/")).body);
      assert.deepEqual(
        (await t.call("GET", s.at("/preview/links"))).body.links.map((l: any) => l.id),
        [usual.id, longest.id],
        "an expired link is not listed",
      );
      mock.timers.tick(WEEK * 1000);
      assert.equal((await visit(t, host(s), pathOf(usual.url))).status, 404);
      assert.equal((await visit(t, host(s), pathOf(longest.url))).status, 200);
    } finally {
      mock.timers.reset();
    }
  });

  it("lang picks the translation a link shows; refusals of page and lang as POST /preview's", async () => {
    const s = await site();
    const langs = [
      await t.call("POST", s.at("/languages"), { body: { code: "en", default: true } }),
      await t.call("POST", s.at("/languages"), { body: { code: "de" } }),
    ];
    for (const l of langs) assert.ok(l.status < 300, l.text);
    const en = await t.call("POST", s.at("/pages"), {
      body: { title: "Team", slug: "team", lang: "en", status: "publish", frame: "page" },
    });
    const de = await t.call("POST", s.at("/pages/language"), {
      body: { page: en.body.page.id, lang: "de", title: "Mannschaft", status: "draft" },
    });
    assert.ok(de.status < 300, de.text);
    const link = await make(s, { page: "team", lang: "de" });
    assert.equal(link.page, de.body.page.id);
    assert.equal(link.lang, "de");
    const shown = await visit(t, host(s), pathOf(link.url));
    assert.equal(shown.status, 200);
    assert.match(shown.body, /<h1>Mannschaft<\/h1>/, "a draft translation");
    const refusals: Array<[Record<string, unknown>, number, string]> = [
      [{}, 400, "page_required"],
      [{ page: "nope" }, 404, "page_not_found"],
      [{ page: "team", lang: "fr" }, 400, "unknown_language"],
      [{ page: 1.5 }, 404, "page_not_found"],
      [{ page: ["team"] }, 400, "invalid_field"],
    ];
    for (const [body, status, code] of refusals) {
      const r = await t.call("POST", s.at("/preview/links"), { body });
      assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.body.error, code);
    }
  });

  it("a link to a page since trashed, or taken off its frame, answers 404", async () => {
    const s = await site();
    const link = await make(s, { page: "about" });
    await t.call("POST", s.at("/frames/page/assign"), { body: { page: "about", clear: true } });
    assert.equal((await visit(t, host(s), pathOf(link.url))).status, 404);
    await t.call("POST", s.at("/frames/page/assign"), { body: { page: "about" } });
    assert.equal((await visit(t, host(s), pathOf(link.url))).status, 200);
    await t.call("DELETE", s.at("/pages/about"));
    assert.equal((await visit(t, host(s), pathOf(link.url))).status, 404);
  });
});

describe("preview links over a socket", () => {
  let t: TestApp;
  let port = 0;
  before(async () => {
    t = await startTestApp({ env: { SVC_PUBLIC_RATE_LIMIT_PER_MIN: "3" } });
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  it("answers the page with its headers, a tampered token the 404, and counts every request against the public limit", async () => {
    const s = await previewSite(t, "socket");
    const r = await t.call("POST", s.at("/preview/links"), { body: { page: "about", expires_in: 3600 } });
    assert.equal(r.status, 201, r.text);
    const url = new URL(r.body.url);
    assert.equal(url.host, "socket.localhost:8080");
    const shown = await rawRequest(port, url.pathname, { host: url.host });
    assert.equal(shown.status, 200);
    assert.match(shown.body, /<h1>About<\/h1>/);
    assert.equal(rawHeader(shown, "x-robots-tag"), "noindex");
    assert.equal(rawHeader(shown, "cache-control"), "private, no-store");
    const head = await rawRequest(port, url.pathname, { host: url.host, method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.body, "");
    const tampered = await rawRequest(port, `${url.pathname.slice(0, -2)}xx`, { host: url.host });
    assert.equal(tampered.status, 404);
    assert.doesNotMatch(tampered.body, /About/);
    assert.equal(rawHeader(tampered, "x-robots-tag"), "noindex");
    // Three requests counted so far against the limit of three a minute: the fourth is refused.
    const refused = await rawRequest(port, url.pathname, { host: url.host });
    assert.equal(refused.status, 429);
    assert.ok(rawHeader(refused, "retry-after"));
    assert.doesNotMatch(refused.body, /About/);
  });
});
