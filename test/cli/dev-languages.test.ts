// svc dev on a site with languages (docs/cli.md, "svc dev"): an address is the page the site
// answers there — the default language's pages without a prefix, another language's under
// /<lang>/, the home page and its translation at / and /<lang>/ — and a page file of the folder
// is served at its language's address: a translation's file pages/de/… at /de/…/, with its unsaved
// edits; a file only in the folder (and its parent only in the folder) in its own language.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { rmSync } from "node:fs";
import { read, serve, tempDir, write, type Served } from "./harness.ts";
import { startDev, type DevProcess } from "./dev-process.ts";

const LAYOUT = `<!DOCTYPE html><html><head><title data-op-bind='{"text": "page.title"}'>x</title></head><body><h1 data-op-bind='{"text": "page.title"}'>x</h1><p class="lang" data-op-bind='{"text": "page.lang"}'></p></body></html>`;

describe("svc dev on a site with languages", () => {
  let t: Served;
  let dir: string;
  let dev: DevProcess;
  const get = async (path: string) => {
    const response = await fetch(`${dev.serving.url}${path}`, { redirect: "manual" });
    return { status: response.status, text: await response.text() };
  };
  const title = async (path: string) => {
    const shown = await get(path);
    assert.equal(shown.status, 200, `${path}: ${shown.text.slice(0, 300)}`);
    return /<h1>([^<]*)<\/h1>/.exec(shown.text)?.[1];
  };

  before(async () => {
    t = await serve();
    for (const [method, path, body] of [
      ["POST", "/languages", { code: "en", default: true }],
      ["POST", "/languages", { code: "de" }],
      ["POST", "/frames", { slug: "layout", html: LAYOUT }],
      ["POST", "/pages", { title: "Home", slug: "home", lang: "en", frame: "layout" }],
      ["POST", "/pages/language", { page: "home", lang: "de", title: "Startseite", slug: "start" }],
      ["POST", "/pages", { title: "About", slug: "about", lang: "en", frame: "layout" }],
      ["POST", "/pages/language", { page: "about", lang: "de", title: "Über uns", slug: "ueber-uns" }],
      ["PATCH", "/settings", { home_page: "home" }],
    ] as const) {
      const answer = await t.api(method, path, body);
      assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    dir = tempDir("svc-cli-dev-lang-");
    const pulled = await t.svc(["pull", dir]);
    assert.equal(pulled.code, 0, pulled.stderr);
    dev = await startDev(t, dir, ["--json"]);
  });
  after(async () => {
    if (dev && dev.child.exitCode === null) {
      const exited = once(dev.child, "exit");
      dev.child.kill("SIGINT");
      await exited;
    }
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the server's pages where the site answers them: the default language without a prefix, /de/ for German", async () => {
    assert.equal(await title("/"), "Home");
    assert.equal(await title("/de/"), "Startseite");
    assert.equal(await title("/about/"), "About");
    assert.equal(await title("/de/ueber-uns/"), "Über uns");
    // No page answers /en/about/ on the site: the dev server asks the site, as for any other address.
    assert.equal((await get("/en/about/")).status, (await t.page("/en/about/")).status);
  });

  it("a translation's page file pages/de/… is served at /de/…/ with its unsaved edits", async () => {
    const key = "pages/de/ueber-uns.json";
    const saved = read(dir, key);
    write(dir, key, JSON.stringify({ ...JSON.parse(saved), title: "Über uns (ungespeichert)" }));
    try {
      assert.equal(await title("/de/ueber-uns/"), "Über uns (ungespeichert)");
      assert.equal(await title("/about/"), "About", "the English page is its own");
    } finally {
      write(dir, key, saved);
    }
  });

  it("a page file only in the folder answers at its language's address, rendered in its language", async () => {
    const about = JSON.parse(read(dir, "pages/en/about.json"));
    const files: Record<string, unknown> = {
      "pages/en/pricing.json": { ...about, title: "Pricing" },
      "pages/de/preise.json": { ...about, title: "Preise" },
      "pages/de/doku.json": { ...about, title: "Doku" },
      "pages/de/doku/einstieg.json": { ...about, title: "Einstieg" },
    };
    for (const [key, value] of Object.entries(files)) write(dir, key, JSON.stringify(value));
    const pages = (await t.api("GET", "/pages?status=any")).body.total;
    try {
      assert.equal(await title("/pricing/"), "Pricing");
      assert.equal(await title("/de/preise/"), "Preise");
      assert.match((await get("/de/preise/")).text, /<p class="lang">de<\/p>/);
      assert.equal(await title("/de/doku/einstieg/"), "Einstieg");
      assert.equal((await get("/preise/")).status, (await t.page("/preise/")).status, "not at the default's address");
      assert.equal((await t.api("GET", "/pages?status=any")).body.total, pages, "no page was made");
    } finally {
      for (const key of Object.keys(files)) rmSync(`${dir}/${key}`);
      rmSync(`${dir}/pages/de/doku`, { recursive: true, force: true });
    }
  });
});
