// `svc export-static` (docs/cli.md, "svc export-static") as a user runs it, the built dist/cli.js
// against the built service: the starter site with media and variants, a stylesheet naming that
// media, a 404 page, redirects and a page no menu names, exported three ways (links on a base
// URL, relative, root-relative). Every page of the export is the service's apart from its links;
// served by Debian's nginx and crawled from the home page in headless Chromium, no link is broken
// and none points at the service or the site's own domain. Then one page changed and one deleted:
// a second export, by content hash or with --since, rewrites and deletes only those files.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { launchChromium, withBrowser } from "../support/browser.ts";
import { findNginx, startNginx, type RunningNginx } from "../support/nginx.ts";
import { freePort } from "../support/ports.ts";
import {
  buildSite,
  filesIn,
  STATIC_TYPES,
  LINKS_IN_PAGE,
  linksResolved,
  staticServer,
  type BuiltSite,
} from "./export-static-helpers.ts";
import { must, publicPage, svcSite } from "./folder-helpers.ts";
import { parseOne, serve, tempDir, type Served } from "./harness.ts";

const nginx = findNginx();
const TEXT_FILES = /(\.html|\.css|\.xml|\.txt|_redirects)$/;

describe("svc export-static", () => {
  let t: Served;
  let site: BuiltSite;
  const root = tempDir("svc-export-");
  const based = join(root, "based");
  const relative = join(root, "relative");
  const plain = join(root, "plain");
  const ports: number[] = [];
  const origin = (index: number) => `http://127.0.0.1:${ports[index]}`;
  let siteOrigin = "";
  const first: Record<string, any> = {};

  before(async () => {
    chmodSync(root, 0o755);
    t = await serve({ SVC_PUBLIC_RATE_LIMIT_PER_MIN: "100000" });
    site = await buildSite(t);
    siteOrigin = `http://${site.domain}`;
    ports.push(await freePort(), await freePort());
    const runs: Array<[string, string[]]> = [
      ["based", ["--out", based, "--base-url", origin(0)]],
      ["relative", ["--out", relative, "--relative", "--base-url", `${origin(1)}/`]],
      ["plain", ["--out", plain]],
    ];
    for (const [name, args] of runs) {
      const run = await svcSite(t, site.id, ["export-static", ...args, "--json"]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      first[name] = parseOne(run);
    }
  });

  after(async () => {
    await t?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it("writes every page in both languages, media and variants, the stylesheet, sitemap, robots.txt, 404.html and _redirects", () => {
    const files = filesIn(based);
    for (const file of [
      "index.html",
      "de/index.html",
      "about/index.html",
      "de/ueber-uns/index.html",
      "legal/index.html",
      "news/index.html",
      "news/page/2/index.html",
      "de/neuigkeiten/page/2/index.html",
      "news/feed.xml",
      "sitemap.xml",
      "robots.txt",
      "404.html",
      "_redirects",
    ])
      assert.ok(files.includes(file), `${file} in ${files.join(" ")}`);
    const media = files.filter((file) => file.startsWith("media/"));
    assert.deepEqual(
      media.map((file) => file.split("/").pop()),
      ["photo-320w.webp", "photo-640w.webp", "photo.png"],
    );
    const css = files.filter((file) => /^styles\/main\.\w+\.css$/.test(file));
    assert.equal(css.length, 1, files.join(" "));
    assert.match(readFileSync(join(based, css[0]), "utf8"), new RegExp(`url\\("?${origin(0)}/${media[2]}"?\\)`));
    assert.deepEqual(first.based.counts, { written: files.length, unchanged: 0, deleted: 0 });
    assert.ok(!files.some((file) => file.startsWith("not-found/")), "the draft 404 page is not a page of the export");
  });

  it("_redirects holds one line per redirect of the site and the home pages' own paths; a query redirect is reported", () => {
    const lines = readFileSync(join(based, "_redirects"), "utf8").trim().split("\n").sort();
    assert.deepEqual(lines, [
      "/de/start/ /de/ 301",
      "/elsewhere/ https://example.com/ 302",
      "/home/ / 301",
      "/old-about/ /about/ 301",
    ]);
    assert.deepEqual(first.based.skipped_redirects, ["/?page_id=7"]);
  });

  it("no file of the export names the service's address or the site's domain", () => {
    for (const dir of [based, relative])
      for (const file of filesIn(dir).filter((name) => TEXT_FILES.test(name))) {
        const text = readFileSync(join(dir, file), "utf8");
        assert.ok(!text.includes(t.url), `${file} names ${t.url}`);
        assert.ok(!text.includes(`://${site.domain}`), `${file} names ${site.domain}`);
      }
  });

  it("every page, the 404 page and the sitemap are the service's apart from their links", async () => {
    for (const [dir, index] of [
      [based, 0],
      [relative, 1],
    ] as const) {
      const manifest = JSON.parse(readFileSync(join(dir, ".svc-export.json"), "utf8"));
      const origins = [siteOrigin, origin(index)];
      let pages = 0;
      for (const [address, entry] of Object.entries<any>(manifest.files)) {
        if (!entry.page || !address.startsWith("/")) continue;
        const served = await publicPage(t, site.domain, address);
        assert.equal(served.status, 200, address);
        const exported = readFileSync(join(dir, entry.file), "utf8");
        assert.equal(
          linksResolved(exported, `${origin(index)}${address}`, origins),
          linksResolved(served.text, `${siteOrigin}${address}`, origins),
          `${dir}: ${address}`,
        );
        pages++;
      }
      assert.equal(pages, 17, "nine pages in English, eight in German");
      const missing = await publicPage(t, site.domain, "/no-such-page/");
      assert.equal(missing.status, 404);
      assert.match(missing.text, /Not here/);
      assert.equal(
        linksResolved(readFileSync(join(dir, "404.html"), "utf8"), `${origin(index)}/no-such-page/`, origins),
        linksResolved(missing.text, `${siteOrigin}/no-such-page/`, origins),
      );
      const sitemap = await publicPage(t, site.domain, "/sitemap.xml");
      assert.equal(readFileSync(join(dir, "sitemap.xml"), "utf8"), sitemap.text.split(siteOrigin).join(origin(index)));
    }
  });

  describe("served by nginx, crawled from the home page in Chromium", {
    skip: withBrowser.skip || (nginx ? false : "nginx is not installed (apt-get install nginx-light)"),
  }, () => {
    let server: RunningNginx;
    let browser: Browser;

    before(async () => {
      server = startNginx(nginx!, STATIC_TYPES + staticServer(based, ports[0]) + staticServer(relative, ports[1]));
      for (let tries = 0; tries < 100; tries++) {
        const up = await fetch(`${origin(0)}/`).catch(() => null);
        if (up?.status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      await server?.stop();
    });

    for (const index of [0, 1])
      it(`${index === 0 ? "links on --base-url" : "relative links"}: every link answers, none points at the service`, async () => {
        const home = `${origin(index)}/`;
        const forbidden = [new URL(t.url).origin, siteOrigin];
        const page = await browser.newPage();
        const broken: string[] = [];
        const foreign: string[] = [];
        page.on("response", (response) => {
          if (response.status() >= 400) broken.push(`${response.status()} ${response.url()}`);
        });
        const seen = new Set<string>();
        const queue = [home];
        while (queue.length > 0) {
          const url = queue.shift()!;
          if (seen.has(url)) continue;
          seen.add(url);
          if (!url.endsWith("/")) {
            const answer = await page.request.get(url);
            if (answer.status() !== 200) broken.push(`${answer.status()} ${url}`);
            continue;
          }
          const answer = await page.goto(url);
          assert.equal(answer?.status(), 200, url);
          for (const link of (await page.evaluate(LINKS_IN_PAGE)) as string[]) {
            const target = new URL(link);
            target.hash = "";
            if (forbidden.includes(target.origin)) foreign.push(`${url} → ${link}`);
            if (target.origin === origin(index)) queue.push(target.href);
          }
        }
        await page.close();
        assert.deepEqual(broken, []);
        assert.deepEqual(foreign, []);
        for (const path of ["/", "/de/", "/about/", "/news/page/2/", "/de/neuigkeiten/page/2/", "/news/feed.xml"])
          assert.ok(seen.has(`${origin(index)}${path}`), `${path} reached (${[...seen].join(" ")})`);
        const redirected = await fetch(`${origin(index)}/old-about/`, { redirect: "manual" });
        assert.equal(redirected.status, 301);
        const gone = await fetch(`${origin(index)}/no-such-page/`);
        assert.equal(gone.status, 404);
        assert.match(await gone.text(), /Not here/);
      });
  });

  describe("again after one page changed and one deleted", () => {
    const mtimes = (dir: string) => new Map(filesIn(dir).map((file) => [file, statSync(join(dir, file)).mtimeMs]));
    let before: Map<string, number>[] = [];
    const expected = { written: ["about/index.html", "sitemap.xml"], deleted: ["legal/index.html"] };

    it("changes the site", async () => {
      before = [mtimes(plain), mtimes(based)];
      const pages = (await must(t, site.id, "GET", "/pages")).pages as Array<{ id: number; url: string }>;
      const id = (path: string) => pages.find((page) => new URL(page.url).pathname === path)!.id;
      await must(t, site.id, "PATCH", `/pages/${id("/about/")}`, {
        content: "We are a small team, and now a bigger one.",
      });
      await must(t, site.id, "DELETE", `/pages/${id("/legal/")}`);
    });

    it("by content hash: rewrites only the changed page and the sitemap, deletes the deleted page, and says so", async () => {
      const run = await svcSite(t, site.id, ["export-static", "--out", plain, "--verbose"]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const lines = run.stdout.trim().split("\n");
      assert.deepEqual(lines.filter((line) => !line.startsWith("unchanged")).slice(0, -1), [
        "write      about/index.html",
        "write      sitemap.xml",
        "delete     legal/index.html",
      ]);
      const unchanged = filesIn(plain).length - 2;
      assert.match(
        lines.at(-1)!,
        new RegExp(`^2 written, ${unchanged} unchanged, 1 deleted in ${plain} \\(links root-relative\\)`),
      );
      const after = mtimes(plain);
      for (const [file, time] of before[0])
        if (!expected.written.includes(file) && !expected.deleted.includes(file))
          assert.equal(after.get(file), time, `${file} untouched`);
      assert.ok(!after.has("legal/index.html"));
      assert.match(readFileSync(join(plain, "about/index.html"), "utf8"), /now a bigger one/);
    });

    it("with --since: fetches only what the events name, with the same result", async () => {
      const run = await svcSite(t, site.id, [
        "export-static",
        "--out",
        based,
        "--base-url",
        origin(0),
        "--since",
        String(first.based.last_event),
        "--json",
      ]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const doc = parseOne(run);
      assert.equal(doc.everything, false);
      assert.deepEqual([doc.written, doc.deleted], [expected.written, expected.deleted]);
      assert.ok(doc.last_event > first.based.last_event);
      const after = mtimes(based);
      for (const [file, time] of before[1])
        if (!expected.written.includes(file) && !expected.deleted.includes(file))
          assert.equal(after.get(file), time, `${file} untouched`);
      const served = await publicPage(t, site.domain, "/sitemap.xml");
      assert.equal(readFileSync(join(based, "sitemap.xml"), "utf8"), served.text.split(siteOrigin).join(origin(0)));
    });
  });
});
