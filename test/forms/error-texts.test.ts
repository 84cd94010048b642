// A refused submission is told in its page's language (docs/forms.md, "Texts"): the site's strings
// form.invalid and form.error.<code> in the submission's language, `{max}` the limit it is about;
// English where the site has none. Codes stay as they are for programs.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { formSite, personsPause, send, tokenOf, type FormSite } from "./support.ts";

const GERMAN = {
  "form.invalid": "Bitte korrigieren Sie die markierten Felder.",
  "form.error.required": "Bitte ausfüllen.",
  "form.error.email": "Bitte eine E-Mail-Adresse angeben.",
  "form.error.too_long": "Höchstens {max} Zeichen.",
};

/** The message printed for a field, by the id aria-describedby names. */
function messageOf(html: string, field: string): string | undefined {
  const id = new RegExp(`name="${field}"[^>]*aria-describedby="([^"]+)"`).exec(html)?.[1];
  if (!id) return undefined;
  return new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];
}

describe("forms: refusals in the submission's language", () => {
  let t: TestApp;
  let site: FormSite;
  let deToken: string;
  let enToken: string;
  const host = "texts.localhost";
  let nextIp = 1;
  const ip = () => `198.51.100.${nextIp++}`;
  const refused = { name: "x".repeat(81), email: "nowhere", message: "" };

  before(async () => {
    t = await startTestApp();
    site = await formSite(t, host, {}, ["en", "de"]);
    const kontakt = await t.call("POST", `${site.S}/pages/language`, {
      body: { page: site.contactPageId, title: "Kontakt", slug: "kontakt", lang: "de", status: "publish" },
    });
    assert.equal(kontakt.status, 201, kontakt.text);
    const put = await t.call("PUT", `${site.S}/strings`, { body: { lang: "de", strings: GERMAN } });
    assert.equal(put.status, 200, put.text);
    deToken = await tokenOf(t, host, "/de/kontakt/");
    enToken = await tokenOf(t, host, "/contact/");
    await personsPause();
  });
  after(() => t.close());

  it("a browser's refused submission from the German page shows the site's German texts beside each field, {max} filled in", async () => {
    const r = await send(t, { ...refused, _svc_token: deToken }, { host, ip: ip() });
    assert.equal(r.status, 422, r.text.slice(0, 300));
    assert.match(r.text, /role="alert">Bitte korrigieren Sie die markierten Felder\./);
    assert.equal(messageOf(r.text, "name"), "Höchstens 80 Zeichen.");
    assert.equal(messageOf(r.text, "email"), "Bitte eine E-Mail-Adresse angeben.");
  });

  it("a JSON caller from the German page gets the same texts as messages, the codes unchanged", async () => {
    const r = await send(t, { email: "", _svc_token: deToken }, { host, as: "json", ip: ip() });
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(
      r.body.errors.map((e: { field: string; code: string; message: string }) => [e.field, e.code, e.message]),
      [
        ["name", "required", "Bitte ausfüllen."],
        ["email", "required", "Bitte ausfüllen."],
      ],
    );
  });

  it("from the English page, where the site has no texts, the English ones", async () => {
    const r = await send(t, { ...refused, _svc_token: enToken }, { host, ip: ip() });
    assert.equal(r.status, 422);
    assert.match(r.text, /role="alert">Please correct the fields marked below\./);
    assert.equal(messageOf(r.text, "name"), "Use at most 80 characters.");
    assert.equal(messageOf(r.text, "email"), "Enter an e-mail address, like name@example.com.");
  });
});
