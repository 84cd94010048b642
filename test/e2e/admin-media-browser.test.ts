// The admin's Media screens in headless Chromium (docs/admin.md): an editor uploads an image
// through the field labelled Upload, its details open with where it is used, and the Alt text set
// there is on the public page at once; axe-core finds no WCAG A/AA violation on either screen.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import sharp from "sharp";
import type { Browser } from "playwright-core";
import { violations } from "../support/axe.ts";
import { launchChromium, withBrowser } from "../support/browser.ts";
import { startAdminApp } from "../support/admin.ts";
import { adminUser, listening, signedIn } from "../support/admin-browser.ts";
import type { TestApp } from "../support/app.ts";
import { rawRequest } from "../support/raw-http.ts";
import { assign, frame, page as makePage } from "../support/site.ts";

const SHOTS = new URL("../../test-results/", import.meta.url).pathname;

describe("the admin's Media screens in a real browser", withBrowser, () => {
  let t: TestApp;
  let browser: Browser;
  let port = 0;
  let admin = "";

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await startAdminApp();
    await frame(
      t,
      "gallery",
      '<!DOCTYPE html><html><body><figure><!-- svc/image {"media": "photo"} /--></figure></body></html>',
    );
    await assign(t, "gallery", (await makePage(t, { title: "Gallery" })).id);
    await adminUser(t, "media-editor", "editor");
    ({ port, admin } = await listening(t));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it("uploads an image with Upload, shows where it is used, and its Alt text shows on the public page on the next request", async () => {
    const page = await signedIn(browser, admin, "media-editor");
    try {
      await page.getByRole("navigation").getByRole("link", { name: "Media", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Media" }).waitFor();
      assert.deepEqual(await violations(page), [], "the Media screen");

      const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#c00" } })
        .png()
        .toBuffer();
      await page
        .getByLabel("Upload", { exact: true })
        .setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: png });
      await page.getByRole("heading", { level: 1, name: "Media: photo.png" }).waitFor();
      await page.getByText("Frame gallery").waitFor();
      assert.ok(await page.getByText("Page /gallery").isVisible());

      await page.getByLabel("Alt text", { exact: true }).fill("A red square");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      const published = await rawRequest(port, "/gallery/", { host: `localhost:${port}` });
      assert.equal(published.status, 200);
      assert.match(published.body, /<img [^>]*alt="A red square"/);
      assert.deepEqual(await violations(page), [], "a file's details");
      await page.screenshot({ path: `${SHOTS}admin-media.png` });

      await page.getByRole("navigation").getByRole("link", { name: "Media", exact: true }).click();
      await page.getByRole("link", { name: "photo.png", exact: true }).waitFor();
    } finally {
      await page.close();
    }
  });
});
