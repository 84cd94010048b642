// Scheduled publishing across a restart and across processes (docs/content-model.md, "Dates and
// scheduled publishing"), with the built service. A page scheduled a few seconds ahead, the
// service killed with kill -9 before its date and started again after it: the start's look
// publishes it (the restarted process looks only once a minute, SVC_SCHEDULE_MS, so nothing but
// the start can have done it). Under test:pg two processes share the database and both look for
// a batch of pages due at one moment: each page is published once (one `page.published` event).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateToken } from "../../src/tokens.ts";
import { serviceDatabase, startService, type Running } from "../support/process.ts";
import type { TestDatabase } from "../support/database.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** An ISO 8601 date `ms` from now, to the second (as dates are stored). */
const fromNow = (ms: number) => `${new Date(Date.now() + ms).toISOString().slice(0, 19)}Z`;

describe("scheduled publishing: across a kill -9 and a restart, and with two processes", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  const token = generateToken();
  const dirs: string[] = [];
  const running: Running[] = [];
  const pg = Boolean(process.env.TEST_DATABASE_URL);

  before(async () => {
    const db = await serviceDatabase();
    database = db.database;
    env = {
      ...db.env,
      SVC_ADMIN_TOKEN: token,
      SVC_RATE_LIMIT_PER_MIN: "1000000",
      SVC_PUBLIC_RATE_LIMIT_PER_MIN: "1000000",
      LOG_LEVEL: "warn",
    };
  });
  after(async () => {
    // A process killed already has a signal code and no exit code: Running.stop would wait for its exit again.
    for (const svc of running)
      if (svc.child.exitCode === null && svc.child.signalCode === null) await svc.stop("SIGKILL");
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await database.drop();
  });

  async function start(dir: string, extra: Record<string, string> = {}): Promise<Running> {
    const svc = await startService({ ...env, SVC_DATA_DIR: dir, LOG_LEVEL: "info", ...extra });
    running.push(svc);
    return svc;
  }

  async function api(svc: Running, method: string, path: string, body?: unknown): Promise<any> {
    const response = await fetch(svc.url(`/api/site/1${path}`), {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        host: "localhost",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    assert.ok(response.ok, `${method} ${path}: ${response.status} ${text.slice(0, 400)}`);
    return JSON.parse(text);
  }

  const visit = async (svc: Running, path: string) =>
    (await fetch(svc.url(path), { headers: { host: "localhost" } })).status;

  /** The types of each page's events, oldest first, by id. */
  async function eventTypes(svc: Running, ids: readonly number[]): Promise<string[][]> {
    const events = (await api(svc, "GET", "/events?type=page&limit=1000")).events as any[];
    return ids.map((id) => events.filter((event) => event.object.id === String(id)).map((event) => event.type));
  }

  it("killed before its date and started after it, the service publishes the page at its start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-scheduled-"));
    dirs.push(dir);
    const first = await start(dir);
    await api(first, "POST", "/frames", { slug: "plain", html: "<p>scheduled</p>" });
    const date = fromNow(3_000);
    const made = await api(first, "POST", "/pages", {
      title: "Later",
      slug: "later",
      frame: "plain",
      status: "future",
      date,
    });
    assert.equal(made.page.status, "future");
    assert.equal(await visit(first, "/later/"), 404);
    first.child.kill("SIGKILL");
    await new Promise((resolve) =>
      first.child.exitCode !== null ? resolve(undefined) : first.child.once("exit", resolve),
    );
    await sleep(Math.max(0, Date.parse(date) - Date.now()) + 500);

    const again = await start(dir, { SVC_SCHEDULE_MS: "60000" });
    let status = await visit(again, "/later/");
    for (let i = 0; i < 50 && status !== 200; i++) {
      await sleep(100);
      status = await visit(again, "/later/");
    }
    assert.equal(status, 200, "published by the start's look");
    const page = (await api(again, "GET", `/pages/${made.page.id}`)).page;
    assert.deepEqual([page.status, page.date], ["publish", date]);
    assert.deepEqual(await eventTypes(again, [made.page.id]), [["page.created", "page.published"]]);
    await again.stop();
  });

  it("two processes on PostgreSQL look for the same pages at their date: each is published once", {
    skip: !pg,
  }, async () => {
    const dirA = mkdtempSync(join(tmpdir(), "svc-scheduled-a-"));
    const dirB = mkdtempSync(join(tmpdir(), "svc-scheduled-b-"));
    dirs.push(dirA, dirB);
    const [a, b] = await Promise.all([
      start(dirA, { SVC_SCHEDULE_MS: "200" }),
      start(dirB, { SVC_SCHEDULE_MS: "200" }),
    ]);
    await api(a, "POST", "/frames", { slug: "batch", html: "<p>batch</p>" });
    const date = fromNow(3_000);
    const ids: number[] = [];
    for (let i = 0; i < 8; i++)
      ids.push(
        (await api(i % 2 ? b : a, "POST", "/pages", { title: `Batch ${i}`, frame: "batch", status: "future", date }))
          .page.id,
      );
    await sleep(Math.max(0, Date.parse(date) - Date.now()) + 500);
    let left = ids.length;
    for (let i = 0; i < 50 && left > 0; i++) {
      const pages = (await api(a, "GET", "/pages?status=future")).pages as any[];
      left = pages.filter((page) => ids.includes(page.id)).length;
      if (left > 0) await sleep(200);
    }
    assert.equal(left, 0, "every page published");
    for (const [i, id] of ids.entries()) assert.equal(await visit(i % 2 ? a : b, `/batch-${i}/`), 200, `page ${id}`);
    // Published once, and not written again by the process that found it published.
    assert.deepEqual(
      await eventTypes(a, ids),
      ids.map(() => ["page.created", "page.published"]),
    );
  });
});
