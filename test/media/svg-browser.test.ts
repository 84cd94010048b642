// An uploaded SVG never runs script on the site's origin (docs/media.md, "SVG"): opened directly in
// headless Chromium (Debian's package, driven by playwright-core), its script neither sets the
// title nor fetches a marker address. The same bytes served without the policy (a route of the
// test) do both, so the test shows the policy is what stops them.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { launchChromium, withBrowser } from "../support/browser.ts";
import sharp from "sharp";
import { startTestApp, type TestApp } from "../support/app.ts";
import { storeFile } from "./serving-helpers.ts";

const SVG = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
  <style>rect { fill: #2a7; }</style>
  <rect width="100" height="100"/>
  <script>document.title = "script ran"; fetch("/marker-ran?from=fetch"); new Image().src = "/marker-ran?from=img";</script>
</svg>`;

describe("an SVG with a script, opened in a real browser", withBrowser, () => {
  let t: TestApp;
  let browser: Browser;
  let base = "";
  const markers: string[] = [];

  before(async () => {
    t = await startTestApp({
      beforeReady: (app) => {
        app.addHook("onRequest", async (request) => {
          if (request.url.startsWith("/marker-ran")) markers.push(request.url);
        });
        // The control: the same bytes, as a server without the policy would send them.
        app.get("/control.svg", async (_request, reply) => reply.type("image/svg+xml").send(SVG));
      },
    });
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    base = `http://localhost:${(t.app.server.address() as { port: number }).port}`;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Opens `url` and lets a script that runs have its turn; the title it ends with, and the colour drawn at (50, 50). */
  async function open(url: string): Promise<{ title: string; colour: number[] }> {
    const page = await browser.newPage();
    try {
      const response = await page.goto(url);
      assert.equal(response?.status(), 200);
      await page.waitForTimeout(300);
      const shot = await page.screenshot({ clip: { x: 50, y: 50, width: 1, height: 1 } });
      const { data } = await sharp(shot).raw().toBuffer({ resolveWithObject: true });
      return { title: await page.title(), colour: [...data.subarray(0, 3)] };
    } finally {
      await page.close();
    }
  }

  it("served as a media file, its script runs nothing: no title set, no request made; the drawing and its style show", async () => {
    const stored = await storeFile(t, 1, Buffer.from(SVG), "logo.svg", "image/svg+xml");
    markers.length = 0;
    const opened = await open(`${base}${stored.url}`);
    assert.notEqual(opened.title, "script ran");
    assert.deepEqual(markers, []);
    assert.deepEqual(opened.colour, [0x22, 0xaa, 0x77], "the rectangle, filled by the inline style");
  });

  it("the control without the policy runs its script (the test can see a script run)", async () => {
    markers.length = 0;
    assert.equal((await open(`${base}/control.svg`)).title, "script ran");
    assert.ok(markers.length > 0, "the marker was fetched");
  });
});
