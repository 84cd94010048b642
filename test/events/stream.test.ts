// The event stream (docs/events.md, "The stream"): GET /api/site/{site_id}/events/stream and
// GET /api/events/stream as Server-Sent Events over a real socket: each event once, in order, as
// GET /events shows it; ?type; Last-Event-ID and ?since resume exactly after an id; without
// either, only new events; keep-alive comments; the refusals of GET /events, as JSON, before it
// starts; no server time limit cuts it, and closing the app ends it.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, makeUser, startTestApp, type TestApp } from "../support/app.ts";
import { openSse, type SseAnswer, type SseBlock } from "../support/sse-client.ts";

const S = "/api/site/1";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function portOf(t: TestApp): number {
  return (t.app.server.address() as { port: number }).port;
}

/** The events `answer` received, as their ids and types. */
const received = (answer: SseAnswer) => answer.events().map((block) => [Number(block.id), block.event]);

/** Waits for `count` events on `answer`. */
const eventsOn = (answer: SseAnswer, count: number) =>
  answer.until((blocks) => blocks.filter((block: SseBlock) => block.data !== undefined).length >= count);

describe("the event stream", () => {
  let t: TestApp;
  let port: number;
  const streams: SseAnswer[] = [];
  const open = async (path: string, headers: Record<string, string> = {}, token: string | null = t.adminToken) => {
    const answer = await openSse(
      port,
      path,
      token === null ? headers : { authorization: `Bearer ${token}`, ...headers },
    );
    streams.push(answer);
    return answer;
  };
  /** GET /events after `since`, as the stream should have sent them. */
  const listed = async (path: string, since: number) =>
    (await t.call("GET", `${path}?since=${since}&limit=1000`)).body.events as any[];
  const lastId = async () => ((await listed("/api/events", 0)).at(-1)?.id as number | undefined) ?? 0;

  before(async () => {
    t = await startTestApp();
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = portOf(t);
  });
  after(async () => {
    for (const stream of streams) stream.close();
    await t.close();
  });

  it("sends new events in order, each as id, event and data as GET /events shows it, after retry and the id it starts at", async () => {
    const since = await lastId();
    const stream = await open(`${S}/events/stream`);
    assert.equal(stream.status, 200);
    assert.equal(stream.headers["content-type"], "text/event-stream");
    assert.equal(stream.headers["cache-control"], "no-store");
    assert.equal(stream.headers["x-accel-buffering"], "no");
    assert.ok(stream.headers["x-request-id"]);
    // Counted once, as it opened, against the caller's limit.
    assert.ok(stream.headers["x-ratelimit-remaining"]);
    await stream.until((blocks) => blocks.length >= 1);
    assert.deepEqual(stream.blocks[0], { retry: "2000", id: String(since), comments: [] });

    await t.call("POST", `${S}/frames`, { body: { slug: "live", html: "<p>1</p>" } });
    await t.call("POST", `${S}/pages`, { body: { title: "Live", frame: "live", status: "publish" } });
    await eventsOn(stream, 4);
    const expected = await listed(`${S}/events`, since);
    assert.deepEqual(
      expected.map((event) => event.type),
      ["frame.created", "site.changed", "page.created", "site.changed"],
    );
    assert.deepEqual(
      received(stream),
      expected.map((event) => [event.id, event.type]),
    );
    assert.deepEqual(
      stream.events().map((block) => JSON.parse(block.data!)),
      expected,
    );
    // Each went out once its write's publish run was over: it says what it published.
    assert.ok(stream.events().every((block) => JSON.parse(block.data!).published !== null));
  });

  it("?type keeps a type or its prefix; a site's stream has only its site's events, the network's every site's", async () => {
    const other = await makeSite(t, "Other", "other.example.test");
    const frames = await open(`${S}/events/stream?type=frame`);
    const site = await open(`${S}/events/stream`);
    const network = await open("/api/events/stream");
    await network.until((blocks) => blocks.length >= 1);
    const start = Number(network.blocks[0].id);
    await t.call("POST", `${S}/pages`, { body: { title: "Not a frame" } });
    await t.call("POST", `/api/site/${other}/frames`, { body: { slug: "elsewhere", html: "<p>2</p>" } });
    await t.call("PUT", `${S}/frames/live`, { body: { html: "<p>2</p>" } });
    const all = (await listed("/api/events", start)).map((event) => [event.id, event.type, event.site_id]);
    const ofSite = (id: number) => all.filter((event) => event[2] === id).map(([id, type]) => [id, type]);
    assert.ok(ofSite(other).length > 0);
    await eventsOn(network, all.length);
    await eventsOn(site, ofSite(1).length);
    await eventsOn(frames, 1);
    assert.deepEqual(
      received(network),
      all.map(([id, type]) => [id, type]),
    );
    assert.deepEqual(received(site), ofSite(1));
    assert.deepEqual(
      received(frames),
      ofSite(1).filter(([, type]) => String(type).startsWith("frame.")),
    );
  });

  it("Last-Event-ID resumes exactly after that id, and ?since where no header is sent; Last-Event-ID first", async () => {
    const written = await listed(`${S}/events`, 0);
    const resumeAfter = written.at(-4).id as number;
    const wanted = written.filter((event) => event.id > resumeAfter).map((event) => [event.id, event.type]);
    const byHeader = await open(`${S}/events/stream?since=1`, { "last-event-id": String(resumeAfter) });
    const byQuery = await open(`${S}/events/stream?since=${resumeAfter}`);
    await eventsOn(byHeader, wanted.length);
    await eventsOn(byQuery, wanted.length);
    assert.deepEqual(byHeader.blocks[0].id, String(resumeAfter));
    assert.deepEqual(received(byHeader), wanted);
    assert.deepEqual(received(byQuery), wanted);
    // Nothing more: no event is sent twice.
    await sleep(300);
    assert.equal(byHeader.events().length, wanted.length);
  });

  it("concurrent writes: every event once, in order", async () => {
    const since = await lastId();
    const stream = await open(`${S}/events/stream`);
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        t.call("POST", `${S}/frames`, { body: { slug: `burst-${i}`, html: `<p>${i}</p>` } }),
      ),
    );
    const expected = await listed(`${S}/events`, since);
    await eventsOn(stream, expected.length);
    assert.deepEqual(
      received(stream),
      expected.map((event) => [event.id, event.type]),
    );
  });

  it("refuses as GET /events does, in JSON, before any stream: 401 without a token, 404 for a site not seen, 403 for an editor; 400 for a bad Last-Event-ID", async () => {
    const nobody = await open(`${S}/events/stream`, {}, null);
    await nobody.ended;
    assert.equal(nobody.status, 401);
    assert.equal(JSON.parse(nobody.text).code, "missing_token");

    const stranger = await makeUser(t, "stream-stranger");
    const foreign = await open(`${S}/events/stream`, {}, stranger.token);
    await foreign.ended;
    assert.equal(foreign.status, 404);
    assert.equal(JSON.parse(foreign.text).code, "site_not_found");
    const network = await open("/api/events/stream", {}, stranger.token);
    await network.ended;
    assert.equal(network.status, 403);
    assert.equal(JSON.parse(network.text).error, "insufficient_role");

    const editor = await makeUser(t, "stream-editor");
    assert.equal((await t.call("PUT", `${S}/users/${editor.id}`, { body: { role: "editor" } })).status, 200);
    const edited = await open(`${S}/events/stream`, {}, editor.token);
    await edited.ended;
    assert.equal(edited.status, 403);
    assert.equal(JSON.parse(edited.text).code, "insufficient_role");

    const bad = await open(`${S}/events/stream`, { "last-event-id": "twelve" });
    await bad.ended;
    assert.equal(bad.status, 400);
    assert.equal(JSON.parse(bad.text).error, "invalid_parameter");
  });

  it("a site's administrator reads the site's stream, and at /api/events/stream with blog_id", async () => {
    const admin = await makeUser(t, "stream-admin");
    assert.equal((await t.call("PUT", `${S}/users/${admin.id}`, { body: { role: "administrator" } })).status, 200);
    const since = await lastId();
    const legacy = await open(`/api/events/stream?blog_id=1`, {}, admin.token);
    assert.equal(legacy.status, 200);
    assert.equal(legacy.headers["x-svc-blog-source"], "blog_id");
    await legacy.until((blocks) => blocks.length >= 1);
    await t.call("POST", `${S}/frames`, { body: { slug: "by-admin", html: "<p>a</p>" } });
    const expected = await listed(`${S}/events`, since);
    await eventsOn(legacy, expected.length);
    assert.deepEqual(
      received(legacy),
      expected.map((event) => [event.id, event.type]),
    );
  });

  it("HEAD answers the stream's headers and opens nothing", async () => {
    const head = await t.app.inject({
      method: "HEAD",
      url: `${S}/events/stream`,
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers["content-type"], "text/event-stream");
    assert.equal(head.body, "");
  });
});

describe("the event stream's connection", () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await startTestApp({
      build: { eventStreams: { keepAliveMs: 100 } },
      // Node's and the app's time limits on a request, far shorter than the stream stays open.
      env: { SVC_HEADERS_TIMEOUT_MS: "100", SVC_REQUEST_TIMEOUT_MS: "200", SVC_UPLOAD_TIMEOUT_MS: "300" },
    });
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = portOf(t);
  });

  it("sends `: keep-alive` while nothing happens, is not cut by the request time limits, and ends when the app closes", async () => {
    const stream = await openSse(port, `${S}/events/stream`, { authorization: `Bearer ${t.adminToken}` });
    assert.equal(stream.status, 200);
    await stream.until((blocks) => blocks.filter((block) => block.comments.includes("keep-alive")).length >= 3);
    await sleep(1_000);
    await t.call("POST", `${S}/frames`, { body: { slug: "late", html: "<p>late</p>" } });
    await eventsOn(stream, 2);
    assert.deepEqual(
      stream.events().map((block) => block.event),
      ["frame.created", "site.changed"],
    );
    const started = performance.now();
    await t.close();
    await stream.ended;
    assert.ok(performance.now() - started < 2_000, `closed in ${Math.round(performance.now() - started)} ms`);
  });
});

describe("an event whose write is still being published", () => {
  let t: TestApp;
  let port: number;
  let stream: SseAnswer;
  const PUBLISHED = JSON.stringify({ rebaked: 0, urls: [] });
  /** An event of site 1, as a write appends it; `published` null: its publish run is not over. */
  const append = async (slug: string, published: string | null, at = new Date()) => {
    const row = await t.store.db
      .insertInto("events")
      .values({
        site_id: 1,
        type: "frame.updated",
        object_kind: "frame",
        object_id: slug,
        object_slug: slug,
        actor_user_id: null,
        actor_token_id: null,
        request_id: null,
        at: at.toISOString(),
        changes_json: JSON.stringify({ fields: [], sha256_before: null, sha256_after: null }),
        outbox_id: null,
        published_json: published,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return Number(row.id);
  };
  before(async () => {
    t = await startTestApp({ build: { eventStreams: { pollMs: 50 } } });
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = portOf(t);
    stream = await openSse(port, `${S}/events/stream`, { authorization: `Bearer ${t.adminToken}` });
    await stream.until((blocks) => blocks.length >= 1);
  });
  after(async () => {
    stream.close();
    await t.close();
  });

  it("holds the events after it back until it has its published, then sends them all in order", async () => {
    const first = await append("held", null);
    const second = await append("ready", PUBLISHED);
    await sleep(400);
    assert.deepEqual(received(stream), []);
    await t.store.db.updateTable("events").set({ published_json: PUBLISHED }).where("id", "=", first).execute();
    await eventsOn(stream, 2);
    assert.deepEqual(received(stream), [
      [first, "frame.updated"],
      [second, "frame.updated"],
    ]);
    assert.deepEqual(JSON.parse(stream.events()[0].data!).published, { rebaked: 0, urls: [] });
  });

  it("sends an event still without its published once it has waited 60 s", async () => {
    const stale = await append("stale", null, new Date(Date.now() - 61_000));
    const next = await append("next", PUBLISHED);
    await eventsOn(stream, 4);
    assert.deepEqual(received(stream).slice(2), [
      [stale, "frame.updated"],
      [next, "frame.updated"],
    ]);
    assert.equal(JSON.parse(stream.events()[2].data!).published, null);
  });
});
