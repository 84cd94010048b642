// POST /_forms/<name> (docs/forms.md, "Submitting"): a valid submission kept, counted, announced
// (form.submitted) and answered 303 or 201; errors answered by field (JSON) or on the page again
// (a browser); the body's forms and sizes; redirects; a submission republishes nothing.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { visit } from "../support/site.ts";
import { formSite, keptRows, personsPause, send, tokenOf, type FormSite } from "./support.ts";

const VALID = { name: "Ada Lovelace", email: "ada@example.com", topic: "sales", message: "Hello\nthere" };

describe("forms: submitting", () => {
  let t: TestApp;
  let site: FormSite;
  let token: string;
  const host = "submit.localhost";
  /** Each test its own client address: the limit of five a minute is per address and form. */
  let nextIp = 1;
  const ip = () => `198.51.100.${nextIp++}`;

  before(async () => {
    t = await startTestApp();
    site = await formSite(t, host);
    token = await tokenOf(t, host);
    await personsPause();
  });
  after(() => t.close());

  it("a browser's form is kept (fields, page, lang, user agent, address only hashed) and answered 303 to the page with ?sent=1; it counts toward form_submissions and makes form.submitted", async () => {
    const address = ip();
    const r = await send(
      t,
      { ...VALID, unknown: "dropped", _svc_token: token, _svc_website: "" },
      { host, ip: address },
    );
    assert.equal(r.status, 303, r.text);
    assert.equal(r.headers.location, "/contact/?sent=1");
    assert.equal(r.headers["cache-control"], "no-store");
    const [row] = await keptRows(t, site.siteId);
    assert.ok(row, "kept");
    assert.deepEqual(JSON.parse(row.fields_json), VALID, "declared fields only, as typed");
    assert.deepEqual([row.page_id, row.lang, row.user_agent], [site.contactPageId, null, "FormTest/1.0"]);
    assert.ok(!row.address_hash.includes(address) && row.address_hash.length >= 20, row.address_hash);
    const usage = await t.call("GET", `${site.S}/usage`);
    assert.equal(usage.body.usage.form_submissions.used, 1, usage.text);
    const events = await t.call("GET", `${site.S}/events?type=form.submitted`);
    const event = events.body.events.at(-1);
    assert.equal(event?.type, "form.submitted", events.text);
    assert.deepEqual(event.object, { kind: "form", id: "contact", slug: "contact" });
    assert.deepEqual(event.published, { rebaked: 0, urls: [] }, "a submission republishes nothing");
  });

  it("a JSON caller gets 201 {id, form, fields, page, lang, created_at}; a multipart form without files is taken like a browser's", async () => {
    const r = await send(t, { ...VALID, _svc_token: token }, { host, as: "json", ip: ip() });
    assert.equal(r.status, 201, r.text);
    const { id, form, fields, page, lang, created_at } = r.body;
    assert.ok(Number.isInteger(id));
    assert.deepEqual([form, fields, page, lang], ["contact", VALID, site.contactPageId, null]);
    assert.match(created_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const multi = await send(t, { ...VALID, subscribe: "on", _svc_token: token }, { host, as: "multipart", ip: ip() });
    assert.equal(multi.status, 303, multi.text);
    const rows = await keptRows(t, site.siteId);
    assert.equal(JSON.parse(rows.at(-1)!.fields_json).subscribe, "on");
  });

  it("a file part is refused (422, by its field); nothing is kept", async () => {
    const before = (await keptRows(t, site.siteId)).length;
    const body =
      `--B\r\nContent-Disposition: form-data; name="_svc_token"\r\n\r\n${token}\r\n` +
      `--B\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n` +
      `--B\r\nContent-Disposition: form-data; name="email"\r\n\r\nada@example.com\r\n` +
      `--B\r\nContent-Disposition: form-data; name="cv"; filename="cv.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\r\n--B--\r\n`;
    const r = await t.app.inject({
      method: "POST",
      url: "/_forms/contact",
      headers: { host, "content-type": "multipart/form-data; boundary=B", accept: "application/json" },
      payload: body,
      remoteAddress: ip(),
    });
    assert.equal(r.statusCode, 422, r.body);
    const answer = JSON.parse(r.body);
    assert.equal(answer.error, "form_invalid");
    assert.deepEqual(
      answer.errors.map((e: any) => [e.field, e.code]),
      [["cv", "file"]],
    );
    assert.equal((await keptRows(t, site.siteId)).length, before);
  });

  it("each field is checked by its type and size; a JSON caller gets every error by its field", async () => {
    const r = await send(
      t,
      {
        name: "x".repeat(81),
        email: "not-an-address",
        topic: "lunch",
        website: "javascript:alert(1)",
        seats: "twelve",
        subscribe: "maybe",
        _svc_token: token,
      },
      { host, as: "json", ip: ip() },
    );
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.success, false);
    assert.deepEqual(
      r.body.errors.map((e: any) => [e.field, e.code]),
      [
        ["name", "too_long"],
        ["email", "email"],
        ["topic", "option"],
        ["website", "url"],
        ["seats", "number"],
        ["subscribe", "checkbox"],
      ],
    );
    assert.ok(r.body.errors.every((e: any) => typeof e.message === "string" && e.message !== ""));
    const missing = await send(t, { _svc_token: token }, { host, as: "json", ip: ip() });
    assert.deepEqual(
      missing.body.errors.map((e: any) => [e.field, e.code]),
      [
        ["name", "required"],
        ["email", "required"],
      ],
    );
    const good = await send(
      t,
      { ...VALID, website: "https://example.com/a", seats: "12", subscribe: "on", _svc_token: token },
      { host, as: "json", ip: ip() },
    );
    assert.equal(good.status, 201, good.text);
  });

  it("sizes: a field over 10 KB is refused by field, more than 20 fields as a whole, a body over 64 KB before it is read (413)", async () => {
    const long = await send(
      t,
      { ...VALID, message: "é".repeat(5200), _svc_token: token },
      { host, as: "json", ip: ip() },
    );
    assert.deepEqual(
      long.body.errors.map((e: any) => [e.field, e.code]),
      [["message", "too_long"]],
    );
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`extra${i}`, "x"]));
    const crowded = await send(t, { ...VALID, ...many, _svc_token: token }, { host, as: "json", ip: ip() });
    assert.deepEqual(
      crowded.body.errors.map((e: any) => [e.field, e.code]),
      [["", "too_many_fields"]],
    );
    const huge = await send(t, { ...VALID, message: "x".repeat(70 * 1024), _svc_token: token }, { host, ip: ip() });
    assert.equal(huge.status, 413, huge.text.slice(0, 200));
  });

  it("a browser with errors gets the page again (422, no-store): each error by its field, aria-invalid and aria-describedby, the input kept", async () => {
    const r = await send(
      t,
      { name: "Ada <b>", email: "ada@", topic: "support", message: "Hi & bye", _svc_token: token },
      { host, ip: ip() },
    );
    assert.equal(r.status, 422, r.text.slice(0, 300));
    assert.equal(r.headers["cache-control"], "no-store");
    assert.match(String(r.headers["content-type"]), /^text\/html/);
    assert.ok(r.text.includes("<h1>Contact us</h1>"), "the page the form is on");
    assert.match(
      r.text,
      /<input type="email" id="svc-form-contact-email" name="email" autocomplete="email" required aria-invalid="true" aria-describedby="svc-form-contact-email-error" value="ada@"><span class="svc-form-error" id="svc-form-contact-email-error">Enter an e-mail address/,
    );
    assert.match(r.text, /name="name" autocomplete="name" required maxlength="80" value="Ada &lt;b&gt;">/);
    assert.ok(!/name="name"[^>]*aria-invalid/.test(r.text), "a valid field is not marked");
    assert.match(r.text, /<option value="support" selected>/);
    assert.match(
      r.text,
      /<textarea id="svc-form-contact-message" name="message" autocomplete="off">Hi &amp; bye<\/textarea>/,
    );
    assert.match(r.text, /<p class="svc-form-errors" role="alert">/);
    const again = /name="_svc_token" value="([^"]+)"/.exec(r.text)?.[1];
    assert.ok(again && !again.startsWith("__"), "a fresh token in the form printed again");
    assert.equal((r.text.match(/<form /g) ?? []).length, 1);
  });

  it("redirect: a page at its address in the submission's language; a path as written", async () => {
    const multi = await formSite(t, "redirect.localhost", {}, ["en", "de"]);
    const at = (path: string, body: unknown) => t.call("POST", `${multi.S}${path}`, { body });
    const thanks = await at("/pages", {
      title: "Thanks",
      slug: "thanks",
      frame: "contact",
      status: "publish",
      lang: "en",
    });
    assert.equal(thanks.status, 201, thanks.text);
    const translate = { lang: "de", status: "publish" };
    const danke = await at("/pages/language", {
      page: thanks.body.page.id,
      title: "Danke",
      slug: "danke",
      ...translate,
    });
    assert.equal(danke.status, 201, danke.text);
    const kontakt = await at("/pages/language", {
      page: multi.contactPageId,
      title: "Kontakt",
      slug: "kontakt",
      ...translate,
    });
    assert.equal(kontakt.status, 201, kontakt.text);
    assert.equal((await t.call("PATCH", `${multi.S}/forms/contact`, { body: { redirect: "thanks" } })).status, 200);
    const deToken = await tokenOf(t, multi.host, "/de/kontakt/");
    const enToken = await tokenOf(t, multi.host, "/contact/");
    await personsPause();
    const fromDe = await send(t, { ...VALID, _svc_token: deToken }, { host: multi.host, ip: ip() });
    assert.deepEqual([fromDe.status, fromDe.headers.location], [303, "/de/danke/"], fromDe.text);
    const [row] = await keptRows(t, multi.siteId);
    assert.deepEqual([row!.page_id, row!.lang], [kontakt.body.page.id, "de"]);
    const fromEn = await send(t, { ...VALID, _svc_token: enToken }, { host: multi.host, ip: ip() });
    assert.deepEqual([fromEn.status, fromEn.headers.location], [303, "/thanks/"]);
    assert.equal((await t.call("PATCH", `${multi.S}/forms/contact`, { body: { redirect: "/merci/" } })).status, 200);
    const byPath = await send(t, { ...VALID, _svc_token: enToken }, { host: multi.host, ip: ip() });
    assert.deepEqual([byPath.status, byPath.headers.location], [303, "/merci/"]);
  });

  it("a submission changes no public page: the page keeps its static copy and nothing is owed to publishing", async () => {
    const before = await visit(t, "/contact/", host);
    assert.equal(before.printed, "static");
    await t.settled();
    const owed = () => t.store.db.selectFrom("publish_outbox").select("id").execute();
    assert.equal((await owed()).length, 0);
    const r = await send(t, { ...VALID, _svc_token: token }, { host, ip: ip() });
    assert.equal(r.status, 303, r.text);
    assert.equal((await owed()).length, 0, "no outbox entry");
    const after = await visit(t, "/contact/", host);
    assert.equal(after.printed, "static");
  });
});
