// No input reaches a recursive function without a depth bound (docs/security.md, "Parsers that
// refuse, not crash"), for stylesheets: lightningcss parses nested rules, selectors and calc()
// recursively, in native code, with no depth bound. Found by the fuzz test: a site administrator's
// PUT of a stylesheet nested a few thousand levels deep ended the whole service process with
// SIGSEGV (a native stack overflow), every site with it. Nested blocks inside a value are bounded
// by the parser (422 invalid_css) and are checked here as they stand.
//
// Each case runs in a service process of its own (the built service, as npm start runs it), since
// a crash ends the process; a case that ends it fails, and the test runner carries on.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { call } from "../cluster/helpers.ts";
import { serviceDatabase, startService, type Running } from "../support/process.ts";
import { generateToken } from "../../src/tokens.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const nested = (open: string, close: string, n: number, inner = "") => open.repeat(n) + inner + close.repeat(n);

/**
 * PUT /styles/{name} with `css` to a service process of its own; then the process must still be
 * running and answer. Answers the PUT's status and error.
 */
async function putThenAlive(css: string): Promise<{ status: number; error: string | undefined }> {
  const token = generateToken();
  const { env, database } = await serviceDatabase();
  const dir = mkdtempSync(join(tmpdir(), "svc-css-"));
  let running: Running | undefined;
  try {
    running = await startService({ ...env, SVC_ADMIN_TOKEN: token, SVC_DATA_DIR: dir });
    let put: Awaited<ReturnType<typeof call>> | undefined;
    let failure: unknown;
    try {
      put = await call(running.port, "PUT", "/api/site/1/styles/deep", { token, body: { css } });
    } catch (error) {
      failure = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(
      running.child.signalCode,
      null,
      `the service process was ended by ${running.child.signalCode} (${String(failure ?? "")})`,
    );
    assert.equal(running.child.exitCode, null, "the service process exited");
    assert.ok(put, String(failure));
    assert.equal((await call(running.port, "GET", "/healthz")).status, 200, "the service answers after it");
    return { status: put.status, error: put.body?.error };
  } finally {
    // A process ended by a signal has no exit code, and stop() would wait for an exit already past.
    if (running && running.child.exitCode === null && running.child.signalCode === null) await running.stop();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("security: stylesheets nested deep are refused, never a crash", () => {
  it("blocks nested 5,000 deep inside a value are 422 invalid_css (the parser's own bound), and the service answers", async () => {
    const r = await putThenAlive(`a{b:${"(".repeat(5_000)}}`);
    assert.deepEqual(r, { status: 422, error: "invalid_css" });
  });

  const crashing: Array<[string, string]> = [
    ["rules nested 1,000 deep (2 KB; the bundle's parse, on a thread with a smaller stack)", nested("a{", "}", 1_000)],
    ["rules nested 10,000 deep, unclosed (20 KB)", "a{".repeat(10_000)],
    ["selectors nested 5,000 deep (:is)", `${nested(":is(", ")", 5_000, "a")}{color:red}`],
    ["calc() nested 5,000 deep", `a{width:${nested("calc(", ")", 5_000, "1px")}}`],
    ["@layer blocks nested 5,000 deep", "@layer a{".repeat(5_000)],
  ];
  for (const [what, css] of crashing) {
    it(`${what}: 422 invalid_css before lightningcss parses it (src/styles/nesting.ts), and the service process keeps answering`, async () => {
      const r = await putThenAlive(css);
      assert.deepEqual(r, { status: 422, error: "invalid_css" });
    });
  }

  it("nesting up to 64 levels is a stylesheet like any other", async () => {
    const r = await putThenAlive(`@media screen{${nested(".a{", "}", 62, "color:red")}}`);
    assert.deepEqual(r, { status: 201, error: undefined });
  });
});
