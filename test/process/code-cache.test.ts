// The build's entry (src/main.ts) runs the bundled service with a V8 code cache written after the
// first answer (a faster cold start). What a user can rely on: the cache appears once the service
// has answered, a later start uses it as it is, a damaged or stale cache is replaced, and none of
// this changes what the service answers.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { serviceDatabase, startService } from "../support/process.ts";

const freshDir = (name: string) => mkdtempSync(join(tmpdir(), `svc-${name}-`));

async function cacheFiles(dir: string, timeoutMs = 10_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".bin")) : [];
    if (files.length > 0 || Date.now() > deadline) return files;
    await sleep(20);
  }
}

/** Starts the service, has it answer /healthz, and stops it once its cache directory settles. */
async function answerOnce(env: Record<string, string>): Promise<void> {
  const running = await startService(env);
  try {
    const r = await fetch(running.url("/healthz"));
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), { ok: true });
    await cacheFiles(env.SVC_CODE_CACHE_DIR, env.NODE_DISABLE_COMPILE_CACHE === "1" ? 300 : 10_000);
  } finally {
    assert.equal(await running.stop(), 0);
  }
}

describe("code cache of the built service", () => {
  it("the cache is written after the first answer, and a later start uses it without writing it again", async () => {
    const cache = freshDir("code-cache");
    const { env } = await serviceDatabase();
    const base = { ...env, SVC_DATA_DIR: freshDir("data"), SVC_CODE_CACHE_DIR: cache };
    await answerOnce(base);
    const [file] = await cacheFiles(cache);
    assert.ok(file, "a cache file was written");
    assert.ok(statSync(join(cache, file)).size > 100_000, "it holds the compiled service");
    const written = readFileSync(join(cache, file));
    await answerOnce(base);
    assert.deepEqual(readdirSync(cache), [file], "one file, the same name");
    assert.ok(readFileSync(join(cache, file)).equals(written), "an accepted cache is not rewritten");
  });

  it("a damaged cache is rejected and replaced; the service answers the same", async () => {
    const cache = freshDir("code-cache");
    const { env } = await serviceDatabase();
    const base = { ...env, SVC_DATA_DIR: freshDir("data"), SVC_CODE_CACHE_DIR: cache };
    await answerOnce(base);
    const [file] = await cacheFiles(cache);
    const garbage = Buffer.alloc(4096, 7);
    writeFileSync(join(cache, file), garbage);
    await answerOnce(base);
    const deadline = Date.now() + 10_000;
    while (readFileSync(join(cache, file)).equals(garbage) && Date.now() < deadline) await sleep(20);
    assert.ok(!readFileSync(join(cache, file)).equals(garbage), "the damaged cache was written again");
  });

  it("NODE_DISABLE_COMPILE_CACHE=1 writes no cache", async () => {
    const cache = freshDir("code-cache");
    const { env } = await serviceDatabase();
    await answerOnce({
      ...env,
      SVC_DATA_DIR: freshDir("data"),
      SVC_CODE_CACHE_DIR: cache,
      NODE_DISABLE_COMPILE_CACHE: "1",
    });
    assert.deepEqual(existsSync(cache) ? readdirSync(cache) : [], []);
  });
});
