// kill -9 during an upload: the real service (dist/main.js) is killed while a slow
// upload streams into it; after a restart there is no record of it and no file under a key, only
// what was whole before. A temporary may remain until a later start finds it stale.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { request } from "node:http";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serviceDatabase, startService, type Running } from "../support/process.ts";
import type { TestDatabase } from "../support/database.ts";
import { generateToken } from "../../src/tokens.ts";
import { call } from "../cluster/helpers.ts";
import { noisyPng } from "./serving-helpers.ts";
import { multipartBody, storedBlobs } from "./upload-helpers.ts";

/** The size of every temporary the store is writing. */
function temporaries(dataDir: string): number[] {
  const dir = join(dataDir, "media", "tmp");
  try {
    return readdirSync(dir).map((name) => statSync(join(dir, name)).size);
  } catch {
    return [];
  }
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("kill -9 during an upload", () => {
  let dataDir: string;
  let database: TestDatabase;
  let env: Record<string, string>;
  let token: string;
  let svc: Running | undefined;
  before(async () => {
    const db = await serviceDatabase();
    database = db.database;
    dataDir = mkdtempSync(join(tmpdir(), "svc-media-crash-"));
    token = generateToken();
    env = { ...db.env, SVC_DATA_DIR: dataDir, SVC_ADMIN_TOKEN: token };
  });
  after(async () => {
    await svc?.stop("SIGKILL");
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("leaves no half record and no half blob: after a restart GET /media shows only the whole upload, and no file under a key is the killed one's", async () => {
    svc = await startService(env);
    const kept = await noisyPng(120, 80);
    const { body, type } = await multipartBody([
      ["file", { data: kept, filename: "kept.png", type: "image/png" }],
      ["alt", "whole"],
    ]);
    const whole = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: svc!.port,
          method: "POST",
          path: "/api/site/1/media",
          headers: { authorization: `Bearer ${token}`, "content-type": type, "content-length": String(body.length) },
        },
        (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    assert.equal(whole.status, 201, whole.text);

    // A slow upload: a PNG's start, then more bytes, a little at a time, never finished.
    const partial = await noisyPng(600, 600);
    const upload = request({
      host: "127.0.0.1",
      port: svc.port,
      method: "POST",
      path: "/api/site/1/media?filename=killed.png",
      headers: { authorization: `Bearer ${token}`, "content-type": "image/png", "transfer-encoding": "chunked" },
    });
    upload.on("error", () => undefined); // the server dies under it
    let stop = false;
    const dribble = (async () => {
      for (let at = 0; at < partial.length && !stop; at += 64 * 1024) {
        upload.write(partial.subarray(at, at + 64 * 1024));
        await new Promise((r) => setTimeout(r, 30));
      }
    })();
    // Killed once the store is writing the file (past the first bytes, sniffed).
    await until(() => temporaries(dataDir).some((size) => size >= 64 * 1024), "the upload's temporary to grow");
    await svc.stop("SIGKILL");
    stop = true;
    await dribble;
    upload.destroy();
    assert.ok(temporaries(dataDir).length > 0, "the killed upload left its temporary, not a blob");

    svc = await startService(env);
    const list = await call(svc.port, "GET", "/api/site/1/media", { token });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.media.map((m: { filename: string }) => m.filename),
      ["kept.png"],
    );
    assert.equal(list.body.total, 1);
    const keys = storedBlobs(dataDir);
    assert.deepEqual(
      keys,
      [createHash("sha256").update(kept).digest("hex")],
      "only the whole upload's bytes are under a key",
    );
    assert.equal(
      (await call(svc.port, "GET", "/api/site/1/usage", { token })).body.usage.media_bytes.used,
      kept.length,
    );
    const again = await call(svc.port, "GET", `/api/site/1/media/kept`, { token });
    assert.deepEqual(again.body.media.alt, { "": "whole" });
  });
});
