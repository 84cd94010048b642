// A form from a visitor's browser to the owner's inbox and spreadsheet, over real sockets against
// the built service (docs/forms.md): the page is read for its time token, the form is sent as a
// browser sends it, the visitor is sent on (303), the service's notification worker e-mails the
// `notify` address through a real SMTP server, and the submission is read back as CSV. Needs
// `npm run build`.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateToken } from "../../src/tokens.ts";
import { call } from "../cluster/helpers.ts";
import { serviceDatabase, startService, type Running } from "../support/process.ts";
import type { TestDatabase } from "../support/database.ts";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server.ts";
import { CONTACT_FIELDS, CONTACT_FRAME, personsPause } from "./support.ts";

const HOST = "inbox.localhost";

describe("forms end to end: page, submission, e-mail, CSV over sockets (built service)", { timeout: 120_000 }, () => {
  const token = generateToken();
  const dir = mkdtempSync(join(tmpdir(), "svc-forms-e2e-"));
  let database: TestDatabase;
  let smtp: TestSmtpServer;
  let svc: Running;
  let api: string;

  const admin = (method: string, path: string, body?: unknown) =>
    call(svc.port, method, `${api}${path}`, { token, ...(body === undefined ? {} : { body }) });

  before(async () => {
    const db = await serviceDatabase();
    database = db.database;
    smtp = await startSmtpServer();
    svc = await startService({
      ...db.env,
      SVC_DATA_DIR: dir,
      SVC_ADMIN_TOKEN: token,
      SVC_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SVC_MAIL_FROM: "Forms <forms@example.test>",
    });
    const site = await call(svc.port, "POST", "/api/sites", { token, body: { name: "Inbox", domain: HOST } });
    assert.equal(site.status, 201, site.text);
    api = `/api/site/${site.body.site.id}`;
    for (const [path, body] of [
      ["/frames", { slug: "contact", html: CONTACT_FRAME }],
      ["/forms", { name: "contact", fields: CONTACT_FIELDS, notify: ["owner@example.test"] }],
      ["/pages", { title: "Contact", slug: "contact", frame: "contact", status: "publish" }],
    ] as const) {
      const made = await admin("POST", path, body);
      assert.equal(made.status, 201, `${path}: ${made.text}`);
    }
  });
  after(async () => {
    await svc?.stop();
    await smtp?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a visitor's submission is answered 303, e-mailed to the notify address with Reply-To the visitor, and listed in the CSV", async () => {
    const page = await call(svc.port, "GET", "/contact/", { host: HOST, token: null });
    assert.equal(page.status, 200, page.text.slice(0, 300));
    const timeToken = /name="_svc_token" value="([^"]+)"/.exec(page.text)?.[1];
    assert.ok(timeToken && !timeToken.startsWith("__"), "the page carries a filled time token");
    await personsPause();

    const fields = {
      name: "Ada Lovelace",
      email: "ada@example.test",
      topic: "sales",
      message: "=1+1 is two",
      _svc_token: timeToken,
      _svc_website: "",
    };
    const sent = await call(svc.port, "POST", "/_forms/contact", {
      host: HOST,
      token: null,
      payload: Buffer.from(new URLSearchParams(fields).toString()),
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
    });
    assert.equal(sent.status, 303, sent.text);
    assert.match(String(sent.headers.location), /\/contact\/\?sent=1$/);

    await smtp.waitFor(1, 20_000);
    const mail = smtp.received[0]!;
    assert.deepEqual(mail.envelope.to, ["owner@example.test"]);
    assert.equal(mail.headers.get("from"), "Forms <forms@example.test>");
    assert.equal(mail.headers.get("reply-to"), "ada@example.test");
    assert.match(mail.text, /Ada Lovelace/);

    const csv = await call(svc.port, "GET", `${api}/forms/contact/submissions`, {
      token,
      headers: { accept: "text/csv" },
    });
    assert.equal(csv.status, 200, csv.text);
    assert.match(String(csv.headers["content-type"]), /^text\/csv/);
    const lines = csv.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    assert.equal(lines.length, 2, csv.text);
    assert.match(lines[1]!, /Ada Lovelace/);
    assert.match(lines[1]!, /ada@example\.test/);
    // A cell a spreadsheet would run as a formula is made text.
    assert.match(lines[1]!, /'=1\+1 is two/);
  });
});
