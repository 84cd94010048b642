// The page editor's form (admin/pages/page-form.ts): a date typed in the browser's time zone goes
// out as the same instant in UTC and comes back as it was typed; tags are trimmed and empty ones
// dropped; a write sends the content, format, date, tags and feed only when they changed, so the
// service decides what a change of format alone stores.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  bodyOf,
  type EditedPage,
  formFieldOf,
  formOf,
  isAhead,
  isoDateOf,
  localDateOf,
  tagListOf,
} from "../../admin/pages/page-form.ts";

const page = (over: Partial<EditedPage> = {}): EditedPage => ({
  id: 7,
  title: "News",
  slug: "news",
  content: "## Heading\n\n- [ ] task\n",
  content_format: "markdown",
  frame: "article",
  status: "draft",
  date: "2030-03-01T08:30:00Z",
  tags: ["news", "press"],
  feed: false,
  lang: null,
  translations: {},
  url: "http://localhost/news/",
  ...over,
});

describe("the page editor's form", () => {
  // Dates are typed in the browser's zone; the process's zone stands in for it.
  before(() => {
    process.env.TZ = "Europe/Berlin";
  });

  it("a date typed in local time is sent as the same instant in UTC, winter and summer", () => {
    assert.equal(isoDateOf("2030-03-01T09:30"), "2030-03-01T08:30:00Z");
    assert.equal(isoDateOf("2030-07-01T09:30:15"), "2030-07-01T07:30:15Z");
    assert.equal(isoDateOf(""), null, "empty: no date");
  });

  it("an API date is shown in local time, seconds only when it has them, and reads back as the same instant", () => {
    assert.equal(localDateOf("2030-03-01T08:30:00Z"), "2030-03-01T09:30");
    assert.equal(localDateOf("2030-07-01T07:30:15Z"), "2030-07-01T09:30:15");
    assert.equal(localDateOf(null), "");
    for (const iso of ["2024-02-29T23:59:59Z", "2030-10-27T00:30:00Z", "1999-12-31T23:00:00Z"])
      assert.equal(isoDateOf(localDateOf(iso)), iso);
  });

  it("only a date later than now schedules", () => {
    const now = Date.parse("2030-03-01T08:30:00Z");
    assert.equal(isAhead("2030-03-01T09:31", now), true);
    assert.equal(isAhead("2030-03-01T09:30", now), false);
    assert.equal(isAhead("", now), false);
  });

  it("tags typed with commas are trimmed and empty ones dropped", () => {
    assert.deepEqual(tagListOf(" news, press ,, , events "), ["news", "press", "events"]);
    assert.deepEqual(tagListOf(""), []);
  });

  it("a write of an unchanged page sends title, slug and frame only", () => {
    assert.deepEqual(bodyOf(formOf(page()), page()), { title: "News", slug: "news", frame: "article" });
  });

  it("a change of format alone sends the format, not the text", () => {
    const form = { ...formOf(page()), format: "html" as const };
    assert.deepEqual(bodyOf(form, page()), { title: "News", slug: "news", frame: "article", content_format: "html" });
  });

  it("changed content, date, tags and feed are sent; a cleared date is null", () => {
    const form = { ...formOf(page()), content: "# New\n", date: "", tags: "a, b", feed: true };
    assert.deepEqual(bodyOf(form, page()), {
      title: "News",
      slug: "news",
      frame: "article",
      content: "# New\n",
      date: null,
      tags: ["a", "b"],
      feed: true,
    });
  });

  it("a new page sends its content, and its format, date, tags and feed when set", () => {
    assert.deepEqual(bodyOf({ ...formOf(null), title: "A" }, null), { title: "A", frame: null, content: "" });
    const markdown = { ...formOf(null), title: "B", content: "x\ny", format: "markdown" as const, tags: "t" };
    assert.deepEqual(bodyOf({ ...markdown, date: "2030-03-01T09:30" }, null), {
      title: "B",
      frame: null,
      content: "x\ny",
      content_format: "markdown",
      date: "2030-03-01T08:30:00Z",
      tags: ["t"],
    });
  });

  it("a refusal of one item of a list is shown by the list's field", () => {
    assert.equal(formFieldOf("tags.3"), "tags");
    assert.equal(formFieldOf("date"), "date");
    assert.equal(formFieldOf(null), null);
  });
});
