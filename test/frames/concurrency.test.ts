// ETags and If-Match on frame writes (docs/frames.md, "Concurrency"), a slug never taken twice; and
// a write whose renderer does not answer is saved and answers 502 internal_unavailable.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { stalledExecutor } from "../../src/publish/executor.ts";
import { ServiceError } from "../../src/errors.ts";
import { statusOf } from "../../src/http/errors.ts";
import { createFrame as createFrameService } from "../../src/frames/write-service.ts";
import type { ServiceContext } from "../../src/write/context.ts";
import type { Db } from "../../src/store/database.ts";
import { embed, FRAMES, getFrame, refused, sha256 } from "./helpers.ts";

const ETAG = /^"r\d+-[0-9a-f]{16}"$/;

describe("frames: ETag and If-Match", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("GET, POST, PUT and PATCH answers carry the frame's ETag; each write changes it and GET agrees", async () => {
    const post = await t.call("POST", FRAMES, { body: { slug: "tagged", html: "<p>1</p>" } });
    assert.match(String(post.headers.etag), ETAG);
    const get1 = await t.call("GET", `${FRAMES}/tagged`);
    assert.equal(get1.headers.etag, post.headers.etag);
    const put = await t.call("PUT", `${FRAMES}/tagged`, { body: { html: "<p>2</p>" } });
    assert.match(String(put.headers.etag), ETAG);
    assert.notEqual(put.headers.etag, post.headers.etag);
    assert.equal((await t.call("GET", `${FRAMES}/tagged`)).headers.etag, put.headers.etag);
    const patch = await t.call("PATCH", `${FRAMES}/tagged`, { body: { slug: "tagged-2" } });
    assert.match(String(patch.headers.etag), ETAG);
    assert.notEqual(patch.headers.etag, put.headers.etag);
    assert.equal((await t.call("GET", `${FRAMES}/tagged-2`)).headers.etag, patch.headers.etag);
    // A PUT of the very same markup is still a new revision: the ETag changes with every write.
    const same = await t.call("PUT", `${FRAMES}/tagged-2`, { body: { html: "<p>2</p>" } });
    assert.notEqual(same.headers.etag, patch.headers.etag);
  });

  it("GET with If-None-Match holding the current ETag answers 304 without a body; after a write, 200 again", async () => {
    const created = await t.call("POST", FRAMES, { body: { slug: "conditional", html: "<p>c</p>" } });
    const tag = String(created.headers.etag);
    const unchanged = await t.call("GET", `${FRAMES}/conditional`, { headers: { "if-none-match": tag } });
    assert.equal(unchanged.status, 304);
    assert.equal(unchanged.text, "");
    assert.equal(unchanged.headers.etag, tag);
    await t.call("PUT", `${FRAMES}/conditional`, { body: { html: "<p>c2</p>" } });
    const changed = await t.call("GET", `${FRAMES}/conditional`, { headers: { "if-none-match": tag } });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.frame.html, "<p>c2</p>");
  });

  it("PUT with a stale If-Match is 412 precondition_failed with the current sha256; nothing is written", async () => {
    const created = await t.call("POST", FRAMES, { body: { slug: "guarded", html: "<p>v1</p>" } });
    const stale = String(created.headers.etag);
    const first = await t.call("PUT", `${FRAMES}/guarded`, {
      body: { html: "<p>v2</p>" },
      headers: { "if-match": stale },
    });
    assert.equal(first.status, 200);
    const current = String(first.headers.etag);
    const second = await t.call("PUT", `${FRAMES}/guarded`, {
      body: { html: "<p>v3 lost?</p>" },
      headers: { "if-match": stale },
    });
    const body = refused(second, 412, "precondition_failed");
    assert.equal(body.sha256, sha256("<p>v2</p>"));
    assert.equal(body.etag, current);
    assert.equal((await getFrame(t, "guarded")).html, "<p>v2</p>");
    // With the current ETag the write goes through; `*` and a list holding it do too.
    assert.equal(
      (await t.call("PUT", `${FRAMES}/guarded`, { body: { html: "<p>v3</p>" }, headers: { "if-match": current } }))
        .status,
      200,
    );
    const now = String((await t.call("GET", `${FRAMES}/guarded`)).headers.etag);
    assert.equal(
      (
        await t.call("PUT", `${FRAMES}/guarded`, {
          body: { html: "<p>v4</p>" },
          headers: { "if-match": `"nope", ${now}` },
        })
      ).status,
      200,
    );
    assert.equal(
      (await t.call("PUT", `${FRAMES}/guarded`, { body: { html: "<p>v5</p>" }, headers: { "if-match": "*" } })).status,
      200,
    );
  });

  it("PATCH with a stale If-Match is 412; with the current one it renames", async () => {
    const created = await t.call("POST", FRAMES, { body: { slug: "guarded-rename", html: "<p>r</p>" } });
    const stale = String(created.headers.etag);
    const put = await t.call("PUT", `${FRAMES}/guarded-rename`, { body: { html: "<p>r2</p>" } });
    const body = refused(
      await t.call("PATCH", `${FRAMES}/guarded-rename`, {
        body: { slug: "renamed-late" },
        headers: { "if-match": stale },
      }),
      412,
      "precondition_failed",
    );
    assert.equal(body.sha256, sha256("<p>r2</p>"));
    refused(await t.call("GET", `${FRAMES}/renamed-late`), 404, "frame_not_found");
    const ok = await t.call("PATCH", `${FRAMES}/guarded-rename`, {
      body: { slug: "renamed-late" },
      headers: { "if-match": String(put.headers.etag) },
    });
    assert.equal(ok.status, 200);
  });

  it("DELETE with a stale If-Match is 412 and the frame stays; with the current one it is deleted", async () => {
    const created = await t.call("POST", FRAMES, { body: { slug: "guarded-delete", html: "<p>d</p>" } });
    const stale = String(created.headers.etag);
    const put = await t.call("PUT", `${FRAMES}/guarded-delete`, { body: { html: "<p>d2</p>" } });
    const body = refused(
      await t.call("DELETE", `${FRAMES}/guarded-delete`, { headers: { "if-match": stale } }),
      412,
      "precondition_failed",
    );
    assert.equal(body.sha256, sha256("<p>d2</p>"));
    assert.equal((await t.call("GET", `${FRAMES}/guarded-delete`)).status, 200);
    assert.equal(
      (await t.call("DELETE", `${FRAMES}/guarded-delete`, { headers: { "if-match": String(put.headers.etag) } }))
        .status,
      200,
    );
    refused(await t.call("GET", `${FRAMES}/guarded-delete`), 404, "frame_not_found");
  });

  it("a rename rewriting another frame's references changes that frame's ETag, so its stale writer gets 412", async () => {
    await t.call("POST", FRAMES, { body: { slug: "inner-tag", html: "<p>i</p>" } });
    const user = await t.call("POST", FRAMES, { body: { slug: "user-tag", html: embed("inner-tag") } });
    await t.call("PATCH", `${FRAMES}/inner-tag`, { body: { slug: "inner-tag-2" } });
    refused(
      await t.call("PUT", `${FRAMES}/user-tag`, {
        body: { html: embed("inner-tag") },
        headers: { "if-match": String(user.headers.etag) },
      }),
      412,
      "precondition_failed",
    );
    assert.equal((await getFrame(t, "user-tag")).html, embed("inner-tag-2"));
  });

  it("two concurrent POSTs of the same slug: exactly one 201 and one 409 slug_taken naming the winner", async () => {
    for (let round = 0; round < 5; round++) {
      const slug = `race-${round}`;
      const answers = await Promise.all([
        t.call("POST", FRAMES, { body: { slug, html: "<p>a</p>" } }),
        t.call("POST", "/api/frames", { body: { slug: slug.toUpperCase(), html: "<p>b</p>" } }),
      ]);
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(statuses, [201, 409], `round ${round}`);
      const winner = answers.find((a) => a.status === 201)!;
      const loser = answers.find((a) => a.status === 409)!;
      assert.equal(loser.body.error, "slug_taken");
      assert.equal(loser.body.id, winner.body.frame.id);
      const list = await t.call("GET", FRAMES, { query: { q: slug } });
      assert.equal(list.body.total, 1);
    }
  });

  it("the unique constraint maps to slug_taken when another writer inserts the slug between the check and the insert", async () => {
    // Force the worst interleaving: the competing row lands after the service's own occupancy check.
    const real = t.store.db;
    const competitor = { id: "00000000000000c0", slug: "interleaved" };
    // The service inserts inside a transaction (its bake is checked before it commits): the first
    // attempt only learns the row, the competitor commits it under its own id, then the service's
    // transaction runs for real and meets the unique constraint.
    class Learned extends Error {}
    const learning = (trx: Db, learn: (row: Record<string, unknown>) => void) =>
      new Proxy(trx, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver);
          if (prop !== "insertInto") return typeof value === "function" ? value.bind(target) : value;
          return (table: string) =>
            table !== "frames"
              ? (target as any).insertInto(table)
              : { values: (row: Record<string, unknown>) => ({ execute: async () => learn(row) }) };
        },
      }) as Db;
    const db = new Proxy(real, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        // Kysely keeps private fields: its methods must run on the real instance.
        if (prop !== "transaction") return typeof value === "function" ? value.bind(target) : value;
        return () => ({
          async execute(work: (trx: Db) => Promise<unknown>) {
            let row: Record<string, unknown> = {};
            await assert.rejects(
              target.transaction().execute((trx) =>
                work(
                  learning(trx, (r) => {
                    row = r;
                    throw new Learned();
                  }),
                ),
              ),
              Learned,
            );
            await target
              .insertInto("frames")
              .values({ ...(row as any), id: competitor.id, html: "<p>first</p>" })
              .execute();
            return target.transaction().execute(work);
          },
        });
      },
    }) as Db;
    const ctx: ServiceContext = { db, clock: t.deps.clock, publisher: t.deps.publisher, publicFront: t.config };
    await assert.rejects(
      createFrameService(ctx, 1, 1, { slug: "interleaved", html: "<p>second</p>" }),
      (error: unknown) => {
        assert.ok(error instanceof ServiceError);
        assert.equal(error.code, "slug_taken");
        assert.equal(statusOf(error.code), 409);
        assert.deepEqual(error.details, { id: competitor.id, slug: "interleaved" });
        return true;
      },
    );
    const list = await t.call("GET", FRAMES, { query: { q: "interleaved" } });
    assert.deepEqual(
      list.body.frames.map((f: any) => [f.id, f.slug]),
      [[competitor.id, "interleaved"]],
    );
    assert.equal((await getFrame(t, "interleaved")).html, "<p>first</p>");
  });

  it("concurrent PUTs with the same If-Match: one wins, the other is 412 — no update is lost silently", async () => {
    const created = await t.call("POST", FRAMES, { body: { slug: "contended", html: "<p>0</p>" } });
    const tag = String(created.headers.etag);
    const answers = await Promise.all(
      ["<p>A</p>", "<p>B</p>"].map((html) =>
        t.call("PUT", `${FRAMES}/contended`, { body: { html }, headers: { "if-match": tag } }),
      ),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 412]);
    const winner = answers.find((a) => a.status === 200)!;
    assert.equal((await getFrame(t, "contended")).sha256, winner.body.frame.sha256);
  });

  it("concurrent renames of two frames to one slug: exactly one succeeds, the other is 409 slug_taken", async () => {
    await t.call("POST", FRAMES, { body: { slug: "twin-a", html: "<p>a</p>" } });
    await t.call("POST", FRAMES, { body: { slug: "twin-b", html: "<p>b</p>" } });
    const answers = await Promise.all([
      t.call("PATCH", `${FRAMES}/twin-a`, { body: { slug: "twin" } }),
      t.call("PATCH", `${FRAMES}/twin-b`, { body: { slug: "twin" } }),
    ]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
    assert.equal(answers.find((a) => a.status === 409)!.body.error, "slug_taken");
    assert.equal((await t.call("GET", FRAMES, { query: { q: "twin" } })).body.total, 2);
  });
});

describe("frames: the renderer does not answer", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ publishing: { executor: stalledExecutor, timeoutMs: 50 } })));
  after(() => t.close());

  it("POST answers 502 internal_unavailable and the frame is saved (GET finds it)", async () => {
    const r = await t.call("POST", FRAMES, { body: { slug: "saved-anyway", html: "<p>saved</p>" } });
    const body = refused(r, 502, "internal_unavailable");
    assert.equal(body.saved, true);
    assert.equal(body.frame.slug, "saved-anyway");
    const read = await getFrame(t, "saved-anyway");
    assert.equal(read.html, "<p>saved</p>");
    assert.equal(read.id, body.frame.id);
  });

  it("PUT answers 502 internal_unavailable and the new markup is saved", async () => {
    await t.call("POST", FRAMES, { body: { slug: "put-anyway", html: "<p>1</p>", bake: false } });
    refused(await t.call("PUT", `${FRAMES}/put-anyway`, { body: { html: "<p>2</p>" } }), 502, "internal_unavailable");
    assert.equal((await getFrame(t, "put-anyway")).html, "<p>2</p>");
  });

  it("a frame that renders on request needs no renderer: POST answers 201", async () => {
    const r = await t.call("POST", FRAMES, {
      body: { slug: "live-anyway", html: `<h1 data-op-bind='{"text": "page.title"}'></h1>` },
    });
    assert.equal(r.status, 201);
    assert.equal(r.body.bake.response.baked, false);
  });
});
