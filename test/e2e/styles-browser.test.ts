// End to end in a real browser (issue 18): a frame links two stylesheets, one importing the other;
// headless Chromium (Debian's package, driven by playwright-core) opens the page and reads the
// computed style of an element. After a write of the imported stylesheet, the very next
// navigation shows the change: the page links new addresses, so nothing the browser cached (a
// year, immutable) stands in the way, and no wait or retry is needed.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { serviceDatabase, startService, type Running } from "../support/process.ts";
import type { TestDatabase } from "../support/database.ts";
import { freePort } from "../support/ports.ts";
import { generateToken } from "../../src/tokens.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

describe("stylesheets in a real browser", { skip: existsSync(CHROMIUM) ? false : `no browser at ${CHROMIUM}` }, () => {
  let svc: Running;
  let browser: Browser;
  let database: TestDatabase;
  let dataDir: string;
  let base: string;
  const token = generateToken();

  async function api(method: string, path: string, body?: unknown): Promise<any> {
    const r = await fetch(`${base}/api/site/1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await r.json();
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
    return json;
  }

  before(async () => {
    const port = await freePort();
    const db = await serviceDatabase();
    database = db.database;
    dataDir = mkdtempSync(join(tmpdir(), "svc-e2e-styles-"));
    svc = await startService({ ...db.env, SVC_DATA_DIR: dataDir, SVC_ADMIN_TOKEN: token, PORT: String(port), SVC_RATE_LIMIT_PER_MIN: "100000", SVC_PUBLIC_RATE_LIMIT_PER_MIN: "100000" });
    base = `http://localhost:${port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  });

  after(async () => {
    await browser?.close();
    await svc?.stop();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Opens the page (a navigation, not a reload) and answers the title's computed style and the stylesheets the browser fetched. */
  async function look(page: Page): Promise<{ color: string; padding: string; margin: string; sheets: Array<{ url: string; status: number; encoding: string | undefined }> }> {
    const sheets: Array<{ url: string; status: number; encoding: string | undefined }> = [];
    const onResponse = (response: import("playwright-core").Response) => {
      if (new URL(response.url()).pathname.startsWith("/styles/")) sheets.push({ url: new URL(response.url()).pathname, status: response.status(), encoding: response.headers()["content-encoding"] });
    };
    page.on("response", onResponse);
    try {
      const answer = await page.goto(`${base}/styled/`);
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
      assert.deepEqual(written.rebaked.frames.map((f: { slug: string }) => f.slug), ["styled"]);
      const second = await look(page);
      assert.deepEqual([second.color, second.padding, second.margin], ["rgb(200, 10, 20)", "11px", "0px"], "both links changed: the reset and the bundle importing it");
      assert.equal(second.sheets.length, 2, "the new addresses were fetched");
      assert.ok(second.sheets.every((sheet) => !first.sheets.some((old) => old.url === sheet.url)));

      await api("PUT", "/styles/look", { css: `@import "reset";\nh1 { color: rgb(0, 90, 0) }` });
      const third = await look(page);
      assert.deepEqual([third.color, third.padding], ["rgb(0, 90, 0)", "11px"]);
      const named = (sheets: typeof third.sheets, name: string) => sheets.find((sheet) => sheet.url.startsWith(`/styles/${name}.`))?.url;
      assert.equal(named(third.sheets, "reset"), named(second.sheets, "reset"), "the reset is linked at the same address (the browser may keep it)");
      assert.notEqual(named(third.sheets, "look"), named(second.sheets, "look"));
    } finally {
      await page.close();
    }
  });
});
