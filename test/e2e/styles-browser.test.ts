// End to end in a real browser (docs/styles.md): a frame links two stylesheets, one importing the
// other;
// headless Chromium (Debian's package, driven by playwright-core) opens the page and reads the
// computed style of an element. After a write of the imported stylesheet, the very next
// navigation shows the change: the page links new addresses, so nothing the browser cached (a
// year, immutable) stands in the way, and no wait or retry is needed.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { launchChromium, startBrowserSite, withBrowser, type BrowserSite } from "../support/browser.ts";

describe("stylesheets in a real browser", withBrowser, () => {
  let site: BrowserSite;
  let browser: Browser;

  const api = (method: string, path: string, body?: unknown, type?: string) => site.api(method, path, body, type);

  before(async () => {
    site = await startBrowserSite();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await site?.close();
  });

  /** Opens the page (a navigation, not a reload) and answers the title's computed style and the stylesheets the browser fetched. */
  async function look(page: Page): Promise<{
    color: string;
    padding: string;
    margin: string;
    sheets: Array<{ url: string; status: number; encoding: string | undefined }>;
  }> {
    const sheets: Array<{ url: string; status: number; encoding: string | undefined }> = [];
    const onResponse = (response: import("playwright-core").Response) => {
      if (new URL(response.url()).pathname.startsWith("/styles/"))
        sheets.push({
          url: new URL(response.url()).pathname,
          status: response.status(),
          encoding: response.headers()["content-encoding"],
        });
    };
    page.on("response", onResponse);
    try {
      const answer = await page.goto(`${site.base}/styled/`);
      assert.equal(answer?.status(), 200);
      // goto waits for the load event, which waits for the stylesheets in <head>.
      const style = await page.$eval("h1", (el) => {
        const computed = getComputedStyle(el);
        return { color: computed.color, padding: computed.paddingTop, margin: computed.marginTop };
      });
      return { ...style, sheets };
    } finally {
      page.off("response", onResponse);
    }
  }

  it("getComputedStyle shows a stylesheet's rules, and after a write of the stylesheet it imports, the next navigation shows the new ones", async () => {
    await api("PUT", "/styles/reset", { css: "h1 { margin: 0; padding-top: 3px }" });
    await api("PUT", "/styles/look", { css: `@import "reset";\nh1 { color: rgb(200, 10, 20) }` });
    await api("POST", "/frames", {
      slug: "styled",
      html: `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Styled</title><!-- svc/styles {"names": ["reset", "look"]} /--></head><body><h1>Title</h1></body></html>`,
    });
    await api("POST", "/pages", { title: "Styled", slug: "styled", status: "publish", frame: "styled" });

    const page = await browser.newPage();
    try {
      const first = await look(page);
      assert.deepEqual([first.color, first.padding, first.margin], ["rgb(200, 10, 20)", "3px", "0px"]);
      assert.equal(first.sheets.length, 2);
      for (const sheet of first.sheets) {
        assert.equal(sheet.status, 200);
        assert.equal(sheet.encoding, "br", `${sheet.url}: Chromium accepts br`);
      }

      const written = await api("PUT", "/styles/reset", { css: "h1 { margin: 0; padding-top: 11px }" });
      assert.deepEqual(
        written.rebaked.frames.map((f: { slug: string }) => f.slug),
        ["styled"],
      );
      const second = await look(page);
      assert.deepEqual(
        [second.color, second.padding, second.margin],
        ["rgb(200, 10, 20)", "11px", "0px"],
        "both links changed: the reset and the bundle importing it",
      );
      assert.equal(second.sheets.length, 2, "the new addresses were fetched");
      assert.ok(second.sheets.every((sheet) => !first.sheets.some((old) => old.url === sheet.url)));

      await api("PUT", "/styles/look", { css: `@import "reset";\nh1 { color: rgb(0, 90, 0) }` });
      const third = await look(page);
      assert.deepEqual([third.color, third.padding], ["rgb(0, 90, 0)", "11px"]);
      const named = (sheets: typeof third.sheets, name: string) =>
        sheets.find((sheet) => sheet.url.startsWith(`/styles/${name}.`))?.url;
      assert.equal(
        named(third.sheets, "reset"),
        named(second.sheets, "reset"),
        "the reset is linked at the same address (the browser may keep it)",
      );
      assert.notEqual(named(third.sheets, "look"), named(second.sheets, "look"));
    } finally {
      await page.close();
    }
  });
});
