// The admin's Frames screens in headless Chromium, driven by role, label and name (docs/admin.md):
// an administrator opens a frame by its slug, types into the HTML field, sees the preview show the
// unsaved markup, saves, and the public page shows it; an editor reads the frame and cannot change
// it; axe-core finds no WCAG A/AA violation. And author markup never runs with the session's
// reach: a frame's script asking for the session gets none, in the preview and on its site's host.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { violations } from "../support/axe.ts";
import { launchChromium, withBrowser } from "../support/browser.ts";
import { startAdminApp } from "../support/admin.ts";
import { adminUser, listening, signedIn } from "../support/admin-browser.ts";
import type { TestApp } from "../support/app.ts";
import { rawRequest } from "../support/raw-http.ts";
import { bind, frame, page as makePage } from "../support/site.ts";

const SHOTS = new URL("../../test-results/", import.meta.url).pathname;

const article = (footer: string, extra = "") =>
  [
    "<!DOCTYPE html>",
    "<html>",
    "<head><title>x</title></head>",
    "<body>",
    `<h1 ${bind("text", "page.title")}>x</h1>`,
    `<div ${bind("html", "page.content")}></div>`,
    ...(extra ? [extra] : []),
    `<footer>${footer}</footer>`,
    "</body>",
    "</html>",
  ].join("\n");

/** A frame whose script asks for the session on its own origin and on the admin's, and writes what it got. */
const probe = (adminOrigin: string) =>
  `<!DOCTYPE html><html><head><title>probe</title></head><body><p id="probe">not run</p><script>
(async () => {
  const got = [];
  for (const url of ["/api/session", "${adminOrigin}/api/session"]) {
    try {
      const answer = await fetch(url, { credentials: "include" });
      const text = await answer.text();
      got.push(answer.status + (text.includes("csrf_token") ? " csrf_token" : ""));
    } catch {
      got.push("refused");
    }
  }
  document.getElementById("probe").textContent = "probed: " + got.join(" | ");
})();
</script></body></html>`;

describe("the admin's Frames screens in a real browser", withBrowser, () => {
  let t: TestApp;
  let browser: Browser;
  let port = 0;
  let admin = "";

  /** A public page of the main site (localhost), as a visitor gets it. */
  const visit = (path: string) => rawRequest(port, path, { host: `localhost:${port}` });

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await startAdminApp();
    await frame(t, "article", article("Original footer"));
    await makePage(t, { title: "Framed page", content: "<p>Body text.</p>", frame: "article", status: "publish" });
    await makePage(t, { title: "Second framed", content: "<p>More.</p>", frame: "article", status: "publish" });
    await adminUser(t, "frame-admin", "administrator");
    await adminUser(t, "frame-editor", "editor");
    ({ port, admin } = await listening(t));
    await frame(t, "probe", probe(`http://admin.localhost:${port}`));
    await makePage(t, { title: "Probe", slug: "probe", content: "", frame: "probe", status: "publish" });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it("edits a frame: the preview shows the unsaved markup, Save publishes it", async () => {
    const page = await signedIn(browser, admin, "frame-admin");
    const refused: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    try {
      await page.getByRole("navigation").getByRole("link", { name: "Frames", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Frames" }).waitFor();
      await page.getByRole("link", { name: "article", exact: true }).waitFor();
      assert.deepEqual(await violations(page), [], "the Frames screen");

      await page.getByRole("link", { name: "article", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Frames: article" }).waitFor();
      const field = page.getByLabel("HTML", { exact: true });
      await field.waitFor();
      assert.equal(await field.getAttribute("contenteditable"), "true");
      const preview = page.frameLocator('iframe[title="Preview"]');
      await preview.getByText("Original footer").waitFor();
      assert.equal(await page.locator('iframe[title="Preview"]').getAttribute("sandbox"), "");

      // Typed, not saved: the preview shows it, the public page does not, the dry run lists the pages.
      const unknown = `<p ${bind("text", "page.nosuch")}>?</p>`;
      await field.fill(article("Changed footer", unknown));
      await preview.getByText("Changed footer").waitFor({ timeout: 5000 });
      assert.match((await visit("/framed-page/")).body, /Original footer/);
      const reach = page.getByRole("region", { name: "Saving changes these pages" });
      await reach.getByText("Framed page", { exact: true }).waitFor();
      await reach.getByText("Second framed", { exact: true }).waitFor();
      // The unknown token's warning, underlined at its line and listed with its line and column.
      await page.locator(".cm-lintRange-warning").first().waitFor();
      await page
        .getByRole("list", { name: "Warnings" })
        .getByText(/^Line 7, column \d+: /)
        .waitFor();
      assert.deepEqual(await violations(page), [], "the frame editor");
      await page.screenshot({ path: `${SHOTS}admin-frame-editor.png` });

      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      const changed = page.getByRole("region", { name: "Pages changed" });
      await changed.getByText("Framed page", { exact: true }).waitFor();
      for (const path of ["/framed-page/", "/second-framed/"]) {
        const published = await visit(path);
        assert.equal(published.status, 200);
        assert.match(published.body, /<footer>Changed footer<\/footer>/);
      }
      assert.deepEqual(refused, [], "the code editor's styles and the preview refused nothing");
    } finally {
      await page.close();
    }
  });

  it("shows an editor the frame read-only: no Save, the field not editable", async () => {
    const page = await signedIn(browser, admin, "frame-editor");
    try {
      await page.goto(`${admin}sites/1/frames/article`);
      await page.getByRole("heading", { level: 1, name: "Frames: article" }).waitFor();
      const field = page.getByLabel("HTML", { exact: true });
      await field.waitFor();
      assert.equal(await field.getAttribute("contenteditable"), "false");
      const before = await field.textContent();
      await field.click();
      await page.keyboard.type("typed by an editor");
      assert.equal(await field.textContent(), before);
      assert.equal(await page.getByRole("button", { name: "Save", exact: true }).count(), 0);
      await page.frameLocator('iframe[title="Preview"]').getByText("footer", { exact: false }).first().waitFor();
      assert.deepEqual(await violations(page), [], "the frame editor, read-only");
    } finally {
      await page.close();
    }
  });

  it("gives a frame's script no session, in the preview and on the site's host", async () => {
    const page = await signedIn(browser, admin, "frame-admin");
    try {
      await page.goto(`${admin}sites/1/frames/probe`);
      const iframe = page.locator('iframe[title="Preview"]');
      await page.frameLocator('iframe[title="Preview"]').locator("#probe").waitFor();
      // Sandboxed with no permission: an opaque origin, never the admin's (no allow-same-origin).
      assert.equal(await iframe.getAttribute("sandbox"), "");
      await page.waitForTimeout(1000);
      const inPreview = await page.frameLocator('iframe[title="Preview"]').locator("#probe").textContent();
      assert.doesNotMatch(inPreview ?? "", /200|csrf_token/, `in the preview: ${inPreview}`);

      // On the site's own host the script runs, in the browser holding the admin's session cookie.
      await page.goto(`http://localhost:${port}/probe/`);
      const probed = page.locator("#probe", { hasText: "probed:" });
      await probed.waitFor();
      const text = (await probed.textContent()) ?? "";
      assert.doesNotMatch(text, /200|csrf_token/, `on the site's host: ${text}`);
      assert.match(text, /^probed: 401 \| /, "its own host's /api/session: no session cookie there");
    } finally {
      await page.close();
    }
  });
});
