// Bounded rendering, the writes render-budget.test.ts does not cover: every
// write that can make a bake print more is tried before it is stored (docs/security.md, "A write
// is refused before it is stored"). Here: a page write whose content its frame prints many times, a
// tagline printed many times, a menu given a location, a translation, and a dry run of a frame
// write; svc/partial counted toward `expansions` as svc/frame is; a refused write answered within
// 5 s; and the database not growing after a refused write (the finding: +340 MB).
// Each test works on a site of its own, in one app on the test's database (SQLite, or PostgreSQL
// under npm run test:pg).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { makeSite, startTestApp, type Answer, type TestApp } from "../support/app.ts";

const embeds = (slug: string, times: number) => `<!-- svc/frame {"name": "${slug}"} /-->`.repeat(times);
const partials = (slug: string, times: number) =>
  `<!-- svc/partial {"name": "${slug}", "with": {"n": 1}} /-->`.repeat(times);
const binds = (token: string, times: number, target = "text") =>
  `<b data-op-bind='{"${target}": "${token}"}'></b>`.repeat(times);

/** A 422 render_too_large with its budget, and a chain of slugs starting at `first`. */
function refusedAs(r: Answer, budget: "bytes" | "expansions" | "time", first: string, what: string): void {
  assert.equal(r.status, 422, `${what}: ${r.status} ${r.text.slice(0, 400)}`);
  assert.equal(r.body.success, false, what);
  assert.equal(r.body.error, "render_too_large", what);
  assert.equal(r.body.budget, budget, what);
  assert.ok(
    Array.isArray(r.body.chain) && r.body.chain.every((s: unknown) => typeof s === "string"),
    `${what}: chain ${JSON.stringify(r.body.chain)}`,
  );
  assert.equal(r.body.chain[0], first, `${what}: chain ${JSON.stringify(r.body.chain)}`);
}

/** The tagline in a GET /settings answer. */
const taglineOf = (body: any): unknown => body.settings?.tagline ?? body.tagline;

function fine(r: Answer, what: string, ...statuses: number[]): any {
  assert.ok(
    (statuses.length ? statuses : [200, 201]).includes(r.status),
    `${what}: ${r.status} ${r.text.slice(0, 400)}`,
  );
  return r.body;
}

describe("render budgets: every write that can make a bake print more is tried before it is stored", () => {
  let t: TestApp;
  let n = 0;
  /** A fresh site; answers the prefix of its API (`/api/site/<id>`) and its host. */
  const fresh = async () => {
    n++;
    const host = `budget${n}.localhost`;
    return { at: `/api/site/${await makeSite(t, `Budget ${n}`, host)}`, host };
  };
  const api = (method: string, url: string, body?: unknown) => t.call(method, url, { body });
  const visit = (path: string, host: string) =>
    t.app.inject({ method: "GET", url: path, headers: { host, authorization: `Bearer ${t.adminToken}` } });

  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("a page write whose content its frame prints many times: POST /pages (new, and an update of a published page) is 422 bytes, the page is not stored or keeps its content", async () => {
    const { at, host } = await fresh();
    // The content printed 8 times: 800 KB of content is 6.4 MB of page.
    fine(
      await api("POST", `${at}/frames`, { slug: "echo", html: `<main>${binds("page.content", 8, "html")}</main>` }),
      "frame",
      201,
    );
    const big = "c".repeat(800_000);
    const refused = await api("POST", `${at}/pages`, { title: "Echoed", slug: "echoed", frame: "echo", content: big });
    refusedAs(refused, "bytes", "echo", "new page");
    assert.equal((await api("GET", `${at}/pages/echoed`)).status, 404, "the page was not stored");
    assert.equal((await api("GET", `${at}/pages`)).body.total, 0, "no page at all");

    const kept = fine(
      await api("POST", `${at}/pages`, { title: "Kept", slug: "kept", frame: "echo", content: "<p>small</p>" }),
      "small page",
      201,
    ).page;
    const shownBefore = await visit("/kept/", host);
    assert.equal(shownBefore.statusCode, 200);
    const again = await api("POST", `${at}/pages`, { id: kept.id, content: big });
    refusedAs(again, "bytes", "echo", "update by POST /pages {id}");
    const patched = await api("PATCH", `${at}/pages/${kept.id}`, { content: big });
    refusedAs(patched, "bytes", "echo", "PATCH /pages/{ref}");
    const dry = await api("PATCH", `${at}/pages/${kept.id}?dry_run=1`, { content: big });
    refusedAs(dry, "bytes", "echo", "PATCH /pages/{ref}?dry_run=1");
    assert.deepEqual(dry.body, patched.body, "the dry run answers the write's refusal");
    assert.equal(
      fine(await api("GET", `${at}/pages/${kept.id}`), "read back").page.content,
      "<p>small</p>",
      "the page keeps its content",
    );
    assert.equal((await visit("/kept/", host)).body, shownBefore.body, "the public page is unchanged");
  });

  it("a settings write: PATCH /settings with a tagline printed 6,000 times by a frame is 422 bytes, and the tagline is unchanged", async () => {
    const { at, host } = await fresh();
    fine(await api("PATCH", `${at}/settings`, { tagline: "short" }), "tagline");
    fine(
      await api("POST", `${at}/frames`, { slug: "taglines", html: `<header>${binds("site.tagline", 6_000)}</header>` }),
      "frame",
      201,
    );
    fine(await api("POST", `${at}/pages`, { title: "Home", slug: "home", frame: "taglines" }), "page", 201);
    const before = await visit("/home/", host);
    assert.equal(before.statusCode, 200);
    // 1,000 characters (the most a tagline may hold) × 6,000 = 6 MB.
    const refused = await api("PATCH", `${at}/settings`, { tagline: "t".repeat(1_000) });
    refusedAs(refused, "bytes", "taglines", "tagline");
    assert.equal(taglineOf(fine(await api("GET", `${at}/settings`), "settings")), "short");
    assert.equal((await visit("/home/", host)).body, before.body, "the public page keeps its last good copy");
  });

  it("a dry run of that settings write (PATCH /settings?dry_run=1) answers the same refusal", async () => {
    const { at } = await fresh();
    fine(await api("PATCH", `${at}/settings`, { tagline: "short" }), "tagline");
    fine(
      await api("POST", `${at}/frames`, { slug: "taglines", html: `<header>${binds("site.tagline", 6_000)}</header>` }),
      "frame",
      201,
    );
    fine(await api("POST", `${at}/pages`, { title: "Home", slug: "home", frame: "taglines" }), "page", 201);
    const dry = await api("PATCH", `${at}/settings?dry_run=1`, { tagline: "t".repeat(1_000) });
    const real = await api("PATCH", `${at}/settings`, { tagline: "t".repeat(1_000) });
    refusedAs(dry, "bytes", "taglines", "tagline, dry run");
    assert.deepEqual(dry.body, real.body);
  });

  it("a menu given a location (PUT /menus/{ref}/location) that frames print past 5 MB is 422 bytes, and the location stays unassigned", async () => {
    const { at, host } = await fresh();
    const items = Array.from({ length: 100 }, (_, i) => ({ url: `/w${i}`, title: "w".repeat(1_000) }));
    const menu = fine(await api("POST", `${at}/menus`, { name: "Wide", items }), "menu", 201).menu;
    fine(
      await api("POST", `${at}/frames`, {
        slug: "nav",
        html: `<nav><!-- svc/menu {"location": "footer_2"} /--></nav>`,
      }),
      "nav",
      201,
    );
    fine(await api("POST", `${at}/frames`, { slug: "navs", html: `<main>${embeds("nav", 60)}</main>` }), "navs", 201);
    fine(await api("POST", `${at}/pages`, { title: "Navs", slug: "navs", frame: "navs" }), "page", 201);
    const before = await visit("/navs/", host);
    assert.equal(before.statusCode, 200);
    const locationsBefore = (await api("GET", `${at}/menus/${menu.id}`)).text;

    const refused = await api("PUT", `${at}/menus/${menu.id}/location`, { location: "footer_2" });
    refusedAs(refused, "bytes", "navs", "menu location");
    assert.equal((await api("GET", `${at}/menus/${menu.id}`)).text, locationsBefore, "the menu reads back as before");
    const listed = fine(await api("GET", `${at}/menus`), "menus").menus;
    assert.deepEqual(
      listed.map((m: { name: string; assigned: unknown[] }) => [m.name, m.assigned]),
      [["Wide", []]],
      "no location assigned",
    );
    assert.equal((await visit("/navs/", host)).body, before.body, "the public page keeps its last good copy");
    // A small menu takes the location: the refusal was the budget, not the call.
    const small = fine(
      await api("POST", `${at}/menus`, { name: "Small", items: [{ url: "/s", title: "Small link" }] }),
      "small",
      201,
    ).menu;
    fine(await api("PUT", `${at}/menus/${small.id}/location`, { location: "footer_2" }), "small location");
  });

  it("a translation (POST /pages/language) whose content its frame prints past 5 MB is 422 bytes, and no translation is stored", async () => {
    const { at } = await fresh();
    fine(await api("POST", `${at}/languages`, { code: "en" }), "en", 201);
    fine(await api("POST", `${at}/languages`, { code: "fr" }), "fr", 201);
    fine(
      await api("POST", `${at}/frames`, { slug: "echo", html: `<main>${binds("page.content", 8, "html")}</main>` }),
      "frame",
      201,
    );
    const origin = fine(
      await api("POST", `${at}/pages`, {
        title: "Origin",
        slug: "origin",
        lang: "en",
        frame: "echo",
        content: "<p>en</p>",
      }),
      "origin",
      201,
    ).page;
    const refused = await api("POST", `${at}/pages/language`, {
      page: origin.id,
      lang: "fr",
      title: "Origine",
      content: "f".repeat(800_000),
    });
    refusedAs(refused, "bytes", "echo", "translation");
    assert.deepEqual(
      fine(await api("GET", `${at}/pages/${origin.id}`), "origin").page.translations,
      { en: origin.id },
      "no translation linked",
    );
    assert.equal(fine(await api("GET", `${at}/pages?lang=fr`), "fr pages").total, 0, "no French page");
  });

  // FAILS (src bug, reported): POST /pages/language updating an existing translation announces no
  // change when only its content changes (translations.ts passes no `touched` page to
  // pageChangesBetween), so nothing is tried, the write is stored, and the public page stays stale.
  it("an existing translation made larger by POST /pages/language is refused too, and keeps its content", async () => {
    const { at } = await fresh();
    fine(await api("POST", `${at}/languages`, { code: "en" }), "en", 201);
    fine(await api("POST", `${at}/languages`, { code: "fr" }), "fr", 201);
    fine(
      await api("POST", `${at}/frames`, { slug: "echo", html: `<main>${binds("page.content", 8, "html")}</main>` }),
      "frame",
      201,
    );
    const origin = fine(
      await api("POST", `${at}/pages`, {
        title: "Origin",
        slug: "origin",
        lang: "en",
        frame: "echo",
        content: "<p>en</p>",
      }),
      "origin",
      201,
    ).page;
    const fr = fine(
      await api("POST", `${at}/pages/language`, {
        page: origin.id,
        lang: "fr",
        title: "Origine",
        content: "<p>fr</p>",
      }),
      "small translation",
      201,
    ).page;
    const refused = await api("POST", `${at}/pages/language`, {
      page: origin.id,
      lang: "fr",
      content: "f".repeat(800_000),
    });
    const content = fine(await api("GET", `${at}/pages/${fr.id}`), "fr").page.content;
    refusedAs(refused, "bytes", "echo", "larger translation");
    assert.equal(content, "<p>fr</p>");
  });

  // FAILS (src bug, reported): a frame dry run (`dry_run: true`) answers before any trial
  // (src/frames/write-service.ts createFrame and replaceFrameOnce return early), so it is 200
  // `applied: false` where the write is 422 render_too_large.
  it("a dry run of a frame write answers the same refusal as the write, and writes nothing", async () => {
    const { at } = await fresh();
    fine(await api("POST", `${at}/frames`, { slug: "leaf", html: `<p>${"x".repeat(300_000)}</p>` }), "leaf", 201);
    fine(await api("POST", `${at}/frames`, { slug: "mid", html: `<div>${embeds("leaf", 8)}</div>` }), "mid", 201);
    const html = `<main>${embeds("mid", 8)}</main>`;
    const framesBefore = (await api("GET", `${at}/frames`)).body.total;

    const dry = await api("POST", `${at}/frames`, { slug: "top", html, dry_run: true });
    const real = await api("POST", `${at}/frames`, { slug: "top", html });
    refusedAs(dry, "bytes", "top", "dry run of POST");
    assert.deepEqual(
      { ...dry.body, message: undefined },
      { ...real.body, message: undefined },
      "the dry run answers the write's refusal",
    );
    assert.equal((await api("GET", `${at}/frames/top`)).status, 404, "not stored");
    assert.equal((await api("GET", `${at}/frames`)).body.total, framesBefore);

    // A replacement (PUT) tried dry: the same refusal, the leaf keeps its markup.
    fine(await api("POST", `${at}/frames`, { slug: "host", html: `<main>${embeds("small", 40)}</main>` }), "host", 201);
    fine(await api("POST", `${at}/frames`, { slug: "small", html: "<p>small</p>" }), "small", 201);
    const dryPut = await api("PUT", `${at}/frames/small`, { html: `<p>${"y".repeat(200_000)}</p>`, dry_run: true });
    const realPut = await api("PUT", `${at}/frames/small`, { html: `<p>${"y".repeat(200_000)}</p>` });
    refusedAs(dryPut, "bytes", "host", "dry run of PUT");
    assert.deepEqual({ ...dryPut.body, message: undefined }, { ...realPut.body, message: undefined });
    assert.equal(fine(await api("GET", `${at}/frames/small`), "small").frame.html, "<p>small</p>");
  });

  it("svc/partial counts toward expansions as svc/frame does: 10,001 partials, or 5,000 frames and 5,001 partials, are refused; 10,000 pass", async () => {
    const { at } = await fresh();
    fine(await api("POST", `${at}/frames`, { slug: "tiny", html: "<i>t</i>" }), "tiny", 201);
    refusedAs(
      await api("POST", `${at}/frames`, { slug: "many-partials", html: `<div>${partials("tiny", 10_001)}</div>` }),
      "expansions",
      "many-partials",
      "10,001 partials",
    );
    refusedAs(
      await api("POST", `${at}/frames`, {
        slug: "mixed",
        html: `<div>${embeds("tiny", 5_000)}${partials("tiny", 5_001)}</div>`,
      }),
      "expansions",
      "mixed",
      "5,000 + 5,001",
    );
    // Partials inside a repeat count once per item printed.
    fine(
      await api("PUT", `${at}/data/rows`, { items: Array.from({ length: 101 }, (_, i) => ({ n: i })) }),
      "rows",
      201,
    );
    const repeated = `<!-- svc/repeat {"source": "data.rows"} -->${partials("tiny", 100)}<!-- /svc/repeat -->`;
    refusedAs(
      await api("POST", `${at}/frames`, { slug: "repeated", html: repeated }),
      "expansions",
      "repeated",
      "101 items × 100 partials",
    );
    for (const slug of ["many-partials", "mixed", "repeated"])
      assert.equal((await api("GET", `${at}/frames/${slug}`)).status, 404, `${slug} not stored`);
    fine(
      await api("POST", `${at}/frames`, {
        slug: "enough",
        html: `<div>${embeds("tiny", 5_000)}${partials("tiny", 5_000)}</div>`,
      }),
      "10,000 in all",
      201,
    );
    // A partial naming no frame prints nothing and does not count.
    fine(
      await api("POST", `${at}/frames`, { slug: "missing", html: `<div>${partials("nowhere", 10_001)}</div>` }),
      "missing partials",
      201,
    );
  });

  it("a refused bytes write and a refused expansions write are each answered within 5 s", async () => {
    const { at } = await fresh();
    fine(await api("POST", `${at}/frames`, { slug: "leaf", html: `<p>${"x".repeat(300_000)}</p>` }), "leaf", 201);
    fine(await api("POST", `${at}/frames`, { slug: "mid", html: `<div>${embeds("leaf", 8)}</div>` }), "mid", 201);
    fine(await api("POST", `${at}/frames`, { slug: "dot", html: "." }), "dot", 201);
    fine(await api("POST", `${at}/frames`, { slug: "dots", html: embeds("dot", 50) }), "dots", 201);
    fine(await api("POST", `${at}/frames`, { slug: "dots2", html: embeds("dots", 50) }), "dots2", 201);
    const cases: Array<[string, "bytes" | "expansions", string]> = [
      ["big", "bytes", `<main>${embeds("mid", 8)}</main>`],
      // 100 × 51 × 51 frames asked for (260,100): the budget stops it at the 10,001st.
      ["wide", "expansions", embeds("dots2", 100)],
    ];
    for (const [slug, budget, html] of cases) {
      const started = performance.now();
      const refused = await api("POST", `${at}/frames`, { slug, html });
      const took = performance.now() - started;
      refusedAs(refused, budget, slug, slug);
      assert.ok(took < 5_000, `${slug}: answered in ${Math.round(took)} ms`);
    }
  });
});

describe("render budgets: a refused write does not grow the database", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  /** SQLite: the file's bytes (the write-ahead log included) and its pages; PostgreSQL: the database's bytes. */
  const size = async () => {
    if (t.store.dialect === "sqlite") {
      const bytes = (name: string) => {
        try {
          return statSync(join(t.dataDir, name)).size;
        } catch {
          return 0;
        }
      };
      const pages = Number(
        (await sql<{ page_count: number }>`pragma page_count`.execute(t.store.db)).rows[0]!.page_count,
      );
      const pageSize = Number(
        (await sql<{ page_size: number }>`pragma page_size`.execute(t.store.db)).rows[0]!.page_size,
      );
      return { file: bytes("svc.db") + bytes("svc.db-wal"), pages: pages * pageSize };
    }
    const row = (await sql<{ bytes: string }>`select pg_database_size(current_database()) as bytes`.execute(t.store.db))
      .rows[0]!;
    return { file: Number(row.bytes), pages: Number(row.bytes) };
  };

  it("a few hundred bytes of frames, each embedding the next 9 times, whose bake would pass 5 MB are refused, and the database grows by less than 1 MB (the bake is not stored, not even for a rolled-back moment)", async () => {
    const S = "/api/site/1";
    const ok = async (slug: string, html: string) =>
      fine(await t.call("POST", `${S}/frames`, { body: { slug, html } }), slug, 201);
    // The finding: each frame embeds the next several times. b3 prints 729 leaves (730 KB);
    // b4 would print 6,561 (6.5 MB, within the expansions budget): only `bytes` stops it.
    await ok("b0", `<p>${"z".repeat(1_000)}</p>`);
    await ok("b1", embeds("b0", 9));
    await ok("b2", embeds("b1", 9));
    await ok("b3", embeds("b2", 9));
    // Settle the write-ahead log, so its own growth is not counted as the refused write's.
    if (t.store.dialect === "sqlite") await sql`pragma wal_checkpoint(TRUNCATE)`.execute(t.store.db);
    const before = await size();
    for (let i = 0; i < 5; i++) {
      const refused = await t.call("POST", `${S}/frames`, { body: { slug: `b4-${i}`, html: embeds("b3", 9) } });
      refusedAs(refused, "bytes", `b4-${i}`, `refusal ${i + 1}`);
    }
    const after = await size();
    assert.ok(
      after.file - before.file < 1_048_576,
      `the database files grew by ${after.file - before.file} bytes (${JSON.stringify({ before, after })})`,
    );
    assert.ok(
      after.pages - before.pages < 1_048_576,
      `the database grew by ${after.pages - before.pages} bytes of pages`,
    );
    const stored = await t.store.db.selectFrom("frames").select("slug").where("slug", "like", "b4-%").execute();
    assert.deepEqual(stored, [], "no refused frame stored");
    // The measure sees a bake that is stored: a frame printing b3 (730 KB) grows the file. (Not
    // on PostgreSQL, which compresses the repeated bytes of a stored bake.)
    if (t.store.dialect === "sqlite") {
      await ok("b3-copy", embeds("b2", 9));
      const grown = await size();
      assert.ok(
        grown.pages - after.pages > 500_000,
        `a stored 730 KB bake grew the database by ${grown.pages - after.pages} bytes`,
      );
    }
  });
});
