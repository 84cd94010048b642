// The setting menu_locations (docs/menus.md, "Locations"): a site's own list of menu locations,
// written by administrators through PATCH /settings and read by every menu call, the data source
// menu.<location> and the frame warnings; a location a menu is assigned to (in any theme or
// language map) cannot be removed (409 location_in_use, nothing written).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeUser, type TestApp } from "../support/app.ts";
import { ok, seoSite as newSite, startTestApp, type SeoSite } from "../seo/helpers.ts";

const DEFAULT = ["header", "footer_1", "footer_2", "footer_3"];

describe("menu_locations", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  const locations = async (site: SeoSite) => ok(await site.api("GET", "/settings"), "GET").settings.menu_locations;

  it("GET /settings answers the default list; PATCH writes the site's own (names trimmed, in order), GET and GET /menus answer it; null brings the default back", async () => {
    const site = await newSite(t);
    assert.deepEqual(await locations(site), DEFAULT);
    const written = ok(
      await site.api("PATCH", "/settings", { menu_locations: [" primary ", "footer_1", "social-links"] }),
      "PATCH",
    );
    assert.deepEqual(written.changed, ["menu_locations"]);
    assert.deepEqual(written.settings.menu_locations, ["primary", "footer_1", "social-links"]);
    assert.deepEqual(await locations(site), ["primary", "footer_1", "social-links"]);
    assert.deepEqual(ok(await site.api("GET", "/menus"), "GET /menus").locations, [
      "primary",
      "footer_1",
      "social-links",
    ]);
    const same = ok(
      await site.api("PATCH", "/settings", { menu_locations: ["primary", "footer_1", "social-links"] }),
      "same",
    );
    assert.deepEqual(same.changed, [], "the same list changes nothing");
    ok(await site.api("PATCH", "/settings", { menu_locations: null }), "null");
    assert.deepEqual(await locations(site), DEFAULT);
  });

  it("400 invalid_field for a list that is no list of 1 to 50 unique slugs, naming the entry; nothing written; an editor is 403", async () => {
    const site = await newSite(t);
    const refusals: Array<[unknown, string, string | undefined]> = [
      ["header", "menu_locations", undefined],
      [[], "menu_locations", "empty"],
      [Array.from({ length: 51 }, (_, i) => `l${i}`), "menu_locations", "too_many"],
      [["header", "Footer"], "menu_locations.1", "not_a_slug"],
      [["header", "foot er"], "menu_locations.1", "not_a_slug"],
      [["header", "-x"], "menu_locations.1", "not_a_slug"],
      [["x".repeat(51)], "menu_locations.0", "not_a_slug"],
      [["header", " header"], "menu_locations.1", "duplicate"],
      [["header", 3], "menu_locations.1", undefined],
    ];
    for (const [value, field, reason] of refusals) {
      const r = await site.api("PATCH", "/settings", { menu_locations: value });
      assert.equal(r.status, 400, `${JSON.stringify(value)}: ${r.text}`);
      assert.equal(r.body.error, "invalid_field");
      assert.equal(r.body.field, field, JSON.stringify(value));
      if (reason) assert.equal(r.body.reason, reason, JSON.stringify(value));
    }
    ok(await site.api("PATCH", "/settings", { menu_locations: Array.from({ length: 50 }, (_, i) => `l${i}`) }), "50");
    assert.equal((await locations(site)).length, 50);

    const editor = await makeUser(t, `locations-editor-${site.id}`);
    ok(await site.api("PUT", `/users/${editor.id}`, { role: "editor" }), "editor role");
    const refused = await t.call("PATCH", `/api/site/${site.id}/settings`, {
      token: editor.token,
      body: { menu_locations: ["header"] },
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, "insufficient_role");
  });

  it("menus assign only to the site's locations: another name is 400 unknown_location with the site's list (PUT …/location, POST /menus, ~location, /data/menu.<location>); a location added takes a menu", async () => {
    const site = await newSite(t);
    ok(await site.api("POST", "/menus", { name: "Social" }), "menu", 201);
    for (const [method, path, body] of [
      ["PUT", "/menus/social/location", { location: "social" }],
      ["POST", "/menus", { name: "Other", location: "social" }],
      ["GET", "/menus/~social", undefined],
      ["GET", "/data/menu.social", undefined],
    ] as const) {
      const r = await site.api(method, path, body);
      assert.equal(r.status, 400, `${method} ${path}: ${r.text}`);
      assert.equal(r.body.error, "unknown_location");
      assert.deepEqual(r.body.locations, DEFAULT, `${method} ${path}`);
    }
    ok(await site.api("PATCH", "/settings", { menu_locations: [...DEFAULT, "social"] }), "add social");
    const put = ok(await site.api("PUT", "/menus/social/location", { location: "social" }), "assign");
    assert.deepEqual(put.assigned, [{ location: "social", lang: null }]);
    assert.equal(ok(await site.api("GET", "/menus/~social"), "~social").menu.slug, "social");
    assert.equal(ok(await site.api("GET", "/data/menu.social"), "data").meta.location, "social");
    // `assigned` follows the site's order of locations.
    ok(await site.api("PATCH", "/settings", { menu_locations: ["social", ...DEFAULT] }), "reorder");
    ok(await site.api("PUT", "/menus/social/location", { location: "header" }), "header too");
    assert.deepEqual(
      ok(await site.api("GET", "/menus/social"), "GET").menu.assigned.map((a: { location: string }) => a.location),
      ["social", "header"],
    );
  });

  it("removing a location a menu is assigned to (in any theme's map) is 409 location_in_use with the assignments, dry run too, nothing written; freed, it goes", async () => {
    const site = await newSite(t);
    ok(await site.api("POST", "/menus", { name: "Foot", location: "footer_3" }), "menu", 201);
    ok(await site.api("POST", "/menus", { name: "Old", location: "footer_2", theme: "old-theme" }), "other theme", 201);
    const without = (name: string) => DEFAULT.filter((l) => l !== name);
    for (const query of ["", "?dry_run=1"]) {
      const r = await site.api("PATCH", `/settings${query}`, { menu_locations: ["header", "footer_1"] });
      assert.equal(r.status, 409, `${query}: ${r.text}`);
      assert.equal(r.body.error, "location_in_use");
      assert.deepEqual(r.body.locations, ["footer_2", "footer_3"]);
      assert.deepEqual(
        r.body.assigned.map((a: any) => [a.location, a.theme, a.lang, a.menu.slug]),
        [
          ["footer_2", "old-theme", null, "old"],
          ["footer_3", "default", null, "foot"],
        ],
      );
    }
    assert.deepEqual(await locations(site), DEFAULT, "nothing written");
    // A free location goes; one still held does not.
    ok(await site.api("PATCH", "/settings", { menu_locations: without("footer_1") }), "footer_1 is free");
    ok(await site.api("DELETE", "/menus/foot/location", { location: "footer_3" }), "free footer_3");
    ok(await site.api("PATCH", "/settings", { menu_locations: ["header", "footer_2"] }), "footer_3 freed");
    assert.deepEqual(await locations(site), ["header", "footer_2"]);
  });

  it("a frame reading menu.<location> the site lacks is warned at its write with the site's list; once the location is added, it is not", async () => {
    const site = await newSite(t);
    const html = `<nav><!-- svc/menu {"location": "social"} /--></nav>`;
    const warned = ok(await site.api("POST", "/frames", { slug: "nav", html, dry_run: true }), "dry run");
    const warning = warned.warnings.find((w: any) => w.code === "unknown_source");
    assert.equal(warning?.source, "menu.social");
    assert.match(warning.message, /header, footer_1, footer_2, footer_3/);
    ok(await site.api("PATCH", "/settings", { menu_locations: ["header", "social"] }), "add social");
    const clean = ok(await site.api("POST", "/frames", { slug: "nav", html, dry_run: true }), "dry run");
    assert.deepEqual(
      clean.warnings.filter((w: any) => w.code === "unknown_source"),
      [],
    );
  });
});
