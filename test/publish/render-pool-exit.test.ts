// A process whose render worker has rendered still ends once its app is closed: the worker is
// unref'd after its listeners are attached (a "message" listener refs its port again, and every
// process that had used the worker, a test's included, never ended). Found while fuzzing
// (test/security/fuzz.test.ts): the test process hung after its tests had passed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderInput } from "./render-input.ts";

const APP = fileURLToPath(new URL("../support/app.ts", import.meta.url));

test("a process whose render worker rendered ends once its app is closed", () => {
  const script = `
    import { startTestApp } from ${JSON.stringify(APP)};
    const t = await startTestApp();
    await t.call("PUT", "/api/site/1/data/many", { body: { items: Array.from({ length: 3000 }, (_, n) => ({ n })) } });
    // 60,000 bound elements: longer than the 30 ms slice of the service's thread, so the worker renders.
    const html = '<!-- svc/repeat {"source":"many"} --><!-- svc/repeat {"source":"many","limit":20} --><b data-op-bind=\\'{"text":"item.n"}\\'></b><!-- /svc/repeat --><!-- /svc/repeat -->';
    const r = await t.call("POST", "/api/site/1/frames", { body: { slug: "long", html } });
    if (r.status !== 201) throw new Error(r.status + " " + r.text.slice(0, 300));
    await t.close();
    console.log("closed");
  `;
  const dir = mkdtempSync(join(tmpdir(), "svc-pool-exit-"));
  const file = join(dir, "run.mts");
  writeFileSync(file, script);
  const run = spawnSync(process.execPath, ["--import", "tsx", file], { encoding: "utf8", timeout: 30_000 });
  rmSync(dir, { recursive: true, force: true });
  assert.equal(run.signal, null, `the process did not end within 30 s: ${run.stdout} ${run.stderr}`);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /closed/);
});

test("a render worker that fails to load answers as an unavailable renderer, not an error", async () => {
  const { RenderPool } = await import("../../src/publish/render-pool.ts");
  const { ExecutorUnavailable } = await import("../../src/publish/executor.ts");
  const dir = mkdtempSync(join(tmpdir(), "svc-pool-broken-"));
  const broken = join(dir, "worker.cjs");
  writeFileSync(broken, "throw new Error('this worker cannot load');\n");
  const pool = new RenderPool(1, broken);
  try {
    const input = renderInput("x");
    await assert.rejects(
      pool.render(1, { input, frames: [], bytes: 1, expansions: 1, timeMs: 1000, measure: false }, 5_000),
      ExecutorUnavailable,
    );
  } finally {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
