// The guards of POST /_forms/<name> over a real socket (docs/forms.md, "Submitting"): a bot's
// submission answered like a success and kept nowhere (counted as spam); 404 alike for an
// unknown, inactive or other site's form; five a minute per address and form (429 Retry-After),
// also across two processes on PostgreSQL; the quota; a form that keeps nothing but e-mails.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { freshDatabase, testServerUrl } from "../support/database.ts";
import { call, type Reply } from "../cluster/helpers.ts";
import { formSite, keptRows, personsPause, tokenOf, type FormSite } from "./support.ts";

const VALID = { name: "Grace Hopper", email: "grace@example.com", message: "Hello" };

async function listening(t: TestApp): Promise<number> {
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  return (t.app.server.address() as { port: number }).port;
}

/** A submission over the socket, as a browser's form or (json) as a JSON caller. */
function post(
  port: number,
  host: string,
  fields: Record<string, string>,
  json = false,
  form = "contact",
): Promise<Reply> {
  const payload = Buffer.from(json ? JSON.stringify(fields) : new URLSearchParams(fields).toString());
  const headers: Record<string, string> = json
    ? { "content-type": "application/json", accept: "application/json" }
    : { "content-type": "application/x-www-form-urlencoded", accept: "text/html" };
  return call(port, "POST", `/_forms/${form}`, { host, payload, headers });
}

describe("forms: the guards of a submission, over a socket", () => {
  let t: TestApp;
  let port: number;
  let site: FormSite;
  let other: FormSite;
  let token: string;
  let otherToken: string;

  before(async () => {
    t = await startTestApp();
    site = await formSite(t, "guards.localhost", { notify: ["owner@example.com"] });
    other = await formSite(t, "other.localhost");
    token = await tokenOf(t, site.host);
    otherToken = await tokenOf(t, other.host);
    await personsPause();
    port = await listening(t);
  });
  after(() => t.close());

  const notifications = () => t.store.db.selectFrom("form_notifications").selectAll().execute();
  const submittedEvents = async (s: FormSite) =>
    (await t.call("GET", `${s.S}/events?type=form.submitted`)).body.events.length;

  it("a bot's submission is answered exactly like a success and kept nowhere: no row, no event, no e-mail; GET /forms/{name} counts it as spam", async () => {
    const fresh = await tokenOf(t, site.host);
    const altered = `${token.slice(0, -2)}xx`;
    const bots: Array<[string, Record<string, string>]> = [
      ["honeypot filled", { ...VALID, _svc_token: token, _svc_website: "http://spam.example" }],
      ["no token", { ...VALID }],
      ["a token younger than 2 s", { ...VALID, _svc_token: fresh }],
      ["another site's token", { ...VALID, _svc_token: otherToken }],
      ["an altered token", { ...VALID, _svc_token: altered }],
    ];
    for (const [why, fields] of bots) {
      const r = await post(port, site.host, fields);
      assert.equal(r.status, 303, `${why}: ${r.text}`);
      assert.match(String(r.headers.location), /\?sent=1$/, why);
    }
    const json = await post(port, site.host, { ...VALID, _svc_website: "x", _svc_token: token }, true);
    assert.equal(json.status, 201, json.text);
    assert.deepEqual(Object.keys(json.body).sort(), [
      "created_at",
      "fields",
      "form",
      "id",
      "lang",
      "page",
      "success",
      "warnings",
    ]);
    assert.ok(Number.isInteger(json.body.id), "an id like a kept one's");
    assert.deepEqual(await keptRows(t, site.siteId), []);
    assert.equal(await submittedEvents(site), 0);
    assert.deepEqual(await notifications(), []);
    const form = await t.call("GET", `${site.S}/forms/contact`);
    assert.deepEqual(form.body.counts, { submissions: 0, spam: bots.length + 1 });
  });

  it("an unknown form, an inactive one and another site's form answer the same 404: the envelope for JSON, the site's own 404 page for a browser", async () => {
    const foreign = await formSite(t, "foreign.localhost");
    assert.equal((await t.call("DELETE", `${foreign.S}/forms/contact`)).status, 200);
    // foreign.localhost has no form "contact"; other.localhost has one, inactive.
    assert.equal((await t.call("PATCH", `${other.S}/forms/contact`, { body: { active: false } })).status, 200);
    const cases: Array<[string, string, string]> = [
      [foreign.host, token, "contact"],
      [other.host, otherToken, "contact"],
      [site.host, token, "nope"],
    ];
    const envelopes: unknown[] = [];
    for (const [host, sent, form] of cases) {
      const json = await post(port, host, { ...VALID, _svc_token: sent }, true, form);
      assert.deepEqual([json.status, json.body.error], [404, "form_not_found"], json.text);
      envelopes.push({ ...json.body, name: undefined });
      const browser = await post(port, host, { ...VALID, _svc_token: sent }, false, form);
      assert.equal(browser.status, 404, browser.text);
      assert.match(String(browser.headers["content-type"]), /^text\/html/);
      assert.equal(browser.headers["cache-control"], "no-store");
      const notFound = await call(port, "GET", `/_forms/${form}`, { host });
      assert.equal(notFound.status, 404);
      assert.equal(browser.text, notFound.text, "the site's 404 page, as for any address it does not serve");
    }
    assert.deepEqual(envelopes[0], envelopes[1], "an inactive form and another site's answer alike");
    assert.equal((await t.call("PATCH", `${other.S}/forms/contact`, { body: { active: true } })).status, 200);
  });

  it("five submissions a minute per client address and form: the sixth is 429 with Retry-After (HTML for a browser, the envelope for JSON), kept nowhere", async () => {
    for (let i = 0; i < 5; i++) {
      const r = await post(port, site.host, { ...VALID, _svc_token: token });
      assert.equal(r.status, 303, `submission ${i + 1}: ${r.text}`);
    }
    const refused = await post(port, site.host, { ...VALID, _svc_token: token });
    assert.equal(refused.status, 429, refused.text);
    const wait = Number(refused.headers["retry-after"]);
    assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
    assert.match(String(refused.headers["content-type"]), /^text\/html/);
    const json = await post(port, site.host, { ...VALID, _svc_token: token }, true);
    assert.deepEqual([json.status, json.body.error], [429, "form_rate_limited"]);
    assert.ok(Number(json.headers["retry-after"]) >= 1);
    assert.equal((await keptRows(t, site.siteId)).length, 5);
    assert.equal((await notifications()).length, 5, "one e-mail queued per kept submission");
    // Another form of the address is counted apart.
    const elsewhere = await post(port, other.host, { ...VALID, _svc_token: otherToken });
    assert.equal(elsewhere.status, 303, elsewhere.text);
  });

  it("the e-mail queued says every field by its label and replies to the visitor", async () => {
    const [first] = await notifications();
    const message = JSON.parse(first!.message_json);
    assert.deepEqual(message.to, ["owner@example.com"]);
    assert.equal(message.replyTo, "grace@example.com");
    assert.match(message.text, /Your name: Grace Hopper\nE-mail: grace@example.com\nMessage: Hello/);
    assert.match(message.subject, /contact/);
  });

  it("past quota form_submissions the submission is refused with quota_exceeded and nothing is kept; a form with store: false keeps nothing and still makes its event", async () => {
    const full = await formSite(t, "full.localhost");
    assert.equal(
      (await t.call("PATCH", `/api/sites/${full.siteId}/quotas`, { body: { form_submissions: 1 } })).status,
      200,
    );
    const fullToken = await tokenOf(t, full.host);
    const quiet = await formSite(t, "quiet.localhost", { store: false, notify: ["desk@example.com"] });
    const quietToken = await tokenOf(t, quiet.host);
    await personsPause();
    assert.equal((await post(port, full.host, { ...VALID, _svc_token: fullToken }, true)).status, 201);
    const over = await post(port, full.host, { ...VALID, _svc_token: fullToken }, true);
    assert.deepEqual([over.status, over.body.error, over.body.quota], [409, "quota_exceeded", "form_submissions"]);
    // A browser is shown a page saying so, not the envelope.
    const page = await post(port, full.host, { ...VALID, _svc_token: fullToken });
    assert.equal(page.status, 409, page.text);
    assert.match(String(page.headers["content-type"]), /^text\/html/);
    assert.match(page.text, /<h1>Not sent<\/h1>/);
    assert.equal((await keptRows(t, full.siteId)).length, 1);
    const r = await post(port, quiet.host, { ...VALID, _svc_token: quietToken }, true);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.id, null);
    assert.deepEqual(await keptRows(t, quiet.siteId), []);
    assert.equal(await submittedEvents(quiet), 1);
    const queued = (await notifications()).filter((row) => row.site_id === quiet.siteId);
    assert.equal(queued.length, 1);
  });
});

describe("forms: the limit of submissions holds across two processes on PostgreSQL", {
  skip: testServerUrl ? false : "needs TEST_DATABASE_URL (npm run test:pg)",
}, () => {
  it("five through one and the other together, the sixth refused by either", async () => {
    const database = await freshDatabase();
    const a = await startTestApp({ database });
    // The second start takes the admin token over (bootstrap): the site is made before it.
    const s = await formSite(a, "two.localhost");
    const tokenA = await tokenOf(a, s.host);
    const b = await startTestApp({ database: { url: database.url, drop: async () => {} } });
    try {
      await personsPause();
      const [portA, portB] = [await listening(a), await listening(b)];
      for (let i = 0; i < 5; i++) {
        const r = await post(i % 2 === 0 ? portA : portB, s.host, { ...VALID, _svc_token: tokenA });
        assert.equal(r.status, 303, `submission ${i + 1}: ${r.text}`);
      }
      for (const p of [portA, portB])
        assert.equal((await post(p, s.host, { ...VALID, _svc_token: tokenA })).status, 429);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
