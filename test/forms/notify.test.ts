// Forms' notification e-mails (docs/forms.md, "Notifications"), sent to a real SMTP server on the
// loopback: a queued message arrives as queued; a server down, then up, gets it once, after a
// retry; smtps:// speaks TLS; a refused login waits with its error (never the password); a refused
// recipient is dropped; two workers on one database never send a row twice (on PostgreSQL with
// TEST_DATABASE_URL: two pools, as two processes).
import { after, afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server.ts";
import { freePort } from "../support/ports.ts";
import { openStore } from "../../src/store/database.ts";
import { queueNotification, type FormMessage } from "../../src/forms/notify-queue.ts";
import { smtpMailer } from "../../src/forms/mailer.ts";
import { startNotifyWorker, type NotifyLog, type NotifyWorker } from "../../src/forms/notify-worker.ts";
import { LEASE_MS } from "../../src/forms/notify-claims.ts";

const FROM = "Forms <forms@example.test>";
const message: FormMessage = {
  to: ["owner@example.test", "sales@example.test"],
  subject: "New message through the form contact",
  text: "name: Ada Lovelace\nemail: ada@example.test\nmessage: Hello there",
  replyTo: "ada@example.test",
};

/** A clock the test moves: retries fall due when it says so. */
function testClock() {
  let now = Date.now();
  const clock = () => now;
  return Object.assign(clock, { advance: (ms: number) => (now += ms) });
}

function recordingLog(): NotifyLog & { lines: string[] } {
  const lines: string[] = [];
  const write = (details: object, text: string) => void lines.push(`${text} ${JSON.stringify(details)}`);
  return { lines, info: write, warn: write, error: write };
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("forms: notification e-mails over SMTP", () => {
  let t: TestApp;
  let server: TestSmtpServer | null = null;
  let worker: NotifyWorker | null = null;
  before(async () => (t = await startTestApp({ checkAnswers: false })));
  after(() => t.close());
  afterEach(async () => {
    await worker?.close();
    await server?.close();
    [worker, server] = [null, null];
    await t.store.db.deleteFrom("form_notifications").execute();
  });

  const rows = () => t.store.db.selectFrom("form_notifications").selectAll().execute();
  const queue = (clock: () => number, m: FormMessage = message) =>
    queueNotification(t.store.db, 1, "contact", m, clock());
  const start = (url: string, clock: () => number, log: NotifyLog = recordingLog()) =>
    (worker = startNotifyWorker(t.store.db, clock, { mailer: smtpMailer(url, FROM), log, pollMs: 20 }));

  it("a queued message is delivered as queued: envelope, From, To, Subject, Reply-To, text; its row goes", async () => {
    server = await startSmtpServer();
    const clock = testClock();
    await queue(clock);
    start(`smtp://127.0.0.1:${server.port}`, clock);
    await server.waitFor(1);
    const mail = server.received[0]!;
    assert.deepEqual(mail.envelope, { from: "forms@example.test", to: message.to });
    assert.equal(mail.headers.get("from"), FROM);
    assert.equal(mail.headers.get("to"), message.to.join(", "));
    assert.equal(mail.headers.get("subject"), message.subject);
    assert.equal(mail.headers.get("reply-to"), "ada@example.test");
    assert.equal(mail.headers.get("auto-submitted"), "auto-generated");
    assert.equal(mail.text.replace(/\r\n/g, "\n"), message.text);
    await until(async () => (await rows()).length === 0, "the sent row to go");
  });

  it("the server down, then up: the message is kept with attempts 1, its error and a retry time, then arrives once", async () => {
    const port = await freePort();
    const clock = testClock();
    await queue(clock);
    start(`smtp://127.0.0.1:${port}`, clock);
    await until(async () => (await rows())[0]?.attempts === 1, "a failed attempt");
    const [failed] = await rows();
    assert.match(failed!.last_error ?? "", /ECONNREFUSED|ESOCKET|ECONNECTION/);
    assert.ok(failed!.next_at_gmt > new Date(clock()).toISOString().replace("T", " ").slice(0, 19), "due later");
    server = await startSmtpServer({ port });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(server.received.length, 0, "not before its retry time");
    clock.advance(60_000);
    await server.waitFor(1);
    await until(async () => (await rows()).length === 0, "the sent row to go");
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(server.received.length, 1, "once");
  });

  it("smtps:// speaks TLS from the first byte (a self-signed certificate accepted by ?tls.rejectUnauthorized=false)", async () => {
    server = await startSmtpServer({ secure: true });
    const clock = testClock();
    await queue(clock);
    start(`smtps://127.0.0.1:${server.port}/?tls.rejectUnauthorized=false`, clock);
    await server.waitFor(1);
    assert.equal(server.received[0]!.headers.get("subject"), message.subject);
  });

  it("a refused login keeps the message for later, and neither its error nor the log holds the password", async () => {
    server = await startSmtpServer({ login: { user: "forms", pass: "right" } });
    const clock = testClock();
    const log = recordingLog();
    await queue(clock);
    const secret = "s3cret:pa$$word";
    start(`smtp://forms:${encodeURIComponent(secret)}@127.0.0.1:${server.port}`, clock, log);
    await until(async () => (await rows())[0]?.attempts === 1, "a failed attempt");
    const [failed] = await rows();
    assert.match(failed!.last_error ?? "", /EAUTH/);
    for (const text of [failed!.last_error ?? "", ...log.lines]) {
      assert.ok(!text.includes("s3cret") && !text.includes(encodeURIComponent(secret)), text);
    }
    assert.ok(log.lines.some((line) => line.startsWith("form notification not sent")));
  });

  it("the right login sends; a recipient refused for good (550) drops the message, logged", async () => {
    server = await startSmtpServer({ login: { user: "forms", pass: "p@ss word" }, refuse: ["gone@example.test"] });
    const clock = testClock();
    const log = recordingLog();
    await queue(clock);
    await queue(clock, { ...message, to: ["gone@example.test"] });
    start(`smtp://forms:${encodeURIComponent("p@ss word")}@127.0.0.1:${server.port}`, clock, log);
    await server.waitFor(1);
    await until(async () => (await rows()).length === 0, "both rows to go");
    assert.equal(server.received.length, 1);
    assert.ok(log.lines.some((line) => line.startsWith("form notification dropped") && line.includes("refused")));
  });

  it("two workers on one database send each of 30 rows once; a claim is leased until it runs out or is handed back", async () => {
    server = await startSmtpServer();
    const clock = testClock();
    for (let i = 0; i < 30; i++) await queue(clock, { ...message, subject: `Message ${i}` });
    const second = await openStore({ dataDir: t.dataDir, databaseUrl: t.config.databaseUrl, db: t.config.db });
    const url = `smtp://127.0.0.1:${server.port}`;
    const other = startNotifyWorker(second.db, clock, {
      mailer: smtpMailer(url, FROM),
      log: recordingLog(),
      pollMs: 20,
    });
    start(url, clock);
    try {
      await server.waitFor(30);
      await until(async () => (await rows()).length === 0, "every row to go");
      await new Promise((resolve) => setTimeout(resolve, 200));
      const subjects = server.received.map((mail) => mail.headers.get("subject"));
      assert.equal(subjects.length, 30);
      assert.equal(new Set(subjects).size, 30);
    } finally {
      await other.close();
      await second.close();
    }
    // Claimed and not sent: due again at once, not a lease later.
    await worker!.close();
    worker = null;
    await queue(clock);
    const { claimDue, releaseClaims } = await import("../../src/forms/notify-claims.ts");
    const claimed = await claimDue(t.store.db, clock());
    assert.equal(claimed.length, 1);
    assert.equal((await claimDue(t.store.db, clock())).length, 0, "leased");
    assert.equal((await claimDue(t.store.db, clock() + LEASE_MS + 1000)).length, 1, "a lease runs out");
    await releaseClaims(t.store.db, [claimed[0]!.id], clock());
    assert.equal((await claimDue(t.store.db, clock())).length, 1, "released");
  });
});
