// End to end in a real browser (docs/search.md, "The search insert"): headless Chromium opens a page
// printing svc/search on the built service, types words in the search field and sends the form with
// Enter; the results page shows them (a list of title links, marked snippets), a Next link leads to
// the second page of results, and axe-core finds no WCAG A or AA violation on the results pages nor
// on the page saying nothing was found.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { violations } from "../support/axe.ts";
import { launchChromium, startBrowserSite, withBrowser, type BrowserSite } from "../support/browser.ts";

const SEARCH_FRAME =
  '<!DOCTYPE html><html lang="en"><head><title>Search</title></head><body><main><h1>Search this site</h1><!-- svc/search /--></main></body></html>';
const PLAIN_FRAME =
  '<!DOCTYPE html><html lang="en"><head><title>Page</title></head><body><main data-op-bind=\'{"html":"page.content"}\'></main></body></html>';

describe("svc/search in a browser", withBrowser, () => {
  let site: BrowserSite;
  let browser: Browser;
  before(async () => {
    site = await startBrowserSite();
    browser = await launchChromium();
    await site.api("POST", "/frames", { slug: "search", html: SEARCH_FRAME });
    await site.api("POST", "/frames", { slug: "plain", html: PLAIN_FRAME });
    await site.api("POST", "/pages", { title: "Search", slug: "search", frame: "search", status: "publish" });
    for (let n = 1; n <= 13; n++)
      await site.api("POST", "/pages", {
        title: `Wallaby walk ${n}`,
        frame: "plain",
        status: "publish",
        content: `<p>A walk with the <b>wallaby</b> colony, part ${n}.</p>`,
      });
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  it("sent with the keyboard, the form shows results in pages; no axe violations", async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${site.base}/search/`);
      assert.deepEqual(await violations(page), [], "the page with the form alone");
      await page.getByRole("searchbox", { name: "Search" }).focus();
      await page.keyboard.type("walla");
      await Promise.all([page.waitForURL(/\?q=walla$/), page.keyboard.press("Enter")]);
      assert.equal(await page.locator("ol.svc-search-list > li").count(), 10);
      assert.equal(await page.locator("ol.svc-search-list mark").first().textContent(), "wallaby");
      assert.equal(await page.getByRole("searchbox", { name: "Search" }).inputValue(), "walla");
      assert.equal(await page.getByRole("heading", { level: 2 }).textContent(), "Results for “walla”");
      assert.deepEqual(await violations(page), [], "the first page of results");
      await Promise.all([page.waitForURL(/page=2$/), page.getByRole("link", { name: "Next" }).click()]);
      assert.equal(await page.locator("ol.svc-search-list > li").count(), 3);
      assert.equal(await page.locator('[aria-current="page"]').textContent(), "2");
      assert.deepEqual(await violations(page), [], "the second page of results");
      await page.goto(`${site.base}/search/?q=platypus`);
      assert.equal(await page.locator(".svc-search-none").textContent(), "No results found.");
      assert.deepEqual(await violations(page), [], "no results");
    } finally {
      await page.close();
    }
  });
});
