// The admin's Menus screens in headless Chromium (docs/admin.md): an editor reorders a menu by
// keyboard (Move up, Move down), appends a page with Page and Add item, and nothing is stored until
// Save, after which the public page shows the new menu on the next request; axe-core on both screens.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { violations } from "../support/axe.ts";
import { launchChromium, withBrowser } from "../support/browser.ts";
import { startAdminApp } from "../support/admin.ts";
import { adminUser, listening, signedIn } from "../support/admin-browser.ts";
import type { TestApp } from "../support/app.ts";
import { rawRequest } from "../support/raw-http.ts";
import { assign, frame, page as makePage } from "../support/site.ts";

const LAYOUT = `<!DOCTYPE html><html><head><title>x</title></head><body><nav><!-- svc/menu {"location": "header"} /--></nav></body></html>`;

describe("the admin's Menus screens in a real browser", withBrowser, () => {
  let t: TestApp;
  let browser: Browser;
  let port = 0;
  let admin = "";

  /** The menu's link texts on the public page, in order. */
  async function publicMenu(): Promise<string[]> {
    const answer = await rawRequest(port, "/home/", { host: `localhost:${port}` });
    assert.equal(answer.status, 200);
    return [...answer.body.matchAll(/<a [^>]*>([^<]*)<\/a>/g)].map((match) => match[1]!);
  }

  before(async () => {
    t = await startAdminApp();
    await frame(t, "layout", LAYOUT);
    const ids: Record<string, number> = {};
    for (const title of ["Home", "About", "Work", "Contact"]) {
      ids[title] = (await makePage(t, { title })).id;
      await assign(t, "layout", ids[title]!);
    }
    const menu = await t.call("POST", "/api/site/1/menus", {
      body: { name: "Main", location: "header", items: [{ page: ids.About }, { page: ids.Work }] },
    });
    assert.equal(menu.status, 201, menu.text);
    await adminUser(t, "menu-editor", "editor");
    ({ port, admin } = await listening(t));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it("reorders with Move down, appends with Page and Add item, and stores nothing until Save", async () => {
    const page = await signedIn(browser, admin, "menu-editor");
    try {
      await page.getByRole("navigation").getByRole("link", { name: "Menus", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Menus" }).waitFor();
      assert.deepEqual(await violations(page), [], "the Menus screen");
      await page.getByRole("link", { name: "Main", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Menus: Main" }).waitFor();

      const items = page.getByRole("listitem");
      await items.first().waitFor();
      assert.deepEqual(await itemTitles(page), ["About", "Work"]);
      const about = items.filter({ hasText: "About" });
      await about.getByRole("button", { name: "Move down", exact: true }).focus();
      await page.keyboard.press("Enter");
      assert.deepEqual(await itemTitles(page), ["Work", "About"]);

      await page.getByLabel("Page", { exact: true }).selectOption({ label: "Contact" });
      await page.getByRole("button", { name: "Add item", exact: true }).click();
      assert.deepEqual(await itemTitles(page), ["Work", "About", "Contact"]);
      assert.deepEqual(await publicMenu(), ["About", "Work"], "nothing stored before Save");
      assert.deepEqual(await violations(page), [], "a menu's editor");

      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      assert.deepEqual(await publicMenu(), ["Work", "About", "Contact"]);
      assert.deepEqual(await itemTitles(page), ["Work", "About", "Contact"], "read back as stored");
    } finally {
      await page.close();
    }
  });
});

async function itemTitles(page: Page): Promise<string[]> {
  return page.locator(".menu-items .item-title").allTextContents();
}
