// `import { createSiteClient } from "site-builder-service/client"` works from a script in the
// checkout (package.json `exports` points at src/client/index.ts; the package resolves itself by
// name), run by plain Node 24 (it strips the types of a .ts file outside node_modules) and by tsx.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readFileSync } from "node:fs";
import { serveApp, type ServedApp } from "./server.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const SCRIPT = "test/client/fixtures/by-name.ts";

describe("the client by the package's name", () => {
  let t: ServedApp;
  before(async () => {
    t = await serveApp();
  });
  after(() => t.close());

  it("package.json exports ./client as the TypeScript source", () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8"));
    assert.equal(pkg.exports["./client"], "./src/client/index.ts");
  });

  for (const [how, args] of [
    ["node (type stripping)", [SCRIPT]],
    ["node --import tsx", ["--import", "tsx", SCRIPT]],
  ] as const) {
    it(`a script run by ${how} imports it and calls the service`, async () => {
      const slug = how.startsWith("node (") ? "by-name-node" : "by-name-tsx";
      // (Not spawnSync: the server answering the script runs in this process.)
      const run = await promisify(execFile)(process.execPath, [...args, slug], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, SVC_URL: t.origin, SVC_TOKEN: t.adminToken, SVC_SITE: "1", NODE_OPTIONS: "" },
        timeout: 60_000,
      });
      const lines = run.stdout.trim().split("\n");
      assert.match(lines[0], /^slug_taken: \S/);
      assert.equal(JSON.parse(lines[1]).slug, slug);
    });
  }
});
