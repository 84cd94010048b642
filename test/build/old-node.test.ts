// On a Node older than 24, every way in — `npm start`, `npm test`, `npm run build`, `npm run svc`,
// the built dist/main.js and dist/cli.js (the installed svc) — stops at scripts/check-node.cjs,
// saying which Node it needs, which it found and how to get one, and exits 1 before loading
// anything that needs Node 24. Run with a real older Node: the first of $SVC_OLD_NODE,
// /usr/bin/node and /usr/local/bin/node older than 24 (skipped, saying so, when there is none).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { ROOT } from "./start-bundle.ts";

const NEEDED = 24;

/** An installed Node older than NEEDED, with its version, or undefined. */
function olderNode(): { path: string; version: string } | undefined {
  for (const path of [process.env.SVC_OLD_NODE, "/usr/bin/node", "/usr/local/bin/node"]) {
    if (!path || !existsSync(path)) continue;
    const run = spawnSync(path, ["-p", "process.versions.node"], { encoding: "utf8" });
    const version = run.stdout?.trim();
    if (run.status === 0 && version && Number(version.split(".")[0]) < NEEDED) return { path, version };
  }
  return undefined;
}

const old = olderNode();
const skip = old ? false : `no Node older than ${NEEDED} here (/usr/bin/node, /usr/local/bin/node; set SVC_OLD_NODE)`;

function assertRefused(run: ReturnType<typeof spawnSync>, version: string): void {
  const stderr = String(run.stderr);
  assert.equal(run.status, 1, `exit code (stderr: ${stderr.slice(-2000)})`);
  assert.ok(stderr.includes(`needs Node ${NEEDED} or newer (found ${version})`), stderr.slice(-2000));
  assert.match(stderr, /nodejs\.org/);
  assert.match(stderr, /scripts\/ensure-node\.sh/);
  // Refused before the entry ran: no stack trace of a missing API.
  assert.doesNotMatch(stderr, /TypeError|ERR_UNKNOWN_FILE_EXTENSION|at .*\(node:/);
}

describe("on an older Node", { skip }, () => {
  it("package.json's engines ask for the Node scripts/check-node.cjs checks for", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    assert.equal(pkg.engines.node, `>=${NEEDED}`);
    assert.match(readFileSync(join(ROOT, "scripts/check-node.cjs"), "utf8"), new RegExp(`const NEEDED = ${NEEDED};`));
  });

  for (const entry of ["dist/main.js", "dist/cli.js"]) {
    it(`the built ${entry} stops with the message`, () => {
      const elsewhere = mkdtempSync(join(tmpdir(), "svc-old-node-"));
      try {
        const run = spawnSync(old!.path, [join(ROOT, entry), "--version"], {
          cwd: elsewhere,
          encoding: "utf8",
          timeout: 30_000,
        });
        assertRefused(run, old!.version);
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
    });
  }

  // npm runs its scripts with the `node` first on PATH: the older one here. SVC_BUILD_DIR points
  // outside the checkout, so were a check missing, the build `npm test` starts would refuse to
  // write anything (scripts/build.mjs) rather than rebuild dist/ with the older Node.
  for (const script of [
    ["start"],
    ["test", "--", "test/none.test.ts"],
    ["run", "build"],
    ["run", "svc", "--", "--version"],
  ]) {
    it(`npm ${script.join(" ")} stops with the message`, () => {
      const run = spawnSync("npm", script, {
        cwd: ROOT,
        encoding: "utf8",
        timeout: 60_000,
        env: {
          ...process.env,
          PATH: [dirname(old!.path), process.env.PATH].join(delimiter),
          NODE_OPTIONS: "",
          SVC_BUILD_DIR: "../outside-the-checkout",
        },
      });
      assertRefused(run, old!.version);
    });
  }
});
