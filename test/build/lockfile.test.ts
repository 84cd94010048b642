// `npm install` on a fresh clone leaves package-lock.json as committed. Two ways it did not, each
// checked here without installing anything:
// - package.json and the lockfile disagree (a range, a workspace): `npm install --package-lock-only`
//   in a copy of the manifests, offline, must leave the copy's lockfile unchanged;
// - npm learns something of a package only when it installs it, and writes it then: better-sqlite3
//   ships a binding.gyp, so npm records `"hasInstallScript": true` once it is on disk, though the
//   registry says otherwise. node_modules/.package-lock.json is what the last `npm ci`/`npm install`
//   wrote of each installed package; package-lock.json must say the same of each.
// .ci/run runs the real thing on its clean clone: `npm install`, then `git diff --exit-code`.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ROOT } from "./start-bundle.ts";

const LOCK = readFileSync(join(ROOT, "package-lock.json"), "utf8");
const INSTALLED = join(ROOT, "node_modules/.package-lock.json");

describe("package-lock.json is what npm install writes", () => {
  it("npm install --package-lock-only leaves it unchanged (package.json and the lockfile agree)", () => {
    const copy = mkdtempSync(join(tmpdir(), "svc-lockfile-"));
    try {
      const manifests = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).workspaces.map(
        (workspace: string) => `${workspace}/package.json`,
      );
      for (const file of ["package.json", "package-lock.json", ...manifests]) {
        mkdirSync(dirname(join(copy, file)), { recursive: true });
        writeFileSync(join(copy, file), readFileSync(join(ROOT, file)));
      }
      const run = spawnSync(
        "npm",
        ["install", "--package-lock-only", "--ignore-scripts", "--offline", "--no-audit", "--no-fund"],
        { cwd: copy, encoding: "utf8", timeout: 60_000 },
      );
      assert.equal(run.status, 0, `npm install --package-lock-only: ${run.stderr}`);
      assert.equal(
        readFileSync(join(copy, "package-lock.json"), "utf8"),
        LOCK,
        "run npm install and commit the lockfile",
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("says of every installed package what the install wrote of it", {
    skip: existsSync(INSTALLED)
      ? false
      : "node_modules/.package-lock.json is missing (not installed by npm ci or npm install)",
  }, () => {
    const committed = JSON.parse(LOCK).packages;
    const installed = JSON.parse(readFileSync(INSTALLED, "utf8")).packages;
    const differing = Object.keys(installed).filter(
      (path) => JSON.stringify(committed[path]) !== JSON.stringify(installed[path]),
    );
    assert.deepEqual(
      differing.map((path) => ({ path, committed: committed[path], installed: installed[path] })),
      [],
      "these entries of package-lock.json are not what npm install writes: run npm install on a fresh clone and commit the lockfile (or, were node_modules installed from another lockfile, npm ci)",
    );
  });
});
