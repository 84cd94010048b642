// The admin's History screen in headless Chromium (docs/admin.md): the site's recent changes,
// a revision compared side by side with the one before it, a restore that shows on the public page
// on the next request, and a restore the editor's role may not make refused with the service's own
// message; axe-core finds no WCAG A/AA violation.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { violations } from "../support/axe.ts";
import { launchChromium, withBrowser } from "../support/browser.ts";
import { startAdminApp } from "../support/admin.ts";
import { adminUser, listening, signedIn } from "../support/admin-browser.ts";
import type { TestApp } from "../support/app.ts";
import { rawRequest } from "../support/raw-http.ts";
import { assign, bind, frame, page as makePage } from "../support/site.ts";

describe("the admin's History screen in a real browser", withBrowser, () => {
  let t: TestApp;
  let browser: Browser;
  let port = 0;
  let admin = "";

  before(async () => {
    t = await startAdminApp();
    await frame(t, "plain", `<!DOCTYPE html><html><body><h1 ${bind("text", "page.title")}>x</h1></body></html>`);
    const id = (await makePage(t, { title: "Opening hours" })).id;
    await assign(t, "plain", id);
    assert.equal(
      (await t.call("PATCH", `/api/site/1/pages/${id}`, { body: { title: "Closed for summer" } })).status,
      200,
    );
    await adminUser(t, "history-editor", "editor");
    ({ port, admin } = await listening(t));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it("compares a revision side by side, restores it onto the public page, and shows a refused restore's message", async () => {
    const page = await signedIn(browser, admin, "history-editor");
    try {
      await page.getByRole("navigation").getByRole("link", { name: "History", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "History" }).waitFor();

      const latest = page.getByRole("row").filter({ hasText: "Revision 3" }).filter({ hasText: "Page" });
      await latest.getByRole("button", { name: "Compare", exact: true }).click();
      const diff = page.getByRole("table").filter({ has: page.locator("caption") });
      await diff.waitFor();
      assert.match((await diff.locator("del").allTextContents()).join("\n"), /Opening hours/);
      assert.match((await diff.locator("ins").allTextContents()).join("\n"), /Closed for summer/);
      assert.deepEqual(await violations(page), [], "the History screen with a comparison");

      // Revision 2 is the page on its frame with its first title (revision 1 had no frame yet).
      const second = page.getByRole("row").filter({ hasText: "Revision 2" }).filter({ hasText: "Page" });
      await second.getByRole("button", { name: /^Restore Page/ }).click();
      await page.getByRole("status").filter({ hasText: "Revision 2 restored" }).waitFor();
      const shown = await rawRequest(port, "/opening-hours/", { host: `localhost:${port}` });
      assert.equal(shown.status, 200);
      assert.match(shown.body, /<h1[^>]*>Opening hours<\/h1>/);

      // A frame is the administrators' to write: the service's refusal is shown as it says it.
      const frameRow = page
        .getByRole("row")
        .filter({ has: page.getByRole("cell", { name: /^Frame / }) })
        .first();
      await frameRow.getByRole("button", { name: /^Restore Frame/ }).click();
      await page.getByRole("alert").filter({ hasText: "administrator" }).waitFor();
    } finally {
      await page.close();
    }
  });
});
