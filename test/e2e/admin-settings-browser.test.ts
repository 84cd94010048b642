// The admin's Settings screen in headless Chromium (docs/admin.md): an administrator changes the
// site's tagline and the public page shows it on the next request; an editor sees the settings
// read-only, without Save, and the service refuses an editor's settings write (403
// insufficient_role) even when the page sends it; axe-core on both.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { violations } from "../support/axe.ts";
import { launchChromium, withBrowser } from "../support/browser.ts";
import { startAdminApp } from "../support/admin.ts";
import { adminUser, listening, signedIn } from "../support/admin-browser.ts";
import type { TestApp } from "../support/app.ts";
import { rawRequest } from "../support/raw-http.ts";
import { assign, bind, frame, page as makePage } from "../support/site.ts";

describe("the admin's Settings screen in a real browser", withBrowser, () => {
  let t: TestApp;
  let browser: Browser;
  let port = 0;
  let admin = "";

  before(async () => {
    t = await startAdminApp();
    await frame(t, "plain", `<!DOCTYPE html><html><body><p ${bind("text", "site.tagline")}>x</p></body></html>`);
    await assign(t, "plain", (await makePage(t, { title: "Welcome" })).id);
    for (const [login, role] of [
      ["settings-admin", "administrator"],
      ["settings-editor", "editor"],
    ] as const) {
      await adminUser(t, login, role);
    }
    ({ port, admin } = await listening(t));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function onSettings(login: string): Promise<Page> {
    const page = await signedIn(browser, admin, login);
    await page.getByRole("navigation").getByRole("link", { name: "Settings", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    return page;
  }

  it("an administrator's new tagline is on the public page on the next request", async () => {
    const page = await onSettings("settings-admin");
    try {
      await page.getByLabel("Tagline", { exact: true }).fill("Fresh bread daily");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      const shown = await rawRequest(port, "/welcome/", { host: `localhost:${port}` });
      assert.match(shown.body, /<p[^>]*>Fresh bread daily<\/p>/);
      assert.deepEqual(await violations(page), []);
    } finally {
      await page.close();
    }
  });

  it("an editor sees the settings read-only, with no Save, and the service refuses the write itself", async () => {
    const page = await onSettings("settings-editor");
    try {
      const tagline = page.getByLabel("Tagline", { exact: true });
      await tagline.waitFor();
      assert.equal(await tagline.getAttribute("readonly"), "");
      assert.equal(await page.getByRole("button", { name: "Save", exact: true }).count(), 0);
      assert.deepEqual(await violations(page), []);
      // The same write the screen would make, sent by the page with the session and its CSRF token.
      const refused = await page.evaluate(async () => {
        const session = await (await fetch("/api/session")).json();
        const answer = await fetch("/api/site/1/settings", {
          method: "PATCH",
          headers: { "content-type": "application/json", "x-csrf-token": session.csrf_token },
          body: JSON.stringify({ tagline: "Taken over" }),
        });
        return { status: answer.status, body: await answer.json() };
      });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code ?? refused.body.error, "insufficient_role");
      const shown = await rawRequest(port, "/welcome/", { host: `localhost:${port}` });
      assert.doesNotMatch(shown.body, /Taken over/);
    } finally {
      await page.close();
    }
  });
});
