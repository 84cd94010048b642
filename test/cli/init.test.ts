// `svc init <folder>` writes the starter site (docs/cli.md, "svc init"), run as a user runs it: the
// built dist/cli.js from a folder outside the checkout. Then `svc push --strict` sends it into a
// new site of the built service, and the site works: every public page answers 200 in English and
// German (the news list's page 2 too), both feeds are Atom, axe-core finds no WCAG A or AA
// violation on any page in headless Chromium, and a second push sends nothing. A folder that
// holds anything is refused before a file is written.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Browser, Page } from "playwright-core";
import { violations } from "../support/axe.ts";
import { launchChromium, withBrowser } from "../support/browser.ts";
import { must, newSite, publicPage, svcSite } from "./folder-helpers.ts";
import { runSvc, serve, tempDir, type Served } from "./harness.ts";

const STARTER = new URL("../../starter/", import.meta.url).pathname;

/** Every file under a folder, as keys with `/`, sorted (`.svc/` left out). */
function filesIn(dir: string): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== ".svc") walk(full);
      } else out.push(relative(dir, full).split("\\").join("/"));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * A feed as the browser's XML parser reads it (source text: a function given to page.evaluate would
 * carry the helpers tsx adds to named functions, which the page lacks).
 */
const ATOM_SUMMARY = `(xml) => {
  const atom = "http://www.w3.org/2005/Atom";
  const doc = new DOMParser().parseFromString(xml, "application/xml");
  const root = doc.documentElement;
  const text = (parent, name) => parent.getElementsByTagNameNS(atom, name)[0]?.textContent ?? "";
  return {
    error: doc.getElementsByTagName("parsererror").length > 0,
    root: root.namespaceURI + " " + root.localName,
    head: [text(root, "id"), text(root, "title"), text(root, "updated")].every(Boolean),
    entries: [...root.getElementsByTagNameNS(atom, "entry")].map((entry) => ({
      complete: [text(entry, "id"), text(entry, "title"), text(entry, "updated")].every(Boolean),
      link: entry.getElementsByTagNameNS(atom, "link")[0]?.getAttribute("href") ?? "",
    })),
  };
}`;

interface AtomSummary {
  error: boolean;
  root: string;
  head: boolean;
  entries: Array<{ complete: boolean; link: string }>;
}

/** The starter's files as `svc init` names them in the new folder. */
const starterKeys = () =>
  filesIn(STARTER)
    .map((key) => (key === "gitignore" ? ".gitignore" : key))
    .sort();

describe("svc init: a starter site", () => {
  const root = tempDir("svc-init-");

  after(() => rmSync(root, { recursive: true, force: true }));

  it("writes the starter into a new folder, run from a folder outside the checkout", async () => {
    const run = await runSvc(["init", "site"], { cwd: root });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const dir = join(root, "site");
    assert.deepEqual(filesIn(dir), starterKeys());
    for (const key of ["frames/base.html", "pages/de/start.md", "styles/main.css"])
      assert.equal(readFileSync(join(dir, key), "utf8"), readFileSync(join(STARTER, key), "utf8"), key);
    assert.match(run.stdout, /^create {7}pages\/en\/home\.md$/m);
    assert.match(run.stderr, /^next: svc push site /m);
  });

  it("refuses a folder that holds a file: exit 2, nothing written", async () => {
    const dir = join(root, "taken");
    mkdirSync(dir);
    writeFileSync(join(dir, "notes.txt"), "mine");
    const run = await runSvc(["init", dir], { cwd: root });
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(run.stderr, /^not_empty: .*notes\.txt.*nothing was written/m);
    assert.deepEqual(readdirSync(dir), ["notes.txt"]);
  });

  it("takes a folder holding only .git (a new repository) as empty", async () => {
    const dir = join(root, "repository");
    mkdirSync(join(dir, ".git"), { recursive: true });
    const run = await runSvc(["init", "repository", "--json"], { cwd: root });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const doc = JSON.parse(run.stdout);
    assert.deepEqual([doc.ok, doc.command, doc.kept], [true, "init", []]);
    assert.deepEqual(doc.written, starterKeys());
  });

  it("with --force writes beside what is there and overwrites nothing", async () => {
    const dir = join(root, "forced");
    mkdirSync(dir);
    writeFileSync(join(dir, "settings.json"), '{"name": "Mine"}\n');
    const run = await runSvc(["init", "forced", "--force", "--name", "Acme"], { cwd: root });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^exists {7}settings\.json {2}\(kept as it is\)$/m);
    assert.equal(readFileSync(join(dir, "settings.json"), "utf8"), '{"name": "Mine"}\n');
    assert.equal(JSON.parse(readFileSync(join(dir, "seo.json"), "utf8")).title_template, "%s — Acme");
    assert.ok(existsSync(join(dir, "frames/base.html")));
  });

  it("--name names the site in settings.json and the SEO title template", async () => {
    const run = await runSvc(["init", "named", "--name", "Acme"], { cwd: root });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(JSON.parse(readFileSync(join(root, "named/settings.json"), "utf8")).name, "Acme");
    const seo = JSON.parse(readFileSync(join(root, "named/seo.json"), "utf8"));
    assert.deepEqual([seo.title_template, seo.languages.en.title_template], ["%s — Acme", "%s — Acme"]);
  });
});

describe("the starter pushed into a new site", () => {
  let t: Served;
  let site: { id: number; domain: string };
  const root = tempDir("svc-init-push-");
  const dir = join(root, "site");
  /** Every public HTML address of the site, and its feeds. */
  const pages: string[] = [];
  const feeds = ["/news/feed.xml", "/de/neuigkeiten/feed.xml"];

  before(async () => {
    t = await serve({ SVC_PUBLIC_RATE_LIMIT_PER_MIN: "100000" });
    site = await newSite(t, "Fresh");
    const init = await runSvc(["init", "site"], { cwd: root });
    assert.equal(init.code, 0, init.stdout + init.stderr);
  });

  after(async () => {
    await t?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it("svc push --strict sends it with no warning and no conflict (the new site's settings and SEO defaults give way)", async () => {
    const push = await svcSite(t, site.id, ["push", dir, "--strict"]);
    assert.equal(push.code, 0, push.stdout + push.stderr);
    assert.doesNotMatch(push.stderr, /warning/);
    assert.match(push.stdout, /^update {7}settings\.json {2}\(a new site's own; the folder's is sent\)$/m);
    assert.match(push.stdout, /^create {7}frames\/base\.html$/m);
    const again = await svcSite(t, site.id, ["push", dir, "--strict"]);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /\(0 writes sent\)$/m);
  });

  it("its files are the form svc pull writes: a pull into another folder gives the same files", async () => {
    const back = join(root, "pulled");
    const pull = await svcSite(t, site.id, ["pull", back]);
    assert.equal(pull.code, 0, pull.stdout + pull.stderr);
    const extra = new Set([".gitignore", "README.md", "svc.json"]);
    const keys = filesIn(dir).filter((key) => !extra.has(key));
    assert.deepEqual(filesIn(back), keys);
    for (const key of keys)
      assert.equal(readFileSync(join(back, key), "utf8"), readFileSync(join(dir, key), "utf8"), key);
  });

  it("every public page answers 200 in both languages, the news list's page 2 too", async () => {
    const listed = (await must(t, site.id, "GET", "/pages")).pages as Array<{ url: string; lang: string }>;
    assert.deepEqual([...new Set(listed.map((p) => p.lang))].sort(), ["de", "en"]);
    // The home page and its translation answer at / and /de/; their own paths redirect there.
    const homes = new Map([
      ["/home/", "/"],
      ["/de/start/", "/de/"],
    ]);
    for (const [own, home] of homes) {
      const answer = await publicPage(t, site.domain, own);
      assert.deepEqual([answer.status, new URL(answer.location, `http://${site.domain}`).pathname], [301, home], own);
    }
    const paths = new Set(["/", "/de/", "/news/page/2/", "/de/neuigkeiten/page/2/"]);
    for (const page of listed) paths.add(new URL(page.url).pathname);
    for (const own of homes.keys()) paths.delete(own);
    pages.push(...[...paths].sort());
    assert.ok(pages.length >= 16, pages.join(" "));
    for (const path of pages) {
      const answer = await publicPage(t, site.domain, path);
      assert.equal(answer.status, 200, `${path}: ${answer.status} ${answer.location}`);
      assert.match(answer.type, /^text\/html/, path);
      const lang = path.startsWith("/de/") ? "de" : "en";
      assert.match(answer.text, new RegExp(`<html lang="${lang}">`), path);
    }
    const second = await publicPage(t, site.domain, "/news/page/2/");
    assert.match(second.text, /Our new site is online/, "the oldest post is on page 2");
    const home = await publicPage(t, site.domain, "/de/");
    assert.match(home.text, /<a href="[^"]*\/de\/ueber-uns\/">Über uns<\/a>/, "the German header menu");
    assert.match(home.text, /Gemacht mit der Starter-Website/, "the German footer text");
  });

  describe("in a real browser", withBrowser, () => {
    let browser: Browser;
    let page: Page;
    const origin = () => `http://${site.domain}:${new URL(t.url).port}`;

    before(async () => {
      browser = await launchChromium();
      page = await browser.newPage();
    });
    after(() => browser?.close());

    it("both feeds are well-formed Atom with their posts", async () => {
      await page.goto(`${origin()}/`);
      for (const path of feeds) {
        const answer = await publicPage(t, site.domain, path);
        assert.equal(answer.status, 200, path);
        assert.match(answer.type, /^application\/atom\+xml/, path);
        const feed: AtomSummary = await page.evaluate(`(${ATOM_SUMMARY})(${JSON.stringify(answer.text)})`);
        assert.deepEqual([feed.error, feed.root, feed.head], [false, "http://www.w3.org/2005/Atom feed", true], path);
        assert.equal(feed.entries.length, 3, path);
        for (const entry of feed.entries) {
          assert.ok(entry.complete, path);
          assert.ok(entry.link.startsWith(`http://${site.domain}${path.replace("feed.xml", "")}`), entry.link);
        }
      }
    });

    it("axe-core finds no WCAG A or AA violation on any page", async () => {
      assert.ok(pages.length > 0, "the pages were listed first");
      for (const path of pages) {
        const answer = await page.goto(`${origin()}${path}`);
        assert.equal(answer?.status(), 200, path);
        assert.deepEqual(await violations(page), [], path);
      }
    });

    it("the stylesheet loads, focus is visible and a narrow screen gets one column", async () => {
      await page.setViewportSize({ width: 360, height: 740 });
      await page.goto(`${origin()}/about/`);
      const stacked = await page.evaluate(
        () => getComputedStyle(document.querySelector(".header-inner")!).flexDirection,
      );
      assert.equal(stacked, "column");
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement;
        return { text: element.textContent, outline: getComputedStyle(element).outlineStyle };
      });
      assert.deepEqual(focused, { text: "Skip to content", outline: "solid" });
      await page.setViewportSize({ width: 1200, height: 800 });
      const row = await page.evaluate(() => getComputedStyle(document.querySelector(".header-inner")!).flexDirection);
      assert.equal(row, "row");
    });
  });
});
