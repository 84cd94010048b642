// The event stream across a restart (docs/events.md, "The stream"): a client reads some events,
// the built service is killed (kill -9) amid writes and started again on the same data, more is
// written, and the client reconnects with Last-Event-ID as EventSource does: it receives every
// event after that id exactly once, in order, those written before the kill that it had not
// received included. On SQLite, and under test:pg on PostgreSQL, where a stream on another
// process, which sees those writes only by its poll, receives the same.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateToken } from "../../src/tokens.ts";
import { serviceDatabase, startService, type Running } from "../support/process.ts";
import type { TestDatabase } from "../support/database.ts";
import { openSse, type SseAnswer } from "../support/sse-client.ts";

const STREAM = "/api/site/1/events/stream";

describe("the event stream resumes after a kill -9 and a restart with nothing lost or repeated", {
  timeout: 120_000,
}, () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  const token = generateToken();
  const dir = mkdtempSync(join(tmpdir(), "svc-stream-"));
  const otherDir = mkdtempSync(join(tmpdir(), "svc-stream-b-"));
  const pg = Boolean(process.env.TEST_DATABASE_URL);
  const running: Running[] = [];
  const streams: SseAnswer[] = [];

  before(async () => {
    const db = await serviceDatabase();
    database = db.database;
    env = {
      ...db.env,
      SVC_ADMIN_TOKEN: token,
      SVC_RATE_LIMIT_PER_MIN: "1000000",
    };
  });
  after(async () => {
    for (const stream of streams) stream.close();
    for (const svc of running)
      if (svc.child.exitCode === null && svc.child.signalCode === null) await svc.stop("SIGKILL");
    for (const folder of [dir, otherDir]) rmSync(folder, { recursive: true, force: true });
    await database.drop();
  });

  const start = async (dataDir = dir) => {
    const svc = await startService({ ...env, SVC_DATA_DIR: dataDir });
    running.push(svc);
    return svc;
  };
  const write = (svc: Running, method: string, path: string, body: unknown) =>
    fetch(svc.url(`/api/site/1${path}`), {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const listen = async (svc: Running, headers: Record<string, string> = {}) => {
    const stream = await openSse(svc.port, STREAM, { authorization: `Bearer ${token}`, ...headers });
    streams.push(stream);
    assert.equal(stream.status, 200);
    await stream.until((blocks) => blocks.length >= 1);
    return stream;
  };
  const ids = (stream: SseAnswer) => stream.events().map((block) => Number(block.id));

  it("receives, after the last id it had, every event once and in order", async () => {
    const first = await start();
    const other = pg ? await start(otherDir) : undefined;
    const before = await listen(first);
    for (let i = 0; i < 3; i++)
      assert.equal((await write(first, "POST", "/frames", { slug: `f${i}`, html: `<p>${i}</p>` })).status, 201);
    await before.until((blocks) => blocks.filter((block) => block.data !== undefined).length >= 6);

    // Killed amid a run of writes, once the client has received some of them: some of the others
    // are committed and published but not yet sent, or committed and not yet published.
    const writing = (async () => {
      for (let i = 0; i < 200; i++)
        if (!(await write(first, "PUT", `/frames/f${i % 3}`, { html: `<p>run ${i}</p>` }).catch(() => null))) return;
    })();
    await before.until((blocks) => blocks.filter((block) => block.data !== undefined).length >= 8);
    // Within the moment a publish run's events wait to be told what it published (publish/outbox.ts).
    await new Promise((resolve) => setTimeout(resolve, 50));
    first.child.kill("SIGKILL");
    await writing;
    await before.ended;
    const received = ids(before);
    assert.deepEqual(
      received,
      [...received].sort((a, b) => a - b),
    );
    const lastSeen = received.at(-1)!;

    const second = await start();
    for (let i = 0; i < 3; i++)
      assert.equal((await write(second, "PUT", `/frames/f${i}`, { html: `<p>after ${i}</p>` })).status, 200);
    const resumed = await listen(second, { "last-event-id": String(lastSeen) });
    assert.equal(resumed.blocks[0].id, String(lastSeen));
    const elsewhere = other && (await listen(other, { "last-event-id": String(lastSeen) }));
    assert.equal((await write(second, "POST", "/frames", { slug: "later", html: "<p>later</p>" })).status, 201);

    const listed = await fetch(second.url(`/api/site/1/events?since=${lastSeen}&limit=1000`), {
      headers: { authorization: `Bearer ${token}` },
    });
    const expected = ((await listed.json()) as { events: Array<{ id: number }> }).events.map((event) => event.id);
    assert.ok(expected.length >= 8, `at least the writes after the restart: ${expected}`);
    for (const stream of elsewhere ? [resumed, elsewhere] : [resumed])
      await stream.until(
        (blocks) => blocks.filter((block) => block.data !== undefined).length >= expected.length,
        10_000,
      );
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(ids(resumed), expected);
    if (elsewhere) assert.deepEqual(ids(elsewhere), expected);
  });
});
