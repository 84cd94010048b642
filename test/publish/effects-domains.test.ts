// Effect table, domains (docs/publishing.md, docs/domains.md): adding and removing an
// alias, and changing the primary domain, reach the public site on the very next request: on
// SQLite in the one process, under `npm run test:pg` in the other process than the one written
// through (pattern in effects-helpers.ts).
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { effects, ok, served, suite, type Reply } from "./effects-helpers.ts";

/** A 301 of an alias to `location`. */
function moved(reply: Reply, location: string, what: string): void {
  assert.equal(reply.status, 301, `${what}: ${reply.status} ${reply.text.slice(0, 200)}`);
  assert.equal(reply.headers.location, location, `${what}: Location`);
}

describe(suite("domains"), () => {
  const fx = effects();

  /** `http://<domain>[:port]` as home_url names it (the public port of the processes). */
  let port = "";
  const origin = (domain: string) => `http://${domain}${port}`;
  before(async () => {
    const home = ok(await fx.api("GET", "/api/sites/1"), "main site").site.home_url as string;
    port = /:\d+\/$/.exec(home)?.[0].slice(0, -1) ?? "";
  });

  it("POST /api/sites/{id}/domains: a host that fell back to the main site answers 301 to the primary at once", async () => {
    await fx.frame("zd-main", "<p>main site page</p>");
    await fx.page("zd-shared", "zd-main");
    const site = await fx.site("Aliased shop", "zd-shop.localhost");
    await fx.frame("zd-shop", "<p>the shop</p>", site);
    await fx.page("zd-shared", "zd-shop", {}, site);
    assert.match((await fx.primed("/zd-shared/", "www.zd-shop.localhost")).text, /main site page/);
    ok(await fx.api("POST", `/api/sites/${site}/domains`, { domain: "WWW.zd-shop.localhost" }), "add alias", 201);
    // The very next request, whatever it names: a media address first, then a stylesheet's, then a page's.
    moved(
      await fx.visit("/media/2026/01/zd.jpg", "www.zd-shop.localhost"),
      `${origin("zd-shop.localhost")}/media/2026/01/zd.jpg`,
      "a media address on the alias",
    );
    moved(
      await fx.visit("/styles/site.0123456789abcdef.css", "www.zd-shop.localhost"),
      `${origin("zd-shop.localhost")}/styles/site.0123456789abcdef.css`,
      "a stylesheet address on the alias",
    );
    moved(
      await fx.visit("/zd-shared/?a=1", "www.zd-shop.localhost"),
      `${origin("zd-shop.localhost")}/zd-shared/?a=1`,
      "the alias",
    );
    assert.match(served(await fx.visit("/zd-shared/", "zd-shop.localhost"), "the primary"), /the shop/);
  });

  it("DELETE /api/sites/{id}/domains/{domain}: the alias answers as an unknown host (the main site) at once", async () => {
    await fx.frame("zd-fallback", "<p>main site fallback</p>");
    await fx.page("zd-either", "zd-fallback");
    const site = await fx.site("Losing an alias", "zd-losing.localhost");
    await fx.frame("zd-losing", "<p>the losing site</p>", site);
    await fx.page("zd-either", "zd-losing", {}, site);
    ok(await fx.api("POST", `/api/sites/${site}/domains`, { domain: "old.zd-losing.localhost" }), "add alias", 201);
    for (let i = 0; i < 2; i++)
      moved(
        await fx.visit("/zd-either/", "old.zd-losing.localhost"),
        `${origin("zd-losing.localhost")}/zd-either/`,
        "before",
      );
    ok(await fx.api("DELETE", `/api/sites/${site}/domains/old.zd-losing.localhost`), "remove alias");
    assert.match(
      served(await fx.visit("/zd-either/", "old.zd-losing.localhost"), "after", "static"),
      /main site fallback/,
    );
  });

  it("PATCH /api/sites/{id} domain: the aliases redirect to the new primary at once, a promoted alias answers the site, the old primary the main site", async () => {
    await fx.frame("zd-main-moving", "<p>main site moving</p>");
    await fx.page("zd-moving", "zd-main-moving");
    const site = await fx.site("Moving primary", "zd-before.localhost");
    await fx.frame("zd-site-moving", "<p>the moving site</p>", site);
    await fx.page("zd-moving", "zd-site-moving", {}, site);
    ok(await fx.api("POST", `/api/sites/${site}/domains`, { domain: "alias.zd-before.localhost" }), "alias", 201);
    ok(await fx.api("POST", `/api/sites/${site}/domains`, { domain: "zd-after.localhost" }), "future primary", 201);
    for (let i = 0; i < 2; i++) {
      moved(
        await fx.visit("/zd-moving/", "alias.zd-before.localhost"),
        `${origin("zd-before.localhost")}/zd-moving/`,
        "alias before",
      );
      moved(
        await fx.visit("/zd-moving/", "zd-after.localhost"),
        `${origin("zd-before.localhost")}/zd-moving/`,
        "future primary before",
      );
    }
    await fx.primed("/zd-moving/", "zd-before.localhost");
    ok(await fx.api("PATCH", `/api/sites/${site}`, { domain: "zd-after.localhost" }), "PATCH domain");
    moved(
      await fx.visit("/zd-moving/", "alias.zd-before.localhost"),
      `${origin("zd-after.localhost")}/zd-moving/`,
      "alias after",
    );
    assert.match(
      served(await fx.visit("/zd-moving/", "zd-after.localhost"), "promoted alias", "static"),
      /the moving site/,
    );
    assert.match(served(await fx.visit("/zd-moving/", "zd-before.localhost"), "old primary"), /main site moving/);
  });
});
