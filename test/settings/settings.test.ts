import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, makeUser, startTestApp, type TestApp } from "../support/app.ts";
import { addLanguage, publish, recordChanges, type Recorder } from "../pages/helpers.ts";

describe("site settings", () => {
  let t: TestApp;
  let recorder: Recorder;
  let n = 0;
  const site = () => makeSite(t, `Settings ${++n}`, `settings${n}.localhost`);
  before(async () => {
    t = await startTestApp();
    recorder = recordChanges(t);
  });
  after(() => t.close());

  it("GET /settings answers every setting with its default: theme default, render_model v2, no language, no home page, no 404 page, no iframe host, the default menu locations", async () => {
    const id = await site();
    const r = await t.call("GET", `/api/site/${id}/settings`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {
      success: true,
      site_id: id,
      settings: {
        name: `Settings ${n}`,
        tagline: "",
        theme: "default",
        default_lang: null,
        home_page: null,
        not_found_page: null,
        iframe_hosts: [],
        menu_locations: ["header", "footer_1", "footer_2", "footer_3"],
        render_model: "v2",
      },
      warnings: [],
    });
  });

  it("menu_locations announces settings [menu_locations] with the locations removed and added (docs/menus.md); a new order alone announces nothing", async () => {
    const id = await site();
    recorder.reset();
    const patch = (menu_locations: unknown, extra: Record<string, unknown> = {}) =>
      t.call("PATCH", `/api/site/${id}/settings`, { body: { menu_locations, ...extra } });
    assert.equal((await patch(["header", "footer_1", "social"])).status, 200);
    assert.deepEqual(recorder.changes(), [
      { kind: "settings", keys: ["menu_locations"], locations: ["footer_2", "footer_3", "social"] },
    ]);
    recorder.reset();
    const reordered = await patch(["social", "header", "footer_1"]);
    assert.deepEqual(reordered.body.changed, ["menu_locations"]);
    assert.deepEqual(recorder.changes(), [], "the same locations print the same");
    recorder.reset();
    assert.equal((await patch(["social", "header"], { tagline: "Both" })).status, 200);
    assert.deepEqual(recorder.changes(), [
      { kind: "settings", keys: ["tagline", "menu_locations"], locations: ["footer_1"] },
    ]);
  });

  it("iframe_hosts: host names normalised as domains are, duplicates dropped; null clears it; a wrong name is 400 naming its entry; it announces nothing (docs/roles.md)", async () => {
    const id = await site();
    recorder.reset();
    const r = await t.call("PATCH", `/api/site/${id}/settings`, {
      body: { iframe_hosts: [" WWW.YouTube-NoCookie.com ", "player.vimeo.com", "www.youtube-nocookie.com"] },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.settings.iframe_hosts, ["www.youtube-nocookie.com", "player.vimeo.com"]);
    assert.deepEqual(r.body.changed, ["iframe_hosts"]);
    assert.deepEqual(recorder.changes(), [], "no page prints it");
    const same = await t.call("PATCH", `/api/site/${id}/settings`, { body: { iframe_hosts: ["player.vimeo.com"] } });
    assert.deepEqual(same.body.settings.iframe_hosts, ["player.vimeo.com"]);
    for (const [hosts, field, reason] of [
      [["ok.example", "https://x.example/"], "iframe_hosts.1", "port_or_path"],
      [["a..b"], "iframe_hosts.0", "empty_label"],
    ] as const) {
      const bad = await t.call("PATCH", `/api/site/${id}/settings`, { body: { iframe_hosts: hosts } });
      assert.equal(bad.status, 400, bad.text);
      assert.deepEqual([bad.body.error, bad.body.field, bad.body.reason], ["invalid_field", field, reason]);
    }
    const cleared = await t.call("PATCH", `/api/site/${id}/settings`, { body: { iframe_hosts: null } });
    assert.deepEqual(cleared.body.settings.iframe_hosts, []);
    assert.deepEqual((await t.call("GET", `/api/site/${id}/settings`)).body.settings.iframe_hosts, []);
  });

  it("PATCH writes name, tagline and theme; name is the site's own name; the answer carries rebaked and what changed", async () => {
    const id = await site();
    recorder.reset();
    const r = await t.call("PATCH", `/api/site/${id}/settings`, {
      body: { name: "Renamed", tagline: "Fresh news", theme: "twentytwenty" },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.settings.name, "Renamed");
    assert.equal(r.body.settings.tagline, "Fresh news");
    assert.equal(r.body.settings.theme, "twentytwenty");
    assert.deepEqual(r.body.changed.sort(), ["name", "tagline", "theme"]);
    assert.equal(r.body.rebaked.status, "ok");
    assert.deepEqual(r.body.warnings, []);
    const back = await t.call("GET", `/api/site/${id}/settings`);
    assert.deepEqual(back.body.settings, r.body.settings);
    const siteRecord = await t.call("GET", `/api/sites/${id}`);
    assert.equal(siteRecord.body.site.name, "Renamed");
    assert.deepEqual(recorder.changes(), [{ kind: "settings", keys: ["name", "tagline", "theme"] }]);
  });

  it("render_model is read-only: setting it answers warning render_model_fixed and it stays v2", async () => {
    const id = await site();
    const r = await t.call("PATCH", `/api/site/${id}/settings`, { body: { render_model: "v1" } });
    assert.equal(r.status, 200);
    assert.equal(r.body.settings.render_model, "v2");
    assert.deepEqual(
      r.body.warnings.map((w: any) => w.code),
      ["render_model_fixed"],
    );
  });

  it("an unknown key is ignored with warning unknown_setting and announces nothing", async () => {
    const id = await site();
    recorder.reset();
    const r = await t.call("PATCH", `/api/site/${id}/settings`, { body: { colour: "red", tagline: "T" } });
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.warnings.map((w: any) => [w.code, w.key]),
      [["unknown_setting", "colour"]],
    );
    assert.equal(r.body.settings.tagline, "T");
    recorder.reset();
    const only = await t.call("PATCH", `/api/site/${id}/settings`, { body: { colour: "blue" } });
    assert.equal(only.status, 200);
    assert.deepEqual(only.body.changed, []);
    assert.deepEqual(recorder.changes(), []);
  });

  it("wrong types and bad values are 400 envelopes naming the field, and nothing of the PATCH is written", async () => {
    const id = await site();
    for (const [body, field] of [
      [{ tagline: 5 }, "tagline"],
      [{ name: ["x"] }, "name"],
      [{ theme: "has spaces", tagline: "not written" }, "theme"],
      [{ tagline: "x".repeat(1001) }, "tagline"],
      [{ home_page: { id: 1 } }, "home_page"],
    ] as const) {
      const r = await t.call("PATCH", `/api/site/${id}/settings`, { body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.success, false);
      assert.equal(r.body.error, "invalid_field");
      assert.equal(r.body.field, field);
    }
    const empty = await t.call("PATCH", `/api/site/${id}/settings`, { body: { name: "   " } });
    assert.equal(empty.body.error, "site_name_required");
    const back = await t.call("GET", `/api/site/${id}/settings`);
    assert.equal(back.body.settings.tagline, "");
    assert.equal(back.body.settings.name, `Settings ${n}`);
  });

  it("home_page is a page reference: kept as written, refused 404 page_not_found when no page answers it, cleared by null", async () => {
    const id = await site();
    const home = await publish(t, id, { title: "Welcome" });
    const bySlug = await t.call("PATCH", `/api/site/${id}/settings`, { body: { home_page: "welcome" } });
    assert.equal(bySlug.status, 200);
    assert.equal(bySlug.body.settings.home_page, "welcome");
    const byId = await t.call("PATCH", `/api/site/${id}/settings`, { body: { home_page: home.page.id } });
    assert.equal(byId.body.settings.home_page, home.page.id);
    const missing = await t.call("PATCH", `/api/site/${id}/settings`, { body: { home_page: "nowhere" } });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "page_not_found");
    assert.equal((await t.call("GET", `/api/site/${id}/settings`)).body.settings.home_page, home.page.id);
    const cleared = await t.call("PATCH", `/api/site/${id}/settings`, { body: { home_page: null } });
    assert.equal(cleared.body.settings.home_page, null);
  });

  it("default_lang: any valid code while the site has no languages; one of its languages once it has them, and writing it moves the default", async () => {
    const id = await site();
    const inactive = await t.call("PATCH", `/api/site/${id}/settings`, { body: { default_lang: "fr" } });
    assert.equal(inactive.status, 200);
    assert.equal(inactive.body.settings.default_lang, "fr");
    const malformed = await t.call("PATCH", `/api/site/${id}/settings`, { body: { default_lang: "french" } });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error, "invalid_language_code");

    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    assert.equal((await t.call("GET", `/api/site/${id}/settings`)).body.settings.default_lang, "en");
    const unknown = await t.call("PATCH", `/api/site/${id}/settings`, { body: { default_lang: "fr" } });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error, "unknown_language");
    assert.deepEqual(unknown.body.languages, ["en", "de"]);

    recorder.reset();
    const moved = await t.call("PATCH", `/api/site/${id}/settings`, { body: { default_lang: "de" } });
    assert.equal(moved.body.settings.default_lang, "de");
    assert.deepEqual(recorder.changes(), [{ kind: "settings", keys: ["default_lang"] }, { kind: "languages" }]);
    const langs = await t.call("GET", `/api/site/${id}/languages`);
    assert.equal(langs.body.default_lang, "de");
    assert.deepEqual(
      langs.body.languages.map((l: any) => [l.code, l.default, l.prefix]),
      [
        ["en", false, "/en/"],
        ["de", true, ""],
      ],
    );
  });

  it("settings are served at the legacy address too, and only to the site's administrators", async () => {
    const id = await site();
    const legacy = await t.call("GET", "/api/settings", { query: { blog_id: String(id) } });
    assert.equal(legacy.status, 200);
    assert.equal(legacy.body.site_id, id);
    const stranger = await makeUser(t, `settings-stranger-${n}`);
    const refused = await t.call("PATCH", `/api/site/${id}/settings`, {
      token: stranger.token,
      body: { tagline: "x" },
    });
    assert.equal(refused.status, 404);
    assert.equal(refused.body.code, "site_not_found");
  });
});
