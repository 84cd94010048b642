// The forms API (docs/forms.md): declared per site, checked, written through the pipeline with
// events; administrators write, editors read (docs/roles.md).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startEditedSite, type EditedSite } from "../support/app.ts";

const contact = {
  name: "contact",
  fields: [
    { name: "name", label: { en: "Your name", de: "Ihr Name" }, required: true, max_length: 80 },
    { name: "email", type: "email", required: true },
    { name: "topic", type: "select", options: ["sales", "support"] },
    { name: "message", type: "textarea", label: "Message" },
  ],
  notify: ["owner@example.com"],
};

describe("forms: the API", () => {
  let s: EditedSite;
  before(async () => (s = await startEditedSite("Forms", "forms.localhost", "forms-editor")));
  after(() => s.t.close());

  it("POST /forms declares a form (201) with its defaults; GET lists it and answers it by name; the write makes a form.created event", async () => {
    const made = await s.admin("POST", "/forms", contact);
    assert.equal(made.status, 201, made.text);
    const form = made.body.form;
    assert.equal(form.name, "contact");
    assert.deepEqual(
      form.fields.map((f: any) => [f.name, f.type, f.required, f.label]),
      [
        ["name", "text", true, { en: "Your name", de: "Ihr Name" }],
        ["email", "email", true, "email"],
        ["topic", "select", false, "topic"],
        ["message", "textarea", false, "Message"],
      ],
    );
    assert.deepEqual([form.store, form.active, form.redirect, form.notify], [true, true, null, ["owner@example.com"]]);
    const list = await s.as("GET", "/forms");
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.forms.map((f: any) => f.name),
      ["contact"],
    );
    const one = await s.as("GET", "/forms/contact");
    assert.equal(one.status, 200);
    assert.deepEqual(one.body.form, form);
    const events = await s.admin("GET", "/events");
    assert.ok(
      events.body.events.some((e: any) => e.type === "form.created" && e.object.slug === "contact"),
      JSON.stringify(events.body.events.map((e: any) => e.type)),
    );
  });

  it("a second form by the same name is 409 form_exists; unknown is 404 form_not_found; a bad name 400", async () => {
    assert.equal((await s.admin("POST", "/forms", contact)).body.error, "form_exists");
    const missing = await s.admin("GET", "/forms/nope");
    assert.deepEqual([missing.status, missing.body.error], [404, "form_not_found"]);
    const bad = await s.admin("GET", "/forms/Bad%20Name");
    assert.deepEqual([bad.status, bad.body.error], [400, "invalid_form_name"]);
  });

  it("fields are checked: unique names, a select's options, only a select has options, reserved names refused", async () => {
    const cases: unknown[][] = [
      [{ name: "a" }, { name: "a" }],
      [{ name: "a", type: "select" }],
      [{ name: "a", options: ["x"] }],
      [{ name: "_svc_token" }],
    ];
    for (const fields of cases) {
      const r = await s.admin("POST", "/forms", { name: "bad", fields });
      assert.deepEqual([r.status, r.body.error], [400, "bad_form_fields"], JSON.stringify(fields));
    }
    const notify = await s.admin("POST", "/forms", { name: "bad", fields: [{ name: "a" }], notify: ["nobody"] });
    assert.deepEqual([notify.status, notify.body.error], [400, "bad_form_notify"]);
    const redirect = await s.admin("POST", "/forms", {
      name: "bad",
      fields: [{ name: "a" }],
      redirect: "no-such-page",
    });
    assert.deepEqual([redirect.status, redirect.body.error], [400, "bad_form_redirect"]);
  });

  it("redirect: a page reference is kept as the page's id, a path as written", async () => {
    const page = await s.admin("POST", "/pages", { title: "Thanks", slug: "thanks", lang: "en" });
    assert.equal(page.status, 201, page.text);
    const byPage = await s.admin("POST", "/forms", { name: "to-page", fields: [{ name: "a" }], redirect: "thanks" });
    assert.equal(byPage.body.form.redirect, String(page.body.page.id));
    const byPath = await s.admin("PATCH", "/forms/to-page", { redirect: "/merci/" });
    assert.equal(byPath.status, 200, byPath.text);
    assert.equal(byPath.body.form.redirect, "/merci/");
  });

  it("PATCH changes what it names and keeps the rest; DELETE removes the form (404 after)", async () => {
    const patched = await s.admin("PATCH", "/forms/contact", { store: false, active: false });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual([patched.body.form.store, patched.body.form.active], [false, false]);
    assert.equal(patched.body.form.fields.length, 4);
    const deleted = await s.admin("DELETE", "/forms/to-page");
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual(deleted.body.deleted, { name: "to-page", submissions: 0 });
    assert.equal((await s.admin("GET", "/forms/to-page")).status, 404);
  });

  it("editors read forms but do not write them (403)", async () => {
    const denied = await s.as("POST", "/forms", { name: "editors", fields: [{ name: "a" }] });
    assert.equal(denied.status, 403, denied.text);
    assert.equal((await s.as("PATCH", "/forms/contact", { store: true })).status, 403);
    assert.equal((await s.as("DELETE", "/forms/contact")).status, 403);
  });
});
