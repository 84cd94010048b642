// End to end in a real browser (docs/media.md): a PNG made here is uploaded through the real server,
// a frame prints it with svc/image, and headless Chromium (Debian's package, driven by
// playwright-core) opens the page and loads the image it chooses from src and srcset.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import sharp from "sharp";
import type { Browser } from "playwright-core";
import { launchChromium, startBrowserSite, withBrowser, type BrowserSite } from "../support/browser.ts";

describe("an uploaded image on a page in a real browser", withBrowser, () => {
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

  it("svc/image of an uploaded PNG loads in Chromium (naturalWidth > 0), from the file or the variant it picks", async () => {
    const photo = await sharp({
      create: { width: 900, height: 600, channels: 3, background: { r: 30, g: 120, b: 200 } },
    })
      .png()
      .toBuffer();
    const { media } = await api("POST", "/media?filename=harbour.png", photo, "image/png");
    await api("PATCH", `/media/${media.id}`, { alt: "The harbour" });
    await api("POST", "/frames", {
      slug: "gallery",
      html: `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Gallery</title></head><body><!-- svc/image {"media": "harbour", "sizes": "(min-width: 800px) 50vw, 100vw", "class": "photo"} /--></body></html>`,
    });
    await api("POST", "/pages", { title: "Gallery", slug: "gallery", status: "publish", frame: "gallery" });

    // The addresses the <img> offers: the original (900 wide) and its variants at 320 and 640.
    const offered = new Set<string>([media.url, ...media.variants.map((v: { url: string }) => v.url)]);
    assert.equal(offered.size, 3);
    const loaded = new Set<string>();
    for (const viewport of [
      { width: 2000, height: 800 },
      { width: 1280, height: 800 },
      { width: 360, height: 640 },
    ]) {
      const page = await browser.newPage({ viewport });
      try {
        const answer = await page.goto(`${site.base}/gallery/`);
        assert.equal(answer?.status(), 200);
        await page.waitForFunction(
          () => (document.querySelector("img.photo") as HTMLImageElement | null)?.complete === true,
        );
        const img = await page.$eval("img.photo", (el) => {
          const image = el as HTMLImageElement;
          return {
            naturalWidth: image.naturalWidth,
            naturalHeight: image.naturalHeight,
            currentSrc: image.currentSrc,
            alt: image.alt,
            src: image.getAttribute("src"),
          };
        });
        assert.equal(img.src, media.url);
        assert.equal(img.alt, "The harbour");
        assert.ok(img.naturalWidth > 0, `${viewport.width}px: ${img.currentSrc} did not load`);
        const chosen = new URL(img.currentSrc).pathname;
        assert.ok(offered.has(chosen), `${viewport.width}px: ${chosen} is one of the offered addresses`);
        // With a srcset the natural size is the chosen file's pixels over its density: the ratio holds.
        assert.ok(
          Math.abs((img.naturalWidth * 600) / 900 - img.naturalHeight) <= 1,
          `${viewport.width}px: same aspect ratio (${img.naturalWidth}x${img.naturalHeight})`,
        );
        loaded.add(chosen);
      } finally {
        await page.close();
      }
    }
    assert.ok(
      loaded.has(media.url) && loaded.size > 1,
      `the original on a wide screen and a variant on a narrow one: ${[...loaded].join(", ")}`,
    );
  });
});
