// A site with a contact page printing a form, for the submission tests (docs/forms.md,
// "Submitting"): its page read for a time token, submissions sent as a browser or a JSON caller.
import assert from "node:assert/strict";
import { makeSite, type TestApp } from "../support/app.ts";
import { visit } from "../support/site.ts";

export const CONTACT_FRAME =
  '<!DOCTYPE html><html lang="en"><head><title>Contact</title></head><body><main><h1>Contact us</h1><!-- svc/form {"name":"contact"} /--></main></body></html>';

export const CONTACT_FIELDS = [
  { name: "name", label: "Your name", required: true, max_length: 80 },
  { name: "email", label: "E-mail", type: "email", required: true },
  { name: "topic", label: "Topic", type: "select", options: ["sales", "support"] },
  { name: "website", label: "Website", type: "url" },
  { name: "seats", label: "Seats", type: "number" },
  { name: "subscribe", label: "Send me news", type: "checkbox" },
  { name: "message", label: "Message", type: "textarea" },
];

export interface FormSite {
  host: string;
  S: string;
  siteId: number;
  contactPageId: number;
}

/**
 * A site at `host` with the page /contact/ printing the form `contact` (and any options given);
 * with `langs`, the site's languages (the first the default, the page's own).
 */
export async function formSite(
  t: TestApp,
  host: string,
  form: Record<string, unknown> = {},
  langs: string[] = [],
): Promise<FormSite> {
  const siteId = await makeSite(t, host, host);
  const S = `/api/site/${siteId}`;
  for (const code of langs) {
    const made = await t.call("POST", `${S}/languages`, { body: { code } });
    assert.equal(made.status, 201, made.text);
  }
  const frame = await t.call("POST", `${S}/frames`, { body: { slug: "contact", html: CONTACT_FRAME } });
  assert.equal(frame.status, 201, frame.text);
  const made = await t.call("POST", `${S}/forms`, { body: { name: "contact", fields: CONTACT_FIELDS, ...form } });
  assert.equal(made.status, 201, made.text);
  const page = await t.call("POST", `${S}/pages`, {
    body: {
      title: "Contact",
      slug: "contact",
      frame: "contact",
      status: "publish",
      ...(langs[0] ? { lang: langs[0] } : {}),
    },
  });
  assert.equal(page.status, 201, page.text);
  return { host, S, siteId, contactPageId: page.body.page.id };
}

/** The time token a visitor's copy of the page carries. */
export async function tokenOf(t: TestApp, host: string, path = "/contact/"): Promise<string> {
  const page = await visit(t, path, host);
  assert.equal(page.status, 200, page.body.slice(0, 300));
  const token = /name="_svc_token" value="([^"]+)"/.exec(page.body)?.[1];
  assert.ok(token && !token.startsWith("__"), `a token on ${path}`);
  return token;
}

/** Waits until tokens read now are old enough to be a person's (forms/token.ts MIN_AGE_MS). */
export const personsPause = () => new Promise((resolve) => setTimeout(resolve, 2100));

export interface Sent {
  status: number;
  headers: Record<string, unknown>;
  text: string;
  body: any;
}

export interface SendOptions {
  host: string;
  /** Default: a browser's form body. */
  as?: "browser" | "json" | "multipart";
  ip?: string;
  form?: string;
  /** Extra headers (a JSON caller's Accept is set already). */
  headers?: Record<string, string>;
}

function multipartOf(fields: Record<string, string>, boundary: string): string {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return `${parts.join("")}--${boundary}--\r\n`;
}

/** A submission through the app (inject), as a browser posts a form or as a JSON caller. */
export async function send(t: TestApp, fields: Record<string, string>, o: SendOptions): Promise<Sent> {
  const as = o.as ?? "browser";
  const headers: Record<string, string> = { host: o.host, "user-agent": "FormTest/1.0" };
  let payload: string;
  if (as === "json") {
    headers["content-type"] = "application/json";
    headers.accept = "application/json";
    payload = JSON.stringify(fields);
  } else if (as === "multipart") {
    headers["content-type"] = "multipart/form-data; boundary=XyZ";
    payload = multipartOf(fields, "XyZ");
  } else {
    headers["content-type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(fields).toString();
  }
  const r = await t.app.inject({
    method: "POST",
    url: `/_forms/${o.form ?? "contact"}`,
    headers: { ...headers, ...o.headers },
    payload,
    remoteAddress: o.ip ?? "203.0.113.7",
  });
  let body: unknown;
  try {
    body = JSON.parse(r.body);
  } catch {
    body = undefined;
  }
  return { status: r.statusCode, headers: r.headers, text: r.body, body };
}

/** The submissions kept of a site's form, as stored. */
export async function keptRows(t: TestApp, siteId: number, form = "contact") {
  return t.store.db
    .selectFrom("form_submissions")
    .selectAll()
    .where("site_id", "=", siteId)
    .where("form", "=", form)
    .orderBy("id")
    .execute();
}
