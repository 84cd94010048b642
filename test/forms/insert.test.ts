// svc/form (docs/forms.md): the form printed with its fields labelled in order, a honeypot hidden
// from people and assistive technology, a time token filled by each answer of a static copy, the
// submit text from t.form.submit; an unknown form warns when the frame is written, and a form's
// change publishes the pages printing it again.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, makeSite, type TestApp } from "../support/app.ts";
import { visit } from "../support/site.ts";

const LAYOUT =
  '<!DOCTYPE html><html lang="en"><head><title>Contact</title></head><body><main><h1>Contact</h1><!-- svc/form {"name":"contact"} /--></main></body></html>';

describe("forms: svc/form", () => {
  let t: TestApp;
  let S: string;
  const host = "form-insert.localhost";
  before(async () => {
    t = await startTestApp();
    S = `/api/site/${await makeSite(t, "Form insert", host)}`;
  });
  after(() => t.close());

  it("a frame naming an unknown form warns unknown_form; once declared, the page prints the form and a static copy answers with a fresh token each time", async () => {
    const frame = await t.call("POST", `${S}/frames`, { body: { slug: "contact", html: LAYOUT } });
    assert.equal(frame.status, 201, frame.text);
    const warned = frame.body.warnings.find((w: any) => w.code === "unknown_form");
    assert.ok(warned, JSON.stringify(frame.body.warnings));
    assert.equal(warned.name, "contact");
    assert.ok(!frame.body.warnings.some((w: any) => w.code === "unknown_string"), "t.form.submit has a default");
    const page = await t.call("POST", `${S}/pages`, {
      body: { title: "Contact", slug: "contact", frame: "contact", status: "publish" },
    });
    assert.equal(page.status, 201, page.text);
    const before = await visit(t, "/contact/", host);
    assert.equal(before.status, 200);
    assert.ok(!before.body.includes("<form"), "no form before it is declared");

    const made = await t.call("POST", `${S}/forms`, {
      body: {
        name: "contact",
        fields: [
          { name: "name", label: "Your name", required: true, max_length: 80 },
          { name: "email", type: "email", required: true },
          { name: "topic", type: "select", options: ["sales", "support"] },
          { name: "message", type: "textarea", label: "Message" },
        ],
      },
    });
    assert.equal(made.status, 201, made.text);
    assert.ok(made.body.rebaked.pages.includes(page.body.page.id), "the page printing it was published again");
    const first = await visit(t, "/contact/", host);
    assert.equal(first.status, 200);
    assert.equal(first.etag, undefined, "no validator: each answer carries its own token");
    const html = first.body;
    assert.match(
      html,
      /<form class="svc-form" data-svc-form="contact" method="post" action="\/_forms\/contact" novalidate>/,
    );
    assert.match(
      html,
      /<label for="svc-form-contact-name">Your name<\/label><input type="text" id="svc-form-contact-name" name="name" autocomplete="name" required maxlength="80" value="">/,
    );
    assert.match(
      html,
      /<input type="email" id="svc-form-contact-email" name="email" autocomplete="email" required value="">/,
    );
    assert.match(
      html,
      /<select id="svc-form-contact-topic" name="topic" autocomplete="on"><option value=""><\/option><option value="sales">sales<\/option>/,
    );
    assert.match(html, /<textarea id="svc-form-contact-message" name="message" autocomplete="off"><\/textarea>/);
    assert.match(
      html,
      /<p hidden><label for="svc-form-contact-hp">Leave this empty<\/label><input type="text" id="svc-form-contact-hp" name="_svc_website" tabindex="-1" autocomplete="off" value=""><\/p>/,
    );
    assert.match(html, /<button type="submit">Send<\/button><\/form>/);
    const order = ["name", "email", "topic", "message"].map((n) => html.indexOf(`name="${n}"`));
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
      "fields in the declared order",
    );
    const token = /name="_svc_token" value="([^"]+)"/.exec(html)?.[1];
    assert.ok(token && !token.includes("__svc"), `a token, not the placeholder: ${token}`);
    await new Promise((r) => setTimeout(r, 5));
    const second = await visit(t, "/contact/", host);
    const again = /name="_svc_token" value="([^"]+)"/.exec(second.body)?.[1];
    assert.notEqual(again, token, "each answer its own token");
  });

  it("the submit button's text is the string form.submit in the page's language", async () => {
    const put = await t.call("PUT", `${S}/strings`, { body: { strings: { "form.submit": "Send it" } } });
    assert.ok(put.status === 200 || put.status === 201, put.text);
    const page = await visit(t, "/contact/", host);
    assert.match(page.body, /<button type="submit">Send it<\/button>/);
  });
});
