// Scheduled publishing (docs/content-model.md, "Dates and scheduled publishing"): `date` read and
// answered, `future` refused without a date and published at once with a date that has come, a
// future page shown nowhere (404 as a draft, no list, menu or sitemap), listed by
// GET /pages?status=future, and published at its date by the process's scheduler through the
// write path: a `page.published` event by nobody, a revision that keeps status and date. The
// public socket tests of the same are test/publish/effects-scheduled.test.ts and
// test/process/scheduled-publish.test.ts.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeUser, startTestApp, type TestApp } from "../support/app.ts";
import { frame, S, visit } from "../support/site.ts";
import { serviceContext } from "../../src/app-deps.ts";
import { publishScheduled } from "../../src/pages/scheduler.ts";
import { eventually } from "../cluster/helpers.ts";

/** An ISO 8601 date `ms` from now, to the second (as dates are stored), in UTC. */
const fromNow = (ms: number) => `${new Date(Date.now() + ms).toISOString().slice(0, 19)}Z`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("scheduled publishing: date, status future, the scheduler", () => {
  let t: TestApp;
  const write = (method: string, path: string, body: unknown, token?: string) =>
    t.call(method, `${S}${path}`, { body, ...(token ? { token } : {}) });
  const pageOf = async (id: number) => (await t.call("GET", `${S}/pages/${id}`)).body.page;

  before(async () => {
    t = await startTestApp({ env: { SVC_SCHEDULE_MS: "200" } });
    const link = `<a data-op-bind='{"href": "item.url", "text": "item.title"}'></a>`;
    await frame(
      t,
      "sched-list",
      `<ul><!-- svc/repeat {"source": "pages"} --><li>${link}</li><!-- /svc/repeat --></ul>`,
    );
    await frame(t, "sched-plain", `<p>scheduled page</p>`);
    const lister = await write("POST", "/pages", { title: "All", slug: "sched-all", frame: "sched-list" });
    assert.equal(lister.status, 201, lister.text);
  });
  after(() => t.close());

  it("date: ISO 8601 (a date, or a date-time; UTC without an offset), stored to the second in UTC and answered with Z; null clears it; anything else is 400 invalid_field", async () => {
    const made = await write("POST", "/pages", {
      title: "Dated",
      status: "draft",
      date: "2030-03-01T09:30:15.250+01:00",
    });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.page.date, "2030-03-01T08:30:15Z");
    const id = made.body.page.id;
    assert.equal((await write("PATCH", `/pages/${id}`, { date: "2030-03-01" })).body.page.date, "2030-03-01T00:00:00Z");
    assert.equal(
      (await write("PATCH", `/pages/${id}`, { date: "2030-03-01T09:30:00" })).body.page.date,
      "2030-03-01T09:30:00Z",
    );
    assert.equal((await write("PATCH", `/pages/${id}`, { date: null })).body.page.date, null);
    for (const date of ["0050-01-01T00:00Z", "2030-02-30T00:00:00Z", "2030-03-01T24:00:00Z", 42, "soon"]) {
      const refused = await write("PATCH", `/pages/${id}`, { date });
      assert.equal(refused.status, 400, `${date}: ${refused.text}`);
      assert.equal(refused.body.error, "invalid_field");
      assert.equal(refused.body.field, "date");
    }
  });

  it("status future without a date is 400 invalid_field (field date), on POST and PATCH, and writes nothing", async () => {
    const refused = await write("POST", "/pages", { title: "No date", status: "future" });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.error, "invalid_field");
    assert.equal(refused.body.field, "date");
    assert.equal((await t.call("GET", `${S}/pages/no-date`)).status, 404);
    const draft = await write("POST", "/pages", { title: "Undated draft", status: "draft" });
    const patched = await write("PATCH", `/pages/${draft.body.page.id}`, { status: "future" });
    assert.equal(patched.status, 400, patched.text);
    assert.equal((await pageOf(draft.body.page.id)).status, "draft");
  });

  it("status future with a date that has come publishes at once, with warning published_now", async () => {
    const done = await write("POST", "/pages", {
      title: "Late",
      frame: "sched-plain",
      status: "future",
      date: "2020-01-01T00:00:00Z",
    });
    assert.equal(done.status, 201, done.text);
    assert.equal(done.body.page.status, "publish");
    assert.equal(done.body.page.date, "2020-01-01T00:00:00Z");
    const warned = done.body.warnings.find((w: any) => w.code === "published_now");
    assert.ok(warned, JSON.stringify(done.body.warnings));
    assert.equal(warned.date, "2020-01-01T00:00:00Z");
    assert.equal((await visit(t, "/late/")).status, 200);
  });

  it("a future page is shown nowhere: 404 as a draft, printed none (future), out of lists, menus and the sitemap; GET /pages lists it by default and with ?status=future", async () => {
    const made = await write("POST", "/pages", {
      title: "Tomorrow",
      frame: "sched-plain",
      status: "future",
      date: fromNow(24 * 3600_000),
    });
    assert.equal(made.status, 201, made.text);
    const page = made.body.page;
    assert.equal(page.status, "future");
    assert.deepEqual(page.printed, { how: "none", reason: "future" });
    assert.equal(page.visible, false);
    const gone = await t.app.inject({ method: "GET", url: "/tomorrow/", headers: { host: "localhost:8080" } });
    assert.equal(gone.statusCode, 404);
    assert.doesNotMatch((await visit(t, "/sched-all/")).body, /Tomorrow/);
    const menu = await write("POST", "/menus", { name: "Sched", items: [{ page: page.id }] });
    assert.equal(menu.status, 409, "a menu item on it is refused as on a draft");
    assert.deepEqual(
      menu.body.invalid.map((item: any) => [item.status, item.reason]),
      [["future", "draft"]],
    );
    assert.doesNotMatch((await visit(t, "/sitemap.xml")).body, /tomorrow/);
    const future = await t.call("GET", `${S}/pages`, { query: { status: "future" } });
    assert.deepEqual(
      future.body.pages.map((p: any) => p.id),
      [page.id],
    );
    const listed = await t.call("GET", `${S}/pages`);
    assert.ok(listed.body.pages.some((p: any) => p.id === page.id));
    assert.equal(
      (await t.call("GET", `${S}/pages`, { query: { status: "publish" } })).body.pages.some(
        (p: any) => p.id === page.id,
      ),
      false,
    );
  });

  it("at its date the scheduler publishes it through the write path: public, listed, in the sitemap; one page.published event by nobody; the revisions keep status and date", async () => {
    const date = fromNow(2_000);
    const made = await write("POST", "/pages", { title: "Soon", frame: "sched-plain", status: "future", date });
    assert.equal(made.body.page.status, "future", made.text);
    const id = made.body.page.id;
    assert.equal((await visit(t, "/soon/")).status, 404);
    let status = "future";
    for (let i = 0; i < 60 && status === "future"; i++) {
      await sleep(100);
      status = (await pageOf(id)).status;
    }
    assert.equal(status, "publish");
    assert.ok(Date.now() >= Date.parse(date), "not before its date");
    const published = await pageOf(id);
    assert.equal(published.date, date, "the date stays the scheduled one");
    // The scheduler's write commits, then its publish run rebakes: the event says when that is over
    // (docs/events.md, `published`), and from then on the public site shows it.
    const eventsOfPage = async () =>
      (await t.call("GET", `${S}/events`, { query: { type: "page.published" } })).body.events.filter(
        (event: any) => event.object.id === String(id),
      );
    const events = await eventually(eventsOfPage, (found) => found[0]?.published != null, 60, 100);
    assert.ok(events[0]?.published, "the publish run of the scheduler's write is over");
    assert.equal((await visit(t, "/soon/")).status, 200);
    assert.match((await visit(t, "/sched-all/")).body, />Soon</);
    assert.match((await visit(t, "/sitemap.xml")).body, /\/soon\//);
    assert.equal(events.length, 1);
    assert.deepEqual(events[0].actor, { user_id: null, token_id: null });
    const revisions = (await t.call("GET", `${S}/pages/${id}/revisions`)).body.revisions;
    const kept = async (n: number) => (await t.call("GET", `${S}/pages/${id}/revisions/${n}`)).body.revision.fields;
    const [last, first] = [await kept(revisions[0].revision), await kept(revisions.at(-1).revision)];
    assert.deepEqual([first.status, first.date], ["future", date]);
    assert.deepEqual([last.status, last.date], ["publish", date]);
  });

  it("a page edited before its time (date moved later, status changed) is not published by a look that read it due", async () => {
    const ctx = serviceContext(t.deps);
    const later = await write("POST", "/pages", {
      title: "Moved later",
      status: "future",
      date: fromNow(3600_000),
    });
    assert.equal(await publishScheduled(ctx, 1, later.body.page.id), false);
    assert.equal((await pageOf(later.body.page.id)).status, "future");
    const drafted = await write("POST", "/pages", { title: "Drafted", status: "draft", date: "2020-01-01T00:00:00Z" });
    assert.equal(await publishScheduled(ctx, 1, drafted.body.page.id), false);
    assert.equal((await pageOf(drafted.body.page.id)).status, "draft");
  });

  it("an editor may schedule as they may publish; a translation of a future page shares its status and date", async () => {
    const editor = await makeUser(t, "sched-editor");
    assert.equal((await t.call("PUT", `${S}/users/${editor.id}`, { body: { role: "editor" } })).status, 200);
    assert.equal((await write("POST", "/languages", { code: "en" })).status, 201);
    assert.equal((await write("POST", "/languages", { code: "de" })).status, 201);
    const date = fromNow(24 * 3600_000);
    const made = await write("POST", "/pages", { title: "Editor's", lang: "en", status: "future", date }, editor.token);
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.page.status, "future");
    const translated = await write("POST", "/pages/language", {
      page: made.body.page.id,
      lang: "de",
      title: "Des Editors",
    });
    assert.equal(translated.status, 201, translated.text);
    assert.deepEqual([translated.body.page.status, translated.body.page.date], ["future", date]);
  });
});
