// A page's date, tags and feed (docs/content-model.md, "Dates, tags and feeds"): written by POST
// /pages, PATCH /pages/{ref} and POST /pages/language, answered on reads, checked (400
// invalid_field naming the field), the date set at the first publication unless given, and kept by
// revisions (a restore puts them back).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { dateFrom, isoDate, tagsFrom } from "../../src/pages/post-fields.ts";

describe("pages: date, tags and feed", () => {
  let t: TestApp;
  let n = 0;
  let S = "";
  const api = async (method: string, path: string, body?: unknown, status?: number) => {
    const r = await t.call(method, `${S}${path}`, body === undefined ? {} : { body });
    if (status !== undefined) assert.equal(r.status, status, `${method} ${path}: ${r.text}`);
    return r;
  };
  before(async () => (t = await startTestApp()));
  after(() => t.close());
  const site = async (languages = false) => {
    S = `/api/site/${await makeSite(t, `Posts ${++n}`, `posts${n}.localhost`)}`;
    if (languages) for (const code of ["en", "de"]) await api("POST", "/languages", { code }, 201);
  };

  it("ISO 8601 dates in, UTC ISO 8601 out: a date, a date-time with or without an offset", () => {
    assert.equal(dateFrom("2024-03-05"), "2024-03-05 00:00:00");
    assert.equal(dateFrom("2024-03-05T09:30"), "2024-03-05 09:30:00");
    assert.equal(dateFrom("2024-03-05T09:30:15Z"), "2024-03-05 09:30:15");
    assert.equal(dateFrom("2024-03-05 09:30:15.250+02:00"), "2024-03-05 07:30:15");
    assert.equal(dateFrom("2024-03-05T23:30:00-01:30"), "2024-03-06 01:00:00");
    assert.equal(dateFrom(null), null);
    assert.equal(dateFrom(undefined), undefined);
    for (const bad of [
      "2024-02-30",
      "2024-13-01",
      "2024-03-05T25:00",
      "0999-01-01",
      "5 March 2024",
      "",
      20240305,
      "2024-03-05T09:30+19:00",
    ])
      assert.throws(() => dateFrom(bad), { code: "invalid_field" }, String(bad));
    assert.equal(isoDate("2024-03-05 07:30:15"), "2024-03-05T07:30:15Z");
    assert.equal(isoDate(null), null);
    assert.deepEqual(tagsFrom([" news ", "press", "news", ""]), ["news", "press"]);
    assert.deepEqual(tagsFrom(null), []);
  });

  it("a published page is dated at its first publication unless a date is given; a draft has none until published", async () => {
    await site();
    const draft = (await api("POST", "/pages", { title: "Draft", status: "draft" }, 201)).body.page;
    assert.equal(draft.date, null);
    assert.deepEqual(draft.tags, []);
    assert.equal(draft.feed, false);
    const published = (await api("PATCH", `/pages/${draft.id}`, { status: "publish" }, 200)).body.page;
    assert.match(published.date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    await api("PATCH", `/pages/${draft.id}`, { status: "draft" }, 200);
    const again = (await api("PATCH", `/pages/${draft.id}`, { status: "publish", title: "Again" }, 200)).body.page;
    assert.equal(again.date, published.date, "the first publication stays its date");
    const given = (await api("POST", "/pages", { title: "Dated", date: "2023-12-24T18:00:00+01:00" }, 201)).body.page;
    assert.equal(given.date, "2023-12-24T17:00:00Z");
    const moved = (await api("PATCH", `/pages/${given.id}`, { date: "2024-01-02" }, 200)).body.page;
    assert.equal(moved.date, "2024-01-02T00:00:00Z");
    const cleared = (await api("PATCH", `/pages/${given.id}`, { date: null }, 200)).body.page;
    assert.notEqual(cleared.date, null, "a published page cleared of its date is dated by the write");
    const read = (await api("GET", `/pages/${given.id}`, undefined, 200)).body.page;
    assert.equal(read.date, cleared.date);
  });

  it("page.date prints the page's publication date (the date filter formats it); a new date shows on the next request; no date prints nothing", async () => {
    await site();
    const markup = `<p class="d" data-op-bind='{"text": "{page.date | date:\\"long\\"}"}'></p><p class="iso" data-op-bind='{"text": "page.date"}'></p>`;
    await api("POST", "/frames", { slug: "post", html: markup }, 201);
    const made = (await api("POST", "/pages", { title: "Post", frame: "post", date: "2024-03-05T09:30:00Z" }, 201)).body
      .page;
    const host = new URL(made.url).host;
    const visit = async () =>
      (await t.call("GET", new URL(made.url).pathname, { token: null, headers: { host } })).text;
    assert.match(await visit(), /<p class="d">March 5, 2024<\/p><p class="iso">2024-03-05T09:30:00Z<\/p>/);
    await api("PATCH", `/pages/${made.id}`, { date: "2025-12-24" }, 200);
    assert.match(await visit(), /<p class="d">December 24, 2025<\/p>/);
    const draft = (await api("POST", "/pages", { title: "Undated", frame: "post", status: "draft" }, 201)).body.page;
    const preview = (await api("POST", "/preview", { page: draft.id }, 200)).body;
    assert.match(preview.html, /<p class="d"><\/p><p class="iso"><\/p>/);
  });

  it("tags and feed are written, merged by PATCH as given, answered on reads and in lists", async () => {
    await site();
    const page = (await api("POST", "/pages", { title: "News", tags: ["news", " press "], feed: true }, 201)).body.page;
    assert.deepEqual(page.tags, ["news", "press"]);
    assert.equal(page.feed, true);
    const patched = (await api("PATCH", `/pages/${page.id}`, { tags: ["jobs"] }, 200)).body.page;
    assert.deepEqual(patched.tags, ["jobs"]);
    assert.equal(patched.feed, true, "a field not given stays");
    const off = (await api("PATCH", `/pages/${page.id}`, { feed: false, tags: null }, 200)).body.page;
    assert.equal(off.feed, false);
    assert.deepEqual(off.tags, []);
    const listed = (await api("GET", "/pages", undefined, 200)).body.pages[0];
    assert.deepEqual([listed.tags, listed.feed, listed.date], [[], false, off.date]);
  });

  it("wrong values are 400 invalid_field naming the field, on POST, PATCH and POST /pages/language", async () => {
    await site(true);
    const page = (await api("POST", "/pages", { title: "Origin", lang: "en" }, 201)).body.page;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ date: "yesterday" }, "date"],
      [{ date: 5 }, "date"],
      [{ tags: "news" }, "tags"],
      [{ tags: ["ok", 3] }, "tags.1"],
      [{ tags: ["x".repeat(201)] }, "tags.0"],
      [{ tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }, "tags"],
      [{ feed: "yes" }, "feed"],
    ];
    for (const [body, field] of cases) {
      for (const [method, path, extra] of [
        ["POST", "/pages", { title: "X" }],
        ["PATCH", `/pages/${page.id}`, {}],
        ["POST", "/pages/language", { page: page.id, lang: "de" }],
      ] as const) {
        const r = await api(method, path, { ...extra, ...body });
        assert.equal(r.status, 400, `${method} ${path} ${JSON.stringify(body)}: ${r.text}`);
        assert.equal(r.body.error, "invalid_field");
        assert.equal(r.body.field, field, JSON.stringify(body));
      }
    }
  });

  it("a translation takes its origin's date, tags and feed unless given; given ones are its own", async () => {
    await site(true);
    const origin = (
      await api("POST", "/pages", { title: "News", lang: "en", date: "2024-01-01", tags: ["a"], feed: true }, 201)
    ).body.page;
    const de = (await api("POST", "/pages/language", { page: origin.id, lang: "de", title: "Neues" }, 201)).body.page;
    assert.deepEqual([de.date, de.tags, de.feed], ["2024-01-01T00:00:00Z", ["a"], true]);
    const updated = (
      await api(
        "POST",
        "/pages/language",
        { page: origin.id, lang: "de", date: "2024-02-02", tags: ["b"], feed: false },
        200,
      )
    ).body.page;
    assert.deepEqual([updated.date, updated.tags, updated.feed], ["2024-02-02T00:00:00Z", ["b"], false]);
  });

  it("revisions keep date, tags and feed; a restore puts them back", async () => {
    await site();
    const page = (await api("POST", "/pages", { title: "Kept", date: "2024-01-01", tags: ["one"] }, 201)).body.page;
    await api("PATCH", `/pages/${page.id}`, { date: "2025-05-05", tags: ["two"], feed: true }, 200);
    const revisions = (await api("GET", `/pages/${page.id}/revisions`, undefined, 200)).body;
    assert.deepEqual(revisions.revisions[0].summary, ["date", "feed", "tags"]);
    const restored = (await api("POST", `/pages/${page.id}/revisions/1/restore`, undefined, 200)).body.page;
    assert.deepEqual([restored.date, restored.tags, restored.feed], ["2024-01-01T00:00:00Z", ["one"], false]);
  });
});
