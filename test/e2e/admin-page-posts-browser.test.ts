// The page editor's Format, Date, Tags and Feed in headless Chromium (docs/admin.md, "Pages"), in a
// browser whose time zone is Europe/Berlin: an editor writes a Markdown page, schedules one,
// tags one and gives it a feed, by role and label; each result is checked through the API and on
// the public site over a socket, and axe-core finds no WCAG A/AA violation on the editor.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { violations } from "../support/axe.ts";
import { launchChromium, withBrowser } from "../support/browser.ts";
import { startAdminApp } from "../support/admin.ts";
import { adminUser, listening, signedIn } from "../support/admin-browser.ts";
import type { TestApp } from "../support/app.ts";
import { rawHeader, rawRequest } from "../support/raw-http.ts";
import { bind, frame, page as makePage } from "../support/site.ts";

const SHOTS = new URL("../../test-results/", import.meta.url).pathname;
const BERLIN = { timezoneId: "Europe/Berlin", locale: "en-GB" };

describe("the page editor's Format, Date, Tags and Feed in a real browser", withBrowser, () => {
  let t: TestApp;
  let browser: Browser;
  let port = 0;
  let admin = "";

  /** A public page of the main site (localhost), as a visitor gets it over a socket. */
  const visit = (path: string) => rawRequest(port, path, { host: `localhost:${port}` });
  /** The page as the API answers it. */
  const stored = async (id: number) => (await t.call("GET", `/api/site/1/pages/${id}`)).body.page;
  /** The id of the page the editor shows. */
  const shownId = (page: Page) => Number(page.url().split("/").pop());

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await startAdminApp();
    await frame(
      t,
      "article",
      `<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><h1 ${bind("text", "page.title")}>x</h1><div ${bind("html", "page.content")}></div></body></html>`,
    );
    await adminUser(t, "post-editor", "editor");
    ({ port, admin } = await listening(t));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** The editor of a new page, its title and frame filled in. */
  async function newPage(title: string): Promise<Page> {
    const page = await signedIn(browser, admin, "post-editor", BERLIN);
    await page.getByRole("button", { name: "New page", exact: true }).click();
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Frame", { exact: true }).selectOption("article");
    return page;
  }

  it("a Markdown page keeps its source (newlines, headings, task lists) through the editor, and its public page prints the HTML", async () => {
    const source = "## Plan\n\n- [ ] task\n- [x] done\n\nLine one\nline two\n";
    const page = await newPage("Plan");
    try {
      await page.getByLabel("Format", { exact: true }).selectOption({ label: "Markdown" });
      const content = page.getByRole("textbox", { name: "Content", exact: true });
      assert.equal(await content.evaluate((field) => field.tagName), "TEXTAREA", "Markdown is edited as plain text");
      await content.fill(source);
      assert.deepEqual(await violations(page), [], "the editor of a Markdown page");
      await page.getByRole("button", { name: "Publish", exact: true }).click();
      await page.getByText("Status: Published").waitFor();
      const id = shownId(page);
      assert.equal((await stored(id)).content, source);
      assert.equal((await stored(id)).content_format, "markdown");
      const published = await visit("/plan/");
      assert.equal(published.status, 200);
      assert.match(published.body, /<h2[^>]*>Plan<\/h2>/);
      assert.match(published.body, /<li class="task-list-item"><input [^>]*type="checkbox"[^>]*>/);
      assert.match(published.body, /Line one\nline two/);

      // Opened again, the source shows as stored; an edit sends it back character for character.
      await page.reload();
      const again = page.getByRole("textbox", { name: "Content", exact: true });
      assert.equal(await again.inputValue(), source);
      await again.fill(`${source}\n- [ ] another\n`);
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      assert.equal((await stored(id)).content, `${source}\n- [ ] another\n`);
      assert.match((await visit("/plan/")).body, /another/);
      await page.screenshot({ path: `${SHOTS}admin-page-markdown.png` });
    } finally {
      await page.close();
    }
  });

  it("a change of format keeps the text as it stands and sends the format alone", async () => {
    const made = await makePage(t, { title: "Plain", status: "draft", content: "<p>Hello <b>there</b></p>" });
    const page = await signedIn(browser, admin, "post-editor", BERLIN);
    try {
      await page.goto(`${admin}sites/1/pages/${made.id}`);
      await page.getByLabel("Format", { exact: true }).selectOption("markdown");
      assert.equal(
        await page.getByRole("textbox", { name: "Content", exact: true }).inputValue(),
        "<p>Hello <b>there</b></p>",
      );
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      const after = await stored(made.id);
      assert.deepEqual([after.content_format, after.content], ["markdown", "<p>Hello <b>there</b></p>"]);
    } finally {
      await page.close();
    }
  });

  it("a date ahead turns Publish into Schedule: the page is future (not public), shows Scheduled with its date, and Unschedule makes it a draft", async () => {
    const page = await newPage("Launch");
    try {
      await page.getByLabel("Date", { exact: true }).fill("2031-03-01T09:30");
      assert.equal(await page.getByRole("button", { name: "Publish", exact: true }).count(), 0);
      await page.getByRole("button", { name: "Schedule", exact: true }).click();
      await page.getByText("Status: Scheduled · goes out March 1, 2031 at 09:30").waitFor();
      await page.getByRole("status").filter({ hasText: "Scheduled for March 1, 2031 at 09:30." }).waitFor();
      const id = shownId(page);
      const scheduled = await stored(id);
      assert.deepEqual([scheduled.status, scheduled.date], ["future", "2031-03-01T08:30:00Z"]);
      assert.equal((await visit("/launch/")).status, 404, "a scheduled page is not public");
      assert.deepEqual(await violations(page), [], "the editor of a scheduled page");
      await page.screenshot({ path: `${SHOTS}admin-page-scheduled.png` });

      await page.getByRole("button", { name: "Unschedule", exact: true }).click();
      await page.getByText("Status: Draft").waitFor();
      const draft = await stored(id);
      assert.deepEqual([draft.status, draft.date], ["draft", "2031-03-01T08:30:00Z"]);
      assert.equal((await visit("/launch/")).status, 404);
    } finally {
      await page.close();
    }
  });

  it("a date typed in the browser's time zone (Europe/Berlin) reaches the API as the same instant in UTC and shows back as typed", async () => {
    const page = await newPage("Summer");
    try {
      await page.getByText("In your time zone, Europe/Berlin.").waitFor();
      await page.getByLabel("Date", { exact: true }).fill("2020-07-01T09:30");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText("Status: Draft").waitFor();
      const id = shownId(page);
      assert.equal((await stored(id)).date, "2020-07-01T07:30:00Z", "CEST is UTC+2");
      await page.reload();
      assert.equal(await page.getByLabel("Date", { exact: true }).inputValue(), "2020-07-01T09:30");
    } finally {
      await page.close();
    }
  });

  it("a date that has come, scheduled, is published at once and the service's warning is shown", async () => {
    const page = await newPage("Late");
    try {
      // The browser's clock is behind the service's, so Schedule is offered for a date already past.
      await page.clock.setFixedTime(new Date("2019-01-01T00:00:00Z"));
      await page.getByLabel("Date", { exact: true }).fill("2020-01-01T10:00");
      await page.getByRole("button", { name: "Schedule", exact: true }).click();
      await page.getByText("Status: Published").waitFor();
      await page.getByRole("status").filter({ hasText: "Published." }).waitFor();
      assert.match((await page.getByRole("status").textContent()) ?? "", /has come, so the page was published now/);
      const late = await stored(shownId(page));
      assert.deepEqual([late.status, late.date], ["publish", "2020-01-01T09:00:00Z"]);
      assert.equal((await visit("/late/")).status, 200);
    } finally {
      await page.close();
    }
  });

  it("tags (trimmed, empty ones dropped) and the feed are written, and the published page links its feed, which answers at feed.xml", async () => {
    const page = await newPage("News");
    try {
      await page.getByLabel("Tags", { exact: true }).fill(" news , press,, ");
      await page.getByLabel("Publishes a feed (feed.xml)", { exact: true }).check();
      await page.getByRole("button", { name: "Publish", exact: true }).click();
      await page.getByText("Status: Published").waitFor();
      const id = shownId(page);
      const news = await stored(id);
      assert.deepEqual([news.tags, news.feed], [["news", "press"], true]);
      await makePage(t, { title: "First post", parent: id, frame: "article", content: "<p>Hello.</p>" });

      const link = page.getByRole("link", { name: "View feed", exact: true });
      assert.equal(await link.getAttribute("href"), `${news.url}feed.xml`);
      const feed = await visit("/news/feed.xml");
      assert.equal(feed.status, 200);
      assert.match(rawHeader(feed, "content-type") ?? "", /^application\/atom\+xml/);
      assert.match(feed.body, /<entry>\s*<title[^>]*>(<!\[CDATA\[)?First post(\]\]>)?<\/title>/);
      assert.equal(await page.getByLabel("Tags", { exact: true }).inputValue(), "news, press");
    } finally {
      await page.close();
    }
  });

  it("a date the service refuses is shown by the date field (its description), not in the alert, and axe finds nothing", async () => {
    const page = await newPage("Ancient");
    try {
      const date = page.getByLabel("Date", { exact: true });
      await date.fill("0999-12-31T10:00");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      const error = page.locator("#page-date-error");
      await error.filter({ hasText: "date must be an ISO 8601 date or date-time" }).waitFor();
      assert.equal(await date.getAttribute("aria-invalid"), "true");
      assert.match((await date.getAttribute("aria-describedby")) ?? "", /\bpage-date-error\b/);
      assert.equal(((await page.getByRole("alert").textContent()) ?? "").trim(), "");
      assert.equal(page.url().endsWith("/pages/new"), true, "nothing was written");
      assert.deepEqual(await violations(page), [], "the editor with a refused date");
    } finally {
      await page.close();
    }
  });

  it("a partly typed date is refused by the date field, never sent as no date", async () => {
    const made = await makePage(t, { title: "Dated", status: "draft", date: "2030-03-01T08:30:00Z" });
    const page = await signedIn(browser, admin, "post-editor", BERLIN);
    try {
      await page.goto(`${admin}sites/1/pages/${made.id}`);
      const date = page.getByLabel("Date", { exact: true });
      assert.equal(await date.inputValue(), "2030-03-01T09:30");
      // Clear its first part alone (the day, en-GB): the field's value is then "", with badInput.
      await date.focus();
      await date.press("Backspace");
      assert.equal(await date.inputValue(), "");
      // Save submits the form, which the browser's own check of the field stops; Publish is refused here.
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByRole("button", { name: "Publish", exact: true }).click();
      await page.locator("#page-date-error").filter({ hasText: "The date is incomplete" }).waitFor();
      assert.equal((await stored(made.id)).status, "draft");
      assert.equal((await stored(made.id)).date, "2030-03-01T08:30:00Z");
    } finally {
      await page.close();
    }
  });

  it("every control of the editor is reached with Tab, in order", async () => {
    const page = await newPage("Keys");
    try {
      await page.getByLabel("Title", { exact: true }).focus();
      const reached: string[] = [];
      for (let step = 0; step < 60; step++) {
        const at = await page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent || "");
        if (reached.at(-1) !== at) reached.push(at);
        if (at === "Save") break;
        await page.keyboard.press("Tab");
      }
      const controls = ["page-title", "page-slug", "page-format", "page-frame", "page-date", "page-tags", "page-feed"];
      assert.deepEqual(
        reached.filter((id) => controls.includes(id)),
        controls,
      );
      assert.ok(reached.includes("Save"));
    } finally {
      await page.close();
    }
  });
});
