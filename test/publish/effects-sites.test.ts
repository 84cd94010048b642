// Effect table, sites (POST, PATCH name and domain, DELETE) and POST /cache/flush after a change
// made outside the API (docs/publishing.md; pattern in effects-helpers.ts). Users print nowhere:
// no frame token or source reads them, so their writes have no row to test.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { bind, effects, gone, ok, processes, served, suite } from "./effects-helpers.ts";

// On SQLite the test knows where the database file is, to write it as a tool outside the API would.
const dataDir = processes === 1 ? mkdtempSync(join(tmpdir(), "svc-effects-sites-")) : null;

describe(suite("sites and cache flush"), () => {
  const fx = effects(dataDir ? { SVC_DATA_DIR: dataDir } : {});
  after(() => dataDir && rmSync(dataDir, { recursive: true, force: true }));

  /** A write straight into the database (a tool, an import): the service is not told. */
  async function outsideTheApi(statement: string, params: unknown[]): Promise<void> {
    if (dataDir) {
      const db = new SQLite(join(dataDir, "svc.db"));
      try {
        db.prepare(statement).run(...params);
      } finally {
        db.close();
      }
      return;
    }
    const client = new pg.Client({ connectionString: fx.cluster.database.url! });
    await client.connect();
    try {
      let n = 0;
      await client.query(
        statement.replace(/\?/g, () => `$${++n}`),
        params,
      );
    } finally {
      await client.end();
    }
  }

  it("site name (PATCH /api/sites/{id}): static copies printing site.name print the new name", async () => {
    const path = await fx.shown("yx-site-name", `<h1 ${bind("text", "site.name")}></h1>`);
    ok(await fx.api("PATCH", "/api/sites/1", { name: "Renamed network" }), "PATCH site");
    assert.match(served(await fx.visit(path), path, "static"), /<h1>Renamed network<\/h1>/);
  });

  it("site domain: the site answers on the new host, and site.url and menu links carry it", async () => {
    const site = await fx.site("Moving", "before.localhost");
    await fx.frame(
      "yx-moving",
      `<a class="home" ${bind("href", "site.url")}>home</a><nav><!-- svc/menu {"location": "header"} /--></nav>`,
      site,
    );
    const id = await fx.page("yx-moving-page", "yx-moving", {}, site);
    ok(
      await fx.api(
        "POST",
        "/menus",
        { name: "Moving menu", location: "header", items: [{ page: id, title: "To the page" }] },
        site,
      ),
      "menu",
      201,
    );
    assert.match((await fx.primed("/yx-moving-page/", "before.localhost")).text, /before\.localhost/);
    ok(await fx.api("PATCH", `/api/sites/${site}`, { domain: "after.localhost" }), "PATCH domain");
    const text = served(await fx.visit("/yx-moving-page/", "after.localhost"), "new host", "static");
    assert.doesNotMatch(text, /before\.localhost/);
    assert.match(text, /class="home" href="http:\/\/after\.localhost[^"]*"/);
    assert.match(text, /<a href="http:\/\/after\.localhost[^"]*\/yx-moving-page\/"/);
  });

  it("POST /api/sites: a host that fell back to the main site answers the new site at once", async () => {
    await fx.frame("yx-main", "<p>main site page</p>");
    await fx.page("yx-everywhere", "yx-main");
    assert.match((await fx.primed("/yx-everywhere/", "newcomer.localhost")).text, /main site page/);
    await fx.site("Newcomer", "newcomer.localhost");
    gone(await fx.visit("/yx-everywhere/", "newcomer.localhost"), "the new site has no such page", "no_page");
    gone(await fx.visit("/", "newcomer.localhost"), "the new site has no home page", "no_home_page");
  });

  it("DELETE /api/sites/{id}: its host falls back to the main site at once", async () => {
    await fx.frame("yx-fallback", "<p>main site fallback</p>");
    await fx.page("yx-shared-path", "yx-fallback");
    const site = await fx.site("Leaving", "leaving.localhost");
    await fx.frame("yx-leaving", "<p>the leaving site</p>", site);
    await fx.page("yx-shared-path", "yx-leaving", {}, site);
    await fx.page("yx-only-there", "yx-leaving", {}, site);
    assert.match((await fx.primed("/yx-shared-path/", "leaving.localhost")).text, /the leaving site/);
    await fx.primed("/yx-only-there/", "leaving.localhost");
    ok(await fx.api("DELETE", `/api/sites/${site}`), "DELETE site");
    assert.match(
      served(await fx.visit("/yx-shared-path/", "leaving.localhost"), "fallback", "static"),
      /main site fallback/,
    );
    gone(await fx.visit("/yx-only-there/", "leaving.localhost"), "a page only the deleted site had", "no_page");
  });

  it("POST /cache/flush: an on-request page's cached render is dropped, by address and for the whole site", async () => {
    await fx.frame("yx-content", `<article ${bind("html", "page.content")}></article>`);
    const id = await fx.page("yx-flushed", "yx-content", { content: "as written through the API" });
    assert.equal((await fx.primed("/yx-flushed/")).headers["x-svc-printed"], "cache");
    await outsideTheApi("update pages set content = ? where id = ?", ["written by a tool", id]);
    assert.match(
      (await fx.visit("/yx-flushed/")).text,
      /as written through the API/,
      "the cached render stands until a flush",
    );
    ok(await fx.api("POST", "/cache/flush", { urls: ["/yx-flushed"] }), "flush by address");
    assert.match(served(await fx.visit("/yx-flushed/"), "after flush", "on_request"), /written by a tool/);

    await fx.primed("/yx-flushed/");
    await outsideTheApi("update pages set content = ? where id = ?", ["written by a tool again", id]);
    ok(await fx.api("POST", "/cache/flush", { all: true }), "flush all");
    assert.match(served(await fx.visit("/yx-flushed/"), "after flush all", "on_request"), /written by a tool again/);
  });
});
