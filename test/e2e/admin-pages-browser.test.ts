// The admin's Pages screens in headless Chromium, driven by role, label and name as a person with
// a keyboard and a screen reader would (docs/admin.md): an editor signs in, switches sites, writes
// a page in two languages, publishes it, restores a revision, moves it to the trash and back, and
// signs out; every result is checked on the public site, every screen with axe-core (WCAG A/AA),
// and the main screens are kept as screenshots under test-results/.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { violations } from "../support/axe.ts";
import { launchChromium, withBrowser } from "../support/browser.ts";
import { startAdminApp } from "../support/admin.ts";
import { makeSite, makeUser, type TestApp } from "../support/app.ts";
import { rawRequest } from "../support/raw-http.ts";
import { bind, frame } from "../support/site.ts";

const PASSWORD = "correct horse battery";
const SHOTS = new URL("../../test-results/", import.meta.url).pathname;

describe("the admin's Pages screens in a real browser", withBrowser, () => {
  let t: TestApp;
  let browser: Browser;
  let port = 0;
  let admin = "";
  let second = 0;

  /** A public page of the main site (localhost), as a visitor gets it. */
  const visit = (path: string) => rawRequest(port, path, { host: `localhost:${port}` });

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await startAdminApp();
    for (const code of ["en", "de"])
      assert.equal((await t.call("POST", "/api/site/1/languages", { body: { code } })).status, 201);
    await frame(
      t,
      "article",
      `<!DOCTYPE html><html><head><title>x</title></head><body><h1 ${bind("text", "page.title")}>x</h1><div ${bind("html", "page.content")}></div></body></html>`,
    );
    const editor = await makeUser(t, "page-editor", { password: PASSWORD });
    second = await makeSite(t, "Second site", "second.example");
    for (const site of [1, second])
      assert.equal(
        (await t.call("PUT", `/api/site/${site}/users/${editor.id}`, { body: { role: "editor" } })).status,
        200,
      );
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as { port: number }).port;
    admin = `http://admin.localhost:${port}/admin/`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it("signs in, writes a page in two languages, restores a revision, trashes and restores it, and signs out", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const refused: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    try {
      await page.goto(admin);
      await page.getByLabel("Login", { exact: true }).fill("page-editor");
      await page.getByLabel("Password", { exact: true }).fill("not the password");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("alert").filter({ hasText: "Wrong login or password." }).waitFor();
      assert.deepEqual(await violations(page), [], "the sign-in screen with its error");
      await page.screenshot({ path: `${SHOTS}admin-sign-in.png` });

      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Password", { exact: true }).press("Enter");
      await page.getByRole("heading", { level: 1, name: "Pages" }).waitFor();
      const navigation = page.getByRole("navigation");
      assert.ok(await navigation.getByRole("link", { name: "Pages", exact: true }).isVisible());
      const site = page.getByLabel("Site", { exact: true });
      assert.deepEqual(await site.locator("option").allTextContents(), [await siteName(1), "Second site"]);
      assert.deepEqual(await violations(page), [], "the Pages screen");

      // A site the user may reach, and back.
      await site.selectOption({ label: "Second site" });
      await page.waitForURL(new RegExp(`/admin/sites/${second}/pages$`));
      await site.selectOption({ index: 0 });
      await page.waitForURL(/\/admin\/sites\/1\/pages$/);

      // A new page: a draft, the editor staying on it.
      await page.getByRole("button", { name: "New page", exact: true }).click();
      await page.getByLabel("Title", { exact: true }).fill("About us");
      await page.getByLabel("Content", { exact: true }).fill("We make things.");
      await page.getByLabel("Frame", { exact: true }).selectOption("article");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText("Status: Draft").waitFor();
      await page.waitForURL(/\/admin\/sites\/1\/pages\/\d+$/);
      const id = Number(page.url().split("/").pop());
      assert.equal((await visit("/about-us/")).status, 404, "a draft is not public");

      await page.getByRole("button", { name: "Publish", exact: true }).click();
      await page.getByText("Status: Published").waitFor();
      const published = await visit("/about-us/");
      assert.equal(published.status, 200);
      assert.match(published.body, /<h1[^>]*>About us<\/h1>/);
      assert.match(published.body, /We make things\./);
      assert.deepEqual(await violations(page), [], "the page editor");
      await page.screenshot({ path: `${SHOTS}admin-page-editor.png` });

      // A published page stays published on Save.
      await page.getByLabel("Title", { exact: true }).fill("About our studio");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      assert.match((await visit("/about-us/")).body, /<h1[^>]*>About our studio<\/h1>/);

      // Revisions: newest first, each restorable at once (a new revision).
      await page.getByRole("button", { name: "Revisions", exact: true }).click();
      const rows = page.getByRole("listitem").filter({ hasText: /^Revision \d+/ });
      await rows.first().waitFor();
      const numbers = (await rows.allTextContents()).map((text) => Number(/Revision (\d+)/.exec(text)![1]));
      assert.deepEqual(
        numbers,
        [...numbers].sort((a, b) => b - a),
        "newest first",
      );
      const first = Math.min(...numbers);
      await page.getByRole("button", { name: `Restore Revision ${first}`, exact: true }).click();
      await page
        .getByRole("status")
        .filter({ hasText: `Revision ${first} restored` })
        .waitFor();
      assert.equal(await page.getByLabel("Title", { exact: true }).inputValue(), "About us");
      assert.equal((await visit("/about-us/")).status, 404, "revision 1 was the draft");
      await page.getByRole("button", { name: "Publish", exact: true }).click();
      await page.getByText("Status: Published").waitFor();

      // The translation: made from the editor, written and published in German.
      await page.getByRole("button", { name: "Translate into de", exact: true }).click();
      await page.waitForURL((url) => !url.pathname.endsWith(`/pages/${id}`));
      await page.getByLabel("Title", { exact: true }).fill("Über uns");
      await page.getByLabel("Slug", { exact: true }).fill("ueber-uns");
      await page.getByLabel("Content", { exact: true }).fill("Wir machen Dinge.");
      await page.getByLabel("Frame", { exact: true }).selectOption("article");
      await page.getByRole("button", { name: "Publish", exact: true }).click();
      await page.getByText("Status: Published").waitFor();
      const german = await visit("/de/ueber-uns/");
      assert.equal(german.status, 200);
      assert.match(german.body, /Wir machen Dinge\./);
      await page.getByRole("link", { name: "en", exact: true }).click();
      await page.waitForURL(new RegExp(`/pages/${id}$`));

      // Move to trash, no confirmation; Undo puts it back.
      await page.getByRole("button", { name: "Move to trash", exact: true }).click();
      await page.getByText("Status: Trash").waitFor();
      assert.equal((await visit("/about-us/")).status, 404);
      await page.getByRole("button", { name: "Undo", exact: true }).click();
      await page.getByText("Status: Published").waitFor();
      assert.equal((await visit("/about-us/")).status, 200);

      // The list: each page a link named by its title, its status in its row.
      await page.getByRole("navigation").getByRole("link", { name: "Pages", exact: true }).click();
      const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "About us", exact: true }) });
      await row.waitFor();
      assert.match((await row.textContent()) ?? "", /Published/);
      await page.screenshot({ path: `${SHOTS}admin-pages.png` });

      // Sign out: the sign-in screen, also after a reload.
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
      await page.reload();
      await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
      assert.equal(await page.getByRole("navigation").count(), 0);
      assert.deepEqual(refused, [], "nothing refused by the Content-Security-Policy");
    } finally {
      await page.close();
    }
  });

  async function siteName(id: number): Promise<string> {
    return (await t.call("GET", `/api/sites/${id}`)).body.site.name;
  }
});
