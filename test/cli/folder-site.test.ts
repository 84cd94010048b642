// redirects.csv, seo.json and the menu locations and iframe hosts of settings.json: pull writes
// them, a push into an empty site makes them (a menu placed in a location the push adds), a
// second push sends nothing, status sees a change on either side.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { read, serve, tempDir, write, type Served } from "./harness.ts";
import { must, newSite, svcSite } from "./folder-helpers.ts";

describe("svc and redirects, SEO defaults, menu locations, iframe hosts", () => {
  let t: Served;
  let source: number;
  const dir = tempDir("svc-folder-site-");
  before(async () => {
    t = await serve();
    source = (await newSite(t, "Source")).id;
    await must(t, source, "POST", "/languages", { code: "en" });
    await must(t, source, "POST", "/languages", { code: "de" });
    await must(t, source, "PATCH", "/settings", {
      menu_locations: ["header", "social"],
      iframe_hosts: ["www.youtube.com"],
    });
    await must(t, source, "POST", "/menus", {
      name: "Social",
      location: "social",
      items: [{ url: "https://example.org/", title: "Us" }],
    });
    await must(t, source, "PATCH", "/seo", {
      description: { en: "We make things.", de: "Wir machen Dinge." },
      twitter_site: "@maker",
    });
    await must(t, source, "POST", "/seo/redirects", {
      redirects: [
        { from: "/old", to: "/new" },
        { from: "/gone?a=1,2", to: "https://example.org/", status: 302 },
      ],
    });
  });
  after(async () => {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("pull writes redirects.csv as the API's CSV, seo.json per language, and the settings' locations and hosts", async () => {
    const run = await svcSite(t, source, ["pull", dir]);
    assert.equal(run.code, 0, run.stderr);
    const csv = read(dir, "redirects.csv");
    assert.equal(
      csv,
      (await t.api("GET", `/api/site/${source}/seo/redirects`, undefined, { accept: "text/csv" })).body,
    );
    assert.match(csv, /^from,to,status\r\n/);
    const seo = JSON.parse(read(dir, "seo.json"));
    assert.equal(seo.description, "We make things.");
    assert.equal(seo.twitter_site, "@maker");
    assert.equal(seo.languages.de.description, "Wir machen Dinge.");
    const settings = JSON.parse(read(dir, "settings.json"));
    assert.deepEqual(settings.menu_locations, ["header", "social"]);
    assert.deepEqual(settings.iframe_hosts, ["www.youtube.com"]);
  });

  it("a push into an empty site makes them; a second push sends nothing", async () => {
    const target = (await newSite(t, "Target")).id;
    const push = await svcSite(t, target, ["push", dir, "--force"]);
    assert.equal(push.code, 0, push.stdout + push.stderr);
    const csv = (await t.api("GET", `/api/site/${target}/seo/redirects`, undefined, { accept: "text/csv" })).body;
    assert.equal(csv, read(dir, "redirects.csv"));
    const seo = (await must(t, target, "GET", "/seo")).seo;
    assert.equal(seo.languages.de.description, "Wir machen Dinge.");
    assert.equal(seo.description, "We make things.");
    const settings = (await must(t, target, "GET", "/settings")).settings;
    assert.deepEqual(settings.menu_locations, ["header", "social"]);
    assert.deepEqual(settings.iframe_hosts, ["www.youtube.com"]);
    const menus = (await must(t, target, "GET", "/menus")).menus;
    assert.equal(menus.length, 1);
    const before = t.writes();
    const again = await svcSite(t, target, ["push", dir]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(t.writes(), before, again.stdout);
    assert.match((await svcSite(t, target, ["status", dir])).stdout, /in sync/);
  });

  it("status sees a redirect added on the server; a redirect removed here is deleted there by a push", async () => {
    await must(t, source, "POST", "/seo/redirects", { from: "/third", to: "/new" });
    assert.match((await svcSite(t, source, ["status", dir])).stdout, /^server\s+redirects\.csv/m);
    assert.equal((await svcSite(t, source, ["pull", dir])).code, 0);
    assert.match(read(dir, "redirects.csv"), /\/third\//);
    // Saved by an editor with LF line ends and without the default status: the same rows.
    write(dir, "redirects.csv", "from,to\n/old/,/new\n/third/,/new\n");
    const push = await svcSite(t, source, ["push", dir]);
    assert.equal(push.code, 0, push.stdout + push.stderr);
    const froms = (await must(t, source, "GET", "/seo/redirects")).redirects.map((r: { from: string }) => r.from);
    assert.deepEqual(froms.sort(), ["/old/", "/third/"]);
    assert.match((await svcSite(t, source, ["status", dir])).stdout, /in sync/);
  });
});
