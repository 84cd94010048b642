// Webhooks delivered at least once across crashes (docs/webhooks.md, "Delivery and retries"): the
// built service killed with kill -9 right after a write, and again while an attempt is under way,
// sends every event after its restart; under test:pg two processes share the work and each event
// reaches the receiver once.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateToken } from "../../src/tokens.ts";
import { callService as call, serviceDatabase, startService, type Running } from "../support/process.ts";
import type { TestDatabase } from "../support/database.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";

const pg = Boolean(process.env.TEST_DATABASE_URL);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const killed = (svc: Running) => {
  svc.child.kill("SIGKILL");
  return new Promise((resolve) =>
    svc.child.exitCode !== null || svc.child.signalCode !== null ? resolve(undefined) : svc.child.once("exit", resolve),
  );
};

/** The event ids the receiver got, by how many times each arrived. */
function idsOf(receiver: Receiver): Map<number, number> {
  const counts = new Map<number, number>();
  for (const got of receiver.received) {
    const id = JSON.parse(got.body).id as number;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

describe("webhooks survive kill -9", { timeout: 240_000 }, () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let receiver: Receiver;
  const token = generateToken();
  const dirs: string[] = [];
  const running: Running[] = [];

  before(async () => {
    const db = await serviceDatabase();
    database = db.database;
    receiver = await startReceiver();
    env = {
      ...db.env,
      SVC_ADMIN_TOKEN: token,
      SVC_RATE_LIMIT_PER_MIN: "1000000",
      SVC_WEBHOOKS_ALLOW_PRIVATE: "1",
      SVC_OUTBOX_SWEEP_MS: "300",
      LOG_LEVEL: "info",
    };
  });
  after(async () => {
    for (const svc of running)
      if (svc.child.exitCode === null && svc.child.signalCode === null) await svc.stop("SIGKILL");
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await receiver.close();
    await database.drop();
  });

  const start = async (dir?: string) => {
    const home = dir ?? mkdtempSync(join(tmpdir(), "svc-hooks-"));
    if (!dir) dirs.push(home);
    const svc = await startService({ ...env, SVC_DATA_DIR: home });
    running.push(svc);
    return { svc, home };
  };

  /** The frame events the site has, by id. */
  const frameEvents = async (svc: Running) =>
    ((await call(svc, token, "GET", "/api/site/1/events?type=frame&limit=1000")).body.events as any[]).map(
      (event) => event.id as number,
    );

  it("an event written just before a kill -9, and one whose attempt a kill -9 cut, are delivered after the restart", async () => {
    const { svc, home } = await start();
    const made = await call(svc, token, "POST", "/api/site/1/webhooks", { url: receiver.url, events: ["frame"] });
    assert.equal(made.status, 201, made.text);
    // Killed as soon as the write answers: its outbox row and its event's delivery are owed.
    assert.equal((await call(svc, token, "POST", "/api/site/1/frames", { slug: "a", html: "<p>a</p>" })).status, 201);
    await killed(svc);
    const { svc: again } = await start(home);
    await receiver.waitFor(1, 30_000);
    const [first] = await frameEvents(again);
    assert.deepEqual([...idsOf(receiver).keys()], [first]);

    // Killed while the receiver holds the attempt open: attempted again after the restart.
    receiver.answers.push("hang");
    const before = receiver.received.length;
    assert.equal((await call(again, token, "POST", "/api/site/1/frames", { slug: "b", html: "<p>b</p>" })).status, 201);
    await receiver.waitFor(before + 1, 30_000);
    await killed(again);
    const restarted = Date.now();
    const { svc: third } = await start(home);
    await receiver.waitFor(before + 2, 60_000);
    assert.ok(Date.now() - restarted < 60_000);
    const ids = await frameEvents(third);
    assert.deepEqual([...idsOf(receiver).keys()].sort(), [...ids].sort());
    const hooks = (await call(third, token, "GET", "/api/site/1/webhooks")).body.webhooks as any[];
    const deliveries = (await call(third, token, "GET", `/api/site/1/webhooks/${hooks[0].id}/deliveries`)).body
      .deliveries as any[];
    assert.ok(
      deliveries.every((delivery) => delivery.status === "delivered"),
      JSON.stringify(deliveries),
    );
    await call(third, token, "DELETE", `/api/site/1/webhooks/${hooks[0].id}`);
  });

  it("with two processes, every event of a burst written through both reaches the receiver once", {
    skip: !pg,
  }, async () => {
    const one = (await start()).svc;
    const two = (await start()).svc;
    const made = await call(one, token, "POST", "/api/site/1/webhooks", { url: receiver.url, events: ["data"] });
    assert.equal(made.status, 201, made.text);
    receiver.received.length = 0;
    const writes = Array.from({ length: 30 }, (_, i) =>
      call(i % 2 ? one : two, token, "PUT", `/api/site/1/data/set${i}`, { items: [{ i }] }),
    );
    for (const write of await Promise.all(writes)) assert.equal(write.status, 201, write.text);
    await receiver.waitFor(30, 60_000);
    await sleep(3000);
    const counts = idsOf(receiver);
    assert.equal(counts.size, 30);
    assert.ok(
      [...counts.values()].every((count) => count === 1),
      JSON.stringify([...counts]),
    );
  });
});
