// Frame updates carry If-Match (the ETag the last write left, kept in .svc/state.json, or the one a
// GET answers): a frame edited on the server between svc's read and its write answers 412, which
// svc reports as a conflict naming the frame and stops; a stale ETag over unchanged content (only
// the revision moved) is sent once more with the current one. The edit is made by a hook of the
// app, just before the handler of svc's PUT runs.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { CliError } from "../../src/cli/errors.ts";
import { upload } from "../../src/cli/write-bytes.ts";
import { inProcess, read, tempDir, write, type InProcess } from "./harness.ts";

describe("svc push and If-Match", () => {
  let p: InProcess;
  let dir: string;
  /** When set, the next PUT of a frame is preceded by this server-side edit. */
  let inject: { html: string } | null = null;
  const puts: Array<{ url: string; ifMatch: string | undefined; status?: number }> = [];

  before(async () => {
    p = await inProcess({
      beforeReady(fastify) {
        fastify.addHook("preHandler", async (request) => {
          if (request.method !== "PUT" || !/\/frames\/[^/]+$/.test(request.url) || request.headers["x-test"]) return;
          puts.push({ url: request.url, ifMatch: request.headers["if-match"] as string | undefined });
          if (!inject) return;
          const { html } = inject;
          inject = null;
          const edit = await fastify.inject({
            method: "PUT",
            url: request.url,
            headers: { authorization: `Bearer ${p.app.adminToken}`, "content-type": "application/json", "x-test": "1" },
            payload: JSON.stringify({ html }),
          });
          assert.equal(edit.statusCode, 200, edit.body);
        });
      },
    });
    dir = tempDir("svc-cli-race-");
    assert.equal((await p.t.api("POST", "/frames", { slug: "hero", html: "<h1>v1</h1>" })).status, 201);
    assert.equal((await p.t.svc(["pull", dir])).code, 0);
  });
  after(async () => {
    await p.t.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("an update is sent with If-Match, and the ETag it leaves is kept for the next one", async () => {
    write(dir, "frames/hero.html", "<h1>v2</h1>");
    const run = await p.t.svc(["push", dir]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(puts.at(-1)?.ifMatch ?? "", /^"r\d+-[0-9a-f]{16}"$/);
    const state = JSON.parse(read(dir, ".svc/state.json"));
    const entry = Object.values<any>(state.targets)[0].objects["frames/hero.html"];
    const etag = (await p.t.api("GET", "/frames/hero")).headers.get("etag");
    assert.equal(entry.etag, etag);
  });

  it("an edit on the server between svc's read and its write: 412, reported as a conflict naming the frame, exit 1", async () => {
    write(dir, "frames/hero.html", "<h1>v3 here</h1>");
    const state = read(dir, ".svc/state.json");
    inject = { html: "<h1>v3 on the server</h1>" };
    const run = await p.t.svc(["push", dir]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stderr, /^conflict: frames\/hero\.html: .*412 precondition_failed/m);
    assert.equal(
      (await p.t.api("GET", "/frames/hero")).body.frame.html,
      "<h1>v3 on the server</h1>",
      "the server's edit stands",
    );
    const after = JSON.parse(read(dir, ".svc/state.json"));
    assert.deepEqual(
      Object.values<any>(after.targets)[0].objects["frames/hero.html"],
      Object.values<any>(JSON.parse(state).targets)[0].objects["frames/hero.html"],
      "the baseline of the frame is kept",
    );
    const status = await p.t.svc(["status", dir]);
    assert.equal(status.code, 1);
    assert.match(status.stdout, /^conflict\s+frames\/hero\.html/m);
  });

  it("a stale ETag over content the server still has (only the revision moved) is sent again with the current ETag", async () => {
    assert.equal((await p.t.svc(["pull", dir, "--force"])).code, 0);
    const state = JSON.parse(read(dir, ".svc/state.json"));
    const target = Object.values<any>(state.targets)[0];
    target.objects["frames/hero.html"].etag = '"r1-0000000000000000"';
    write(dir, ".svc/state.json", JSON.stringify(state));
    write(dir, "frames/hero.html", "<h1>v4</h1>");
    const before = puts.length;
    const run = await p.t.svc(["push", dir]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      puts.slice(before).map((put) => put.ifMatch?.startsWith('"r1-0000')),
      [true, false],
      "the stale ETag, then the current one",
    );
    assert.equal((await p.t.api("GET", "/frames/hero")).body.frame.html, "<h1>v4</h1>");
  });
});

describe("media uploads and upload_conflict", () => {
  it("an upload answered 409 upload_conflict (its bytes removed by a concurrent delete) is sent again, up to 3 times", async () => {
    const conflict = () =>
      new CliError(1, "upload_conflict: send the file again", [], { code: "upload_conflict", status: 409 });
    let calls = 0;
    const answer = await upload(async () => {
      calls++;
      if (calls < 3) throw conflict();
      return { media: { id: 1 } };
    });
    assert.deepEqual([calls, answer], [3, { media: { id: 1 } }]);
    calls = 0;
    await assert.rejects(
      upload(async () => {
        calls++;
        throw conflict();
      }),
      /upload_conflict/,
    );
    assert.equal(calls, 3);
    calls = 0;
    await assert.rejects(
      upload(async () => {
        calls++;
        throw new CliError(1, "media_too_large: …", [], { code: "media_too_large" });
      }),
      /media_too_large/,
    );
    assert.equal(calls, 1, "other refusals are not retried");
  });
});
