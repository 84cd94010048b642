// The submissions API (docs/forms.md, "Submissions"): paged newest first like every list, CSV for
// spreadsheets (declared order, formulas made text), one by id, a delete that frees its quota place
// and makes an event; editors read, administrators delete; another form's or site's is 404.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { makeSite, startEditedSite, type EditedSite } from "../support/app.ts";
import { page } from "../support/site.ts";
import { storeSubmission } from "../support/form-submissions.ts";
import { recountUsage, usageOf } from "../../src/quotas/usage.ts";

const contact = {
  name: "contact",
  fields: [
    { name: "name", required: true },
    { name: "email", type: "email" },
    { name: "message", type: "textarea" },
  ],
};

describe("forms: the submissions API", () => {
  let s: EditedSite;
  let other: number;
  const ids: number[] = [];
  let foreignId: number;
  let otherFormId: number;
  let pageId: number;
  before(async () => {
    s = await startEditedSite("Submissions", "submissions.localhost", "submissions-editor");
    assert.equal((await s.admin("POST", "/forms", contact)).status, 201);
    assert.equal((await s.admin("POST", "/forms", { name: "newsletter", fields: [{ name: "email" }] })).status, 201);
    pageId = (await page(s.t, { title: "Contact", slug: "contact", lang: "en", status: "publish" }, s.S)).id;
    const db = s.t.store.db;
    const start = Date.now() - 60_000;
    const sent: Array<Record<string, string>> = [
      { name: "Ada", email: "ada@example.test", message: 'Hello, "world"\nsecond line' },
      { name: '=HYPERLINK("http://evil.test")', email: "eve@example.test", message: "+1 more" },
      { name: "-2", message: "@SUM(A1)", extra: "not declared" },
      { name: "Dora", email: "dora@example.test", message: "\tTabbed" },
      { name: "Eli", email: "eli@example.test", message: "Last" },
    ];
    for (const [i, fields] of sent.entries())
      ids.push(await storeSubmission(db, s.site, "contact", { fields, pageId, lang: "en", at: start + i * 1000 }));
    otherFormId = await storeSubmission(db, s.site, "newsletter", { fields: { email: "x@example.test" } });
    other = await makeSite(s.t, "Other", "other-submissions.localhost");
    await s.t.call("POST", `/api/site/${other}/forms`, { body: contact });
    foreignId = await storeSubmission(db, other, "contact", { fields: { name: "Foreign" } });
  });
  after(() => s.t.close());

  it("GET /forms/{name}/submissions: newest first, {id, form, fields, page, lang, created_at, user_agent} (no address), paged with X-WP-Total and Link", async () => {
    const all = await s.as("GET", "/forms/contact/submissions");
    assert.equal(all.status, 200, all.text);
    assert.equal(all.body.total, 5);
    assert.deepEqual(
      all.body.submissions.map((one: any) => one.id),
      [...ids].reverse(),
    );
    const first = all.body.submissions.at(-1);
    assert.deepEqual(Object.keys(first).sort(), ["created_at", "fields", "form", "id", "lang", "page", "user_agent"]);
    assert.deepEqual(first.page, { id: pageId, path: "/contact" });
    assert.equal(first.form, "contact");
    assert.equal(first.lang, "en");
    assert.match(first.created_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.ok(!all.text.includes("hash-of-the-address"));

    const paged = await s.t.call("GET", `${s.S}/forms/contact/submissions?per_page=2&page=2`);
    assert.deepEqual(
      paged.body.submissions.map((one: any) => one.id),
      [ids[2], ids[1]],
    );
    assert.equal(paged.headers["x-wp-total"], "5");
    assert.equal(paged.headers["x-wp-totalpages"], "3");
    assert.match(String(paged.headers.link), /page=1>; rel="prev".*page=3>; rel="next"/);
    const bad = await s.t.call("GET", `${s.S}/forms/contact/submissions?per_page=0`);
    assert.deepEqual([bad.status, bad.body.error], [400, "invalid_parameter"]);
    const missing = await s.t.call("GET", `${s.S}/forms/nope/submissions`);
    assert.deepEqual([missing.status, missing.body.error], [404, "form_not_found"]);
  });

  it("Accept: text/csv: every submission, a header in declared order, quoted where needed, formulas made text", async () => {
    const r = await s.t.call("GET", `${s.S}/forms/contact/submissions`, { headers: { accept: "text/csv" } });
    assert.equal(r.status, 200);
    assert.equal(r.headers["content-type"], "text/csv; charset=utf-8");
    assert.ok(r.text.startsWith("\uFEFFid,created_at,page,lang,name,email,message,user_agent\r\n"), r.text);
    const rows: string[][] = parse(r.text, { bom: true });
    assert.equal(rows.length, 6);
    const byId = new Map(rows.slice(1).map((row) => [Number(row[0]), row]));
    assert.deepEqual(byId.get(ids[0]!)!.slice(2), [
      "/contact",
      "en",
      "Ada",
      "ada@example.test",
      'Hello, "world"\nsecond line',
      "Mozilla/5.0 (test)",
    ]);
    assert.deepEqual(byId.get(ids[1]!)!.slice(4, 7), [
      `'=HYPERLINK("http://evil.test")`,
      "eve@example.test",
      "'+1 more",
    ]);
    assert.deepEqual(
      byId.get(ids[2]!)!.slice(4, 7),
      ["'-2", "", "'@SUM(A1)"],
      "a field not sent is empty; extra is left out",
    );
    assert.equal(byId.get(ids[3]!)![6], "'\tTabbed");
    assert.deepEqual(
      rows.slice(1).map((row) => Number(row[0])),
      [...ids].reverse(),
    );

    const paged = await s.as("GET", "/forms/contact/submissions?per_page=2");
    assert.equal(paged.status, 200);
    const one = await s.t.call("GET", `${s.S}/forms/contact/submissions?per_page=2`, {
      headers: { accept: "text/csv" },
    });
    assert.equal(parse(one.text, { bom: true }).length, 3, "a page asked for: its rows");
    assert.equal(one.headers["x-wp-total"], "5");
  });

  it("GET /forms/{name}/submissions/{id}; another form's, another site's or a non-number is 404 form_submission_not_found", async () => {
    const one = await s.as("GET", `/forms/contact/submissions/${ids[0]}`);
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.submission.fields.name, "Ada");
    for (const id of [otherFormId, foreignId, "abc", "0", "99999999"]) {
      const r = await s.admin("GET", `/forms/contact/submissions/${id}`);
      assert.deepEqual([r.status, r.body.error], [404, "form_submission_not_found"], String(id));
      const d = await s.admin("DELETE", `/forms/contact/submissions/${id}`);
      assert.deepEqual([d.status, d.body.error], [404, "form_submission_not_found"], String(id));
    }
    const foreign = await s.t.call("GET", `/api/site/${other}/forms/contact/submissions`, {
      token: s.editor.token,
    });
    assert.equal(foreign.status, 404, "an editor of another site does not see this one");
  });

  it("DELETE: an editor is refused; a dry run deletes nothing; the delete frees its quota place and makes form_submission.deleted", async () => {
    const refused = await s.as("DELETE", `/forms/contact/submissions/${ids[4]}`);
    assert.deepEqual([refused.status, refused.body.code], [403, "insufficient_role"]);
    const before = (await usageOf(s.t.store.db, s.site)).form_submissions;
    const dry = await s.admin("DELETE", `/forms/contact/submissions/${ids[4]}?dry_run=1`);
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual([dry.body.dry_run, dry.body.applied, dry.body.deleted.id], [true, false, ids[4]]);
    assert.equal((await s.as("GET", `/forms/contact/submissions/${ids[4]}`)).status, 200);
    const done = await s.admin("DELETE", `/forms/contact/submissions/${ids[4]}`);
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.deleted.fields.name, "Eli");
    assert.equal((await s.as("GET", `/forms/contact/submissions/${ids[4]}`)).status, 404);
    const usage = await usageOf(s.t.store.db, s.site);
    assert.equal(usage.form_submissions, before - 1);
    assert.equal(usage.form_submissions, (await recountUsage(s.t.store.db, s.site)).form_submissions);
    await s.t.settled();
    const events = (await s.admin("GET", "/events?type=form_submission")).body.events;
    assert.deepEqual(
      events.map((e: any) => [e.type, e.object.id, e.object.slug]),
      [["form_submission.deleted", String(ids[4]), "contact"]],
    );
    assert.equal((await s.admin("DELETE", `/forms/contact/submissions/${ids[4]}`)).status, 404);
  });
});
