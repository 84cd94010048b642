// svc dev as a user runs it (dist/cli.js as a process) against the built service: pages served
// with the folder's unsaved frames, page files, stylesheets and data (through POST /preview), the
// public site unchanged; a save sends a reload on the event stream; markup warnings in an overlay;
// static files proxied; nothing written to the service; a real browser reloading after a save, and
// axe finding nothing wrong with the overlay.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { rmSync } from "node:fs";
import type { Browser } from "playwright-core";
import { violations } from "../support/axe.ts";
import { launchChromium, withBrowser } from "../support/browser.ts";
import { openSse } from "../support/sse-client.ts";
import { read, serve, tempDir, write, type Served } from "./harness.ts";
import { startDev } from "./dev-process.ts";

const LAYOUT = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title data-op-bind='{"text": "page.title"}'>x</title><!--svc/styles{"name": "main"}/--></head><body><main><h1 data-op-bind='{"text": "page.title"}'>x</h1><div data-op-bind='{"html": "page.content"}'></div><ul><!-- svc/repeat {"source": "team"} --><li data-op-bind='{"text": "item.name"}'></li><!-- /svc/repeat --></ul></main><!--svc/frame{"name": "footer"}/--></body></html>`;
const FOOTER = "<footer><p>Saved footer</p></footer>";

async function seed(t: Served): Promise<void> {
  for (const [method, path, body] of [
    ["PUT", "/styles/main", { css: "h1 { color: rgb(200, 0, 0) }" }],
    ["PUT", "/data/team", { items: [{ name: "Ada" }] }],
    ["POST", "/frames", { slug: "footer", html: FOOTER }],
    ["POST", "/frames", { slug: "layout", html: LAYOUT }],
    ["POST", "/pages", { title: "About", slug: "about", frame: "layout", content: "<p>Saved content</p>" }],
  ] as const) {
    const answer = await t.api(method, path, body);
    assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
}

/** What the service holds that a write would change: frames' and stylesheets' sha256, the set, the events. */
async function serviceState(t: Served): Promise<unknown> {
  const frames = (await t.api("GET", "/frames")).body.frames.map((f: any) => [f.slug, f.sha256]);
  const styles = (await t.api("GET", "/styles")).body.styles.map((s: any) => [s.name, s.sha256]);
  const team = (await t.api("GET", "/data/team")).body.items;
  const pages = (await t.api("GET", "/pages")).body.pages.map((p: any) => [p.id, p.title, p.updated_at_gmt]);
  const events = (await t.api("GET", "/events")).body;
  return { frames, styles, team, pages, events: events.events ?? events };
}

describe("svc dev (the built CLI against the built service)", () => {
  let t: Served;
  let dir: string;
  let dev: ChildProcess;
  let base: string;
  let before_: unknown;
  let lines: any[] = [];
  const get = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${path}`, init);
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  /** Writes a file for the length of `work`, then puts the pulled one back. */
  const withFile = async (key: string, text: string, work: () => Promise<void>) => {
    const saved = read(dir, key);
    write(dir, key, text);
    try {
      await work();
    } finally {
      write(dir, key, saved);
    }
  };

  before(async () => {
    t = await serve();
    await seed(t);
    dir = tempDir("svc-cli-dev-");
    const pulled = await t.svc(["pull", dir]);
    assert.equal(pulled.code, 0, pulled.stderr);
    before_ = await serviceState(t);
    const started = await startDev(t, dir, ["--json", "--debounce", "50"]);
    dev = started.child;
    lines = started.lines;
    base = started.serving.url;
  });
  after(async () => {
    if (dev && dev.exitCode === null) dev.kill("SIGKILL");
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("says where it serves: http://localhost:<port> when bound to 127.0.0.1, the bound address in --json", async () => {
    assert.match(base, /^http:\/\/127\.0\.0\.1:\d+$/);
    const plain = await startDev(t, dir, []);
    try {
      const shown = /at (http:\/\/localhost:(\d+)) \(Ctrl-C stops\)$/.exec(plain.serving);
      assert.ok(shown, plain.serving);
      const about = await fetch(`${shown[1]}/about/`);
      assert.equal(about.status, 200);
      assert.match(await about.text(), /<h1>About<\/h1>/);
    } finally {
      const exited = once(plain.child, "exit");
      plain.child.kill("SIGINT");
      await exited;
    }
  });

  it("without changes a page is the public page's, with the reload script injected and nothing else", async () => {
    const shown = await get("/about/");
    const pub = await t.page("/about/");
    assert.equal(shown.status, 200);
    assert.match(shown.text, /<script id="svc-dev-reload">/);
    assert.doesNotMatch(shown.text, /<div id="svc-dev-overlay"/, "no overlay without warnings");
    assert.doesNotMatch(pub.text, /svc-dev-reload/);
    assert.match(shown.text, /<h1>About<\/h1>/);
    assert.doesNotMatch(read(dir, "frames/layout.html"), /svc-dev/, "nothing injected into the folder's files");
  });

  it("an unsaved frame change shows on the dev page and not on the public site", async () => {
    await withFile("frames/footer.html", "<footer><p>Unsaved footer</p></footer>", async () => {
      const shown = await get("/about/");
      assert.match(shown.text, /Unsaved footer/);
      assert.match((await t.page("/about/")).text, /Saved footer/);
      assert.doesNotMatch((await t.page("/about/")).text, /Unsaved footer/);
    });
  });

  it("an unsaved page file (title, content) shows: the folder's page file wins over the server's", async () => {
    const about = JSON.parse(read(dir, "pages/_/about.json"));
    const edited = { ...about, title: "About (unsaved)", content: "<p>Unsaved content</p>" };
    await withFile("pages/_/about.json", JSON.stringify(edited, null, 2), async () => {
      const shown = await get("/about/");
      assert.match(shown.text, /<title>About \(unsaved\)<\/title>/);
      assert.match(shown.text, /<p>Unsaved content<\/p>/);
      assert.match((await t.page("/about/")).text, /<p>Saved content<\/p>/);
    });
  });

  it("an unsaved stylesheet shows, printed inline", async () => {
    await withFile("styles/main.css", "h1 { color: rgb(0, 0, 200) }", async () => {
      const shown = await get("/about/");
      assert.match(shown.text, /<style data-svc-preview-style="main">h1\{color:#0000c8\}<\/style>/);
      assert.doesNotMatch((await t.page("/about/")).text, /data-svc-preview-style/);
    });
  });

  it("an unsaved data set shows", async () => {
    await withFile("data/team.json", JSON.stringify([{ name: "Grace" }, { name: "Alan" }]), async () => {
      assert.match((await get("/about/")).text, /<li>Grace<\/li><li>Alan<\/li>/);
      assert.match((await t.page("/about/")).text, /<li>Ada<\/li>/);
    });
  });

  it("a frame with a markup warning shows the overlay with its code, file, line and column", async () => {
    await withFile("frames/footer.html", "<footer>\n  <!-- svc/gallery /-->\n</footer>", async () => {
      const shown = await get("/about/");
      assert.equal(shown.status, 200);
      assert.match(shown.text, /<div id="svc-dev-overlay" role="dialog" aria-labelledby="svc-dev-overlay-title"/);
      assert.match(shown.text, /<code[^>]*>unknown_insert<\/code> <span[^>]*>frames\/footer\.html:2:3<\/span>/);
      assert.match(shown.text, /svc dev: 1 warning</);
    });
  });

  it("a preview the service refuses shows its refusal in the overlay, naming the file", async () => {
    await withFile("frames/footer.html", '<!-- svc/frame {"name": "footer"} /-->', async () => {
      const shown = await get("/about/");
      assert.equal(shown.status, 400);
      assert.match(shown.text, /<code[^>]*>frame_cycle<\/code> <span[^>]*>frames\/footer\.html<\/span>/);
    });
  });

  it("a page file only in the folder is shown, its parents only in the folder too; nothing is written", async () => {
    const about = JSON.parse(read(dir, "pages/_/about.json"));
    const files = {
      "pages/_/pricing.json": { ...about, title: "Pricing", content: "<p>Unsaved pricing</p>" },
      "pages/_/docs.json": { ...about, title: "Docs", status: "draft" },
      "pages/_/docs/guide.json": { ...about, title: "Guide" },
      "pages/_/docs/guide/intro.json": { ...about, title: "Intro", content: "<p>Unsaved intro</p>" },
      "pages/_/broken.json": { ...about, title: "Broken", frame: "nope" },
    };
    for (const [key, value] of Object.entries(files)) write(dir, key, JSON.stringify(value, null, 2));
    const writes = t.writeList().length;
    const pages = (await t.api("GET", "/pages?status=any")).body.total;
    try {
      const pricing = await get("/pricing/");
      assert.equal(pricing.status, 200, pricing.text);
      assert.match(pricing.text, /<title>Pricing<\/title>/);
      assert.match(pricing.text, /<p>Unsaved pricing<\/p>/);
      assert.doesNotMatch(pricing.text, /<div id="svc-dev-overlay"/, "no warnings");
      const intro = await get("/docs/guide/intro/");
      assert.equal(intro.status, 200, intro.text);
      assert.match(intro.text, /<title>Intro<\/title>/);
      assert.match(intro.text, /<p>Unsaved intro<\/p>/);
      const broken = await get("/broken/");
      assert.equal(broken.status, 404);
      assert.match(broken.text, /<code[^>]*>frame_not_found<\/code> <span[^>]*>pages\/_\/broken\.json<\/span>/);
      assert.equal((await t.page("/pricing/")).status, 404, "the public site does not have it");
      assert.equal((await t.api("GET", "/pages?status=any")).body.total, pages, "no page was made");
      // The only API writes are the previews (POST /preview rolls back what it writes): one per page
      // shown, and one more where the client sent a preview again (a 503 on a busy machine).
      const since = t.writeList().slice(writes);
      assert.ok(since.length >= 3, since.join(", "));
      assert.deepEqual([...new Set(since)], ["POST /api/site/:site_id/preview"]);
    } finally {
      for (const key of Object.keys(files)) rmSync(`${dir}/${key}`);
      rmSync(`${dir}/pages/_/docs`, { recursive: true, force: true });
    }
  });

  it("static files are proxied from the public site as it answers them; writes are refused with 405", async () => {
    const link = /href="(\/styles\/main\.[0-9a-f]+\.css)"/.exec((await t.page("/about/")).text)![1];
    const sheet = await get(link);
    assert.equal(sheet.status, 200);
    assert.equal(sheet.text, (await t.page(link)).text);
    const sitemap = await get("/sitemap.xml");
    assert.equal(sitemap.status, (await t.page("/sitemap.xml")).status);
    assert.equal((await get("/no-such-page/")).status, (await t.page("/no-such-page/")).status);
    const posted = await get("/about/", { method: "POST", body: "x" });
    assert.equal(posted.status, 405);
  });

  it("saving a file sends a reload event on /__svc/events", async () => {
    const stream = await openSse(Number(new URL(base).port), "/__svc/events");
    try {
      assert.equal(stream.status, 200);
      assert.match(String(stream.headers["content-type"]), /^text\/event-stream/);
      await new Promise((r) => setTimeout(r, 100));
      const saved = () =>
        stream.events().find((e) => e.event === "reload" && JSON.parse(e.data!).keys.includes("frames/footer.html"));
      await withFile("frames/footer.html", "<footer>saved again</footer>", async () => {
        for (let i = 0; i < 100 && !saved(); i++) await new Promise((r) => setTimeout(r, 50));
      });
      assert.ok(saved(), JSON.stringify(stream.events()));
      assert.ok(stream.events().every((e) => e.event === "reload"));
    } finally {
      stream.close();
    }
  });

  describe("in a real browser", withBrowser, () => {
    let browser: Browser;
    before(async () => {
      browser = await launchChromium();
    });
    after(() => browser?.close());

    it("a dev page reloads after a save and shows the saved file", async () => {
      const page = await browser.newPage();
      try {
        await page.goto(`${base}/about/`);
        assert.equal(await page.textContent("footer"), "Saved footer");
        // A moment for the page's event stream to connect; then a save reloads it.
        await new Promise((r) => setTimeout(r, 300));
        await withFile("frames/footer.html", "<footer><p>Reloaded footer</p></footer>", async () => {
          await page.waitForFunction(() => document.querySelector("footer")?.textContent === "Reloaded footer", null, {
            timeout: 10_000,
          });
        });
      } finally {
        await page.close();
      }
    });

    it("axe finds no violation on a page with the overlay, and Dismiss closes it", async () => {
      const page = await browser.newPage();
      try {
        await withFile("frames/footer.html", "<footer>\n  <!-- svc/gallery /-->\n</footer>", async () => {
          await page.goto(`${base}/about/`);
          assert.equal(await page.isVisible("#svc-dev-overlay"), true);
          assert.deepEqual(await violations(page), []);
          await page.click("#svc-dev-overlay-close");
          assert.equal(await page.$("#svc-dev-overlay"), null);
        });
      } finally {
        await page.close();
      }
    });
  });

  it("the service is unchanged afterwards: nothing was written", async () => {
    assert.deepEqual(await serviceState(t), before_);
  });

  it("Ctrl-C ends it with exit 0", async () => {
    const exited = once(dev, "exit");
    dev.kill("SIGINT");
    assert.deepEqual(await exited, [0, null]);
    assert.ok(lines.some((l) => l.event === "reload"));
  });
});
