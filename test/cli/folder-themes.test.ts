// sidebars/<name>[.<lang>].json and the stylesheets of every theme (styles/ the site's theme,
// themes/<theme>/ the others): pull writes them, a push into an empty site makes them, a second
// push sends nothing, status sees a change.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { read, serve, tempDir, write, type Served } from "./harness.ts";
import { must, newSite, svcSite } from "./folder-helpers.ts";

describe("svc and sidebars, every theme's stylesheets", () => {
  let t: Served;
  let source: number;
  const dir = tempDir("svc-folder-themes-");
  before(async () => {
    t = await serve();
    source = (await newSite(t, "Source")).id;
    await must(t, source, "POST", "/languages", { code: "en" });
    await must(t, source, "POST", "/languages", { code: "de" });
    await must(t, source, "PATCH", "/settings", { theme: "studio" });
    await must(t, source, "PUT", "/styles/main", { css: "body { color: #111 }" });
    await must(t, source, "PUT", "/styles/main", { css: "body { color: #999 }", theme: "classic" });
    const docs = await must(t, source, "POST", "/pages", { title: "Docs", slug: "docs" });
    await must(t, source, "POST", "/pages", { title: "Intro", slug: "intro", parent: "/docs" });
    await must(t, source, "POST", "/pages/language", { page: docs.page.id, lang: "de", title: "Doku", slug: "doku" });
    await must(t, source, "PUT", "/sidebars/guide", {
      items: [
        { page: "/docs/intro", label: "Start here" },
        { label: "More", items: [{ url: "https://example.org/", label: "Example" }], open: true },
      ],
    });
    await must(t, source, "PUT", "/sidebars/guide", { lang: "de", items: [{ page: "/de/doku" }] });
    await must(t, source, "PUT", "/sidebars/tree", { root: "/docs" });
  });
  after(async () => {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("pull writes each sidebar's trees and every theme's stylesheets", async () => {
    const run = await svcSite(t, source, ["pull", dir]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(read(dir, "sidebars/guide.json")), {
      items: [
        { page: "/docs/intro", label: "Start here" },
        { label: "More", items: [{ url: "https://example.org/", label: "Example" }], open: true },
      ],
    });
    assert.deepEqual(JSON.parse(read(dir, "sidebars/guide.de.json")), { items: [{ page: "/de/doku" }] });
    assert.deepEqual(JSON.parse(read(dir, "sidebars/tree.json")), { root: "/docs" });
    assert.equal(read(dir, "styles/main.css"), "body { color: #111 }");
    assert.equal(read(dir, "themes/classic/main.css"), "body { color: #999 }");
  });

  it("a push into an empty site makes them; a second push sends nothing", async () => {
    const target = (await newSite(t, "Target")).id;
    const push = await svcSite(t, target, ["push", dir, "--force"]);
    assert.equal(push.code, 0, push.stdout + push.stderr);
    const styles = await must(t, target, "GET", "/styles");
    assert.equal(styles.theme, "studio");
    assert.deepEqual(styles.themes, ["classic", "studio"]);
    const classic = await must(t, target, "GET", "/styles/main?theme=classic");
    assert.equal(classic.style.css, "body { color: #999 }");
    const de = (await must(t, target, "GET", "/sidebars/guide?lang=de")).sidebar;
    assert.equal(de.items.length, 1);
    assert.equal((await must(t, target, "GET", "/sidebars/tree")).sidebar.items.length, 1);
    const before = t.writes();
    const again = await svcSite(t, target, ["push", dir]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(t.writes(), before, again.stdout);
    assert.match((await svcSite(t, target, ["status", dir])).stdout, /in sync/);
  });

  it("status sees another theme's stylesheet changed on the server; a sidebar changed here is pushed", async () => {
    await must(t, source, "PUT", "/styles/main", { css: "body { color: #000 }", theme: "classic" });
    assert.match((await svcSite(t, source, ["status", dir])).stdout, /^server\s+themes\/classic\/main\.css/m);
    assert.equal((await svcSite(t, source, ["pull", dir])).code, 0);
    assert.equal(read(dir, "themes/classic/main.css"), "body { color: #000 }");
    write(dir, "sidebars/guide.json", JSON.stringify({ items: [{ page: "/docs" }] }));
    const push = await svcSite(t, source, ["push", dir]);
    assert.equal(push.code, 0, push.stdout + push.stderr);
    assert.match(push.stdout, /^update\s+sidebars\/guide\.json/m);
    const items = (await must(t, source, "GET", "/sidebars/guide")).sidebar.items;
    assert.deepEqual(
      items.map((i: { label: string }) => i.label),
      ["Docs"],
    );
  });
});
