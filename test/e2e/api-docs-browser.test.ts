// The API reference page (docs/api-reference.md): headless Chromium opens GET /api/docs
// on the service as `npm start` runs it (the built dist/main.js, which loads Scalar's plugin on
// the page's first request), without a token, and finds the frames endpoints listed, read from
// the served OpenAPI document. The page asks nothing of any other origin.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { launchChromium, startBrowserSite, withBrowser, type BrowserSite } from "../support/browser.ts";

describe("the API reference page in a real browser", withBrowser, () => {
  let site: BrowserSite;
  let browser: Browser;

  before(async () => {
    site = await startBrowserSite();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await site?.close();
  });

  it("GET /api/docs is text/html without a token, loads the document and lists the frames endpoints", async () => {
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    const fetched: string[] = [];
    await page.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.origin !== new URL(site.base).origin) {
        elsewhere.push(url.href);
        return route.abort();
      }
      fetched.push(url.pathname);
      return route.continue();
    });
    try {
      const answer = await page.goto(`${site.base}/api/docs`);
      assert.equal(answer?.status(), 200);
      assert.match(String(answer?.headers()["content-type"]), /^text\/html/);
      assert.equal(answer?.headers().link, '</api/openapi.json>; rel="service-desc"');
      // The sidebar lists the document's tags; opening "frames" lists its operations by summary.
      await page.getByText("frames", { exact: true }).first().click({ timeout: 30_000 });
      await page.getByText("List frames, sorted by slug", { exact: false }).first().waitFor({ timeout: 30_000 });
      // biome-ignore lint/performance/useDomNodeTextContent: the check is on the text shown; textContent also holds hidden nodes and script text
      const text = await page.evaluate(() => document.body.innerText);
      for (const summary of [
        "List frames, sorted by slug",
        "Upload a new frame",
        "Replace a frame's markup",
        "Rename a frame",
        "Delete a frame",
      ]) {
        assert.ok(text.includes(summary), `the page lists "${summary}"`);
      }
      assert.ok(fetched.includes("/api/openapi.json"), "the page read the served document");
      assert.deepEqual(elsewhere, [], "nothing is fetched from another origin");
    } finally {
      await page.close();
    }
  });
});
