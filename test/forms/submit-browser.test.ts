// A form in a real browser (headless Chromium, docs/forms.md "Submitting"), by keyboard only:
// filled and sent, the visitor reaches the thank-you page; sent with errors, the page comes back
// with each error by its field (aria-invalid, aria-describedby) and what was typed kept, and once
// corrected it goes through. axe-core finds no WCAG A/AA violation on the form's page nor on the
// page of errors.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { launchChromium, withBrowser } from "../support/browser.ts";
import { violations } from "../support/axe.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { formSite, keptRows, type FormSite } from "./support.ts";

const THANKS_FRAME =
  '<!DOCTYPE html><html lang="en"><head><title>Thank you</title></head><body><main><h1>Thank you</h1><p>We will write back soon.</p></main></body></html>';

/** A person takes longer than the token's 2 s to fill a form; the keyboard here does not. */
const aPersonsPace = (page: Page) => page.waitForTimeout(2100);

describe("forms: a visitor in a real browser", withBrowser, () => {
  let t: TestApp;
  let browser: Browser;
  let site: FormSite;
  let base = "";

  before(async () => {
    t = await startTestApp();
    site = await formSite(t, "browser-form.localhost");
    const frame = await t.call("POST", `${site.S}/frames`, { body: { slug: "thanks", html: THANKS_FRAME } });
    assert.equal(frame.status, 201, frame.text);
    const thanks = await t.call("POST", `${site.S}/pages`, {
      body: { title: "Thanks", slug: "thanks", frame: "thanks", status: "publish" },
    });
    assert.equal(thanks.status, 201, thanks.text);
    assert.equal((await t.call("PATCH", `${site.S}/forms/contact`, { body: { redirect: "thanks" } })).status, 200);
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    // Chromium takes every *.localhost name for the loopback address.
    base = `http://${site.host}:${(t.app.server.address() as { port: number }).port}`;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Tab to the field named `name` (never past the submit button), as a keyboard user moves. */
  async function tabTo(page: Page, name: string): Promise<void> {
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("Tab");
      if ((await page.evaluate(() => document.activeElement?.getAttribute("name"))) === name) return;
    }
    assert.fail(`Tab never reached ${name}`);
  }

  it("the form's page has no axe violations; filled and sent by keyboard, the visitor reaches the thank-you page", async () => {
    const page = await browser.newPage();
    try {
      const shown = await page.goto(`${base}/contact/`);
      assert.equal(shown?.status(), 200);
      assert.deepEqual(await violations(page), []);
      await tabTo(page, "name");
      await page.keyboard.type("Ada Lovelace");
      await tabTo(page, "email");
      await page.keyboard.type("ada@example.com");
      await tabTo(page, "subscribe");
      await page.keyboard.press("Space");
      await tabTo(page, "message");
      await page.keyboard.type("Hello from the keyboard.");
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), "BUTTON", "the submit button is next");
      await aPersonsPace(page);
      await Promise.all([page.waitForURL(`${base}/thanks/`), page.keyboard.press("Enter")]);
      assert.equal(await page.textContent("h1"), "Thank you");
      const [row] = await keptRows(t, site.siteId);
      assert.deepEqual(JSON.parse(row!.fields_json), {
        name: "Ada Lovelace",
        email: "ada@example.com",
        subscribe: "on",
        message: "Hello from the keyboard.",
      });
    } finally {
      await page.close();
    }
  });

  it("sent with errors, the page shows each error by its field with the input kept (no axe violations); corrected, it goes through", async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${base}/contact/`);
      await tabTo(page, "email");
      await page.keyboard.type("ada-at-example");
      await tabTo(page, "website");
      await page.keyboard.type("example dot com");
      await aPersonsPace(page);
      const [answer] = await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
      assert.equal(answer?.status(), 422);
      assert.equal(await page.textContent("h1"), "Contact us", "the page the form was on");
      const marked = await page.$$eval("[aria-invalid=true]", (inputs) =>
        inputs.map((input) => {
          const message = document.getElementById(input.getAttribute("aria-describedby") ?? "");
          return [input.getAttribute("name"), (input as HTMLInputElement).value, message?.textContent ?? null];
        }),
      );
      assert.deepEqual(marked, [
        ["name", "", "Fill in this field."],
        ["email", "ada-at-example", "Enter an e-mail address, like name@example.com."],
        ["website", "example dot com", "Enter a web address starting with http:// or https://."],
      ]);
      assert.deepEqual(await violations(page), []);
      // Corrected by keyboard on the page of errors.
      await tabTo(page, "name");
      await page.keyboard.type("Ada");
      await tabTo(page, "email");
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.type("ada@example.com");
      await tabTo(page, "website");
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.type("https://example.com");
      await aPersonsPace(page);
      await Promise.all([page.waitForURL(`${base}/thanks/`), page.keyboard.press("Enter")]);
      assert.equal(await page.textContent("h1"), "Thank you");
    } finally {
      await page.close();
    }
  });
});
