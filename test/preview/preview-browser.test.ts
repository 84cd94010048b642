// Previews in a real browser (docs/preview.md): headless Chromium shows the HTML of POST /preview
// with an unsaved stylesheet — printed inline, since its bundle's address exists only inside the
// rolled-back transaction — and reads the computed style; a stylesheet the preview did not change
// still loads through its <link>. A preview link opened in the browser shows the draft, noindex and
// private.
// Runs the built service (dist/, as npm start does).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { launchChromium, startBrowserSite, withBrowser, type BrowserSite } from "../support/browser.ts";

describe("previews in a real browser", withBrowser, () => {
  let site: BrowserSite;
  let browser: Browser;
  const api = (method: string, path: string, body?: unknown) => site.api(method, path, body);

  before(async () => {
    site = await startBrowserSite();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  it("an unsaved stylesheet shows in the preview (inline), the unchanged one through its link, and the public page keeps the saved look", async () => {
    await api("PUT", "/styles/base", { css: "body { background-color: rgb(1, 2, 3) }" });
    await api("PUT", "/styles/look", { css: "h1 { color: rgb(255, 0, 0) }" });
    await api("POST", "/frames", {
      slug: "look-page",
      html: `<!DOCTYPE html><html><head><meta charset="utf-8"><!--svc/styles{"names": ["base", "look"]}/--></head><body><h1 data-op-bind='{"text": "page.title"}'>x</h1></body></html>`,
    });
    await api("POST", "/pages", { title: "Looks", slug: "looks", status: "publish", frame: "look-page" });
    const preview = await api("POST", "/preview", {
      page: "looks",
      styles: { look: "h1 { color: rgb(0, 0, 255); letter-spacing: 2px }" },
      page_fields: { title: "Looks, unsaved" },
    });

    const page = await browser.newPage();
    try {
      const computed = () =>
        page.$eval("h1", (el) => ({
          text: el.textContent,
          color: getComputedStyle(el).color,
          spacing: getComputedStyle(el).letterSpacing,
          background: getComputedStyle(document.body).backgroundColor,
        }));
      // The preview shown as an editor would: its HTML in a document of the site's origin.
      const sheets: Array<{ path: string; status: number }> = [];
      page.on("response", (response) => {
        const url = new URL(response.url());
        if (url.pathname.startsWith("/styles/")) sheets.push({ path: url.pathname, status: response.status() });
      });
      await page.goto(`${site.base}/looks/`);
      assert.deepEqual(await computed(), {
        text: "Looks",
        color: "rgb(255, 0, 0)",
        spacing: "normal",
        background: "rgb(1, 2, 3)",
      });
      sheets.length = 0;
      await page.setContent(preview.html, { waitUntil: "load" });
      assert.deepEqual(await computed(), {
        text: "Looks, unsaved",
        color: "rgb(0, 0, 255)",
        spacing: "2px",
        background: "rgb(1, 2, 3)",
      });
      assert.ok(
        sheets.every((sheet) => sheet.status === 200 && sheet.path.startsWith("/styles/base.")),
        JSON.stringify(sheets),
      );
      // The public page is as saved.
      await page.goto(`${site.base}/looks/`);
      assert.deepEqual(await computed(), {
        text: "Looks",
        color: "rgb(255, 0, 0)",
        spacing: "normal",
        background: "rgb(1, 2, 3)",
      });
    } finally {
      await page.close();
    }
  });

  it("a preview link opens the draft as it stands, with noindex and private, no-store", async () => {
    await api("POST", "/frames", {
      slug: "draft-page",
      html: `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><h1 data-op-bind='{"text": "page.title"}'>x</h1></body></html>`,
    });
    await api("POST", "/pages", { title: "Secret draft", slug: "secret", status: "draft", frame: "draft-page" });
    const link = await api("POST", "/preview/links", { page: "secret", expires_in: 600 });
    const page = await browser.newPage();
    try {
      const publicAnswer = await page.goto(`${site.base}/secret/`);
      assert.equal(publicAnswer?.status(), 404);
      // The link names the site's domain and public port: localhost, as site.base does.
      assert.equal(new URL(link.url).origin, site.base);
      const answer = await page.goto(link.url);
      assert.equal(answer?.status(), 200);
      assert.equal(answer?.headers()["x-robots-tag"], "noindex");
      assert.equal(answer?.headers()["cache-control"], "private, no-store");
      assert.equal(await page.textContent("h1"), "Secret draft");
      await api("PATCH", "/pages/secret", { title: "Secret draft, edited" });
      await page.goto(link.url);
      assert.equal(await page.textContent("h1"), "Secret draft, edited");
      await api("DELETE", `/preview/links/${link.id}`);
      const revoked = await page.goto(link.url);
      assert.equal(revoked?.status(), 404);
      assert.doesNotMatch(await page.content(), /Secret/);
    } finally {
      await page.close();
    }
  });
});
