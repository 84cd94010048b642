// `svc` installed the three ways README.md and docs/cli.md ("Running it") show, each run from a folder
// outside the checkout: `npm install -g` of the checkout (a link to it, so its dist/ as built) and
// of the tarball `npm pack` makes (`files`: dist/ and the starter site `svc init` writes) into prefixes of their own, and
// `npx --package <tarball> svc`. They answer --version (and --help), and the installed one pulls a
// site from a served app and reports its status. The tarball is packed from the dist/ that
// `npm test` built first (--ignore-scripts: its prepack, `npm run build`, would build it again).
// npm installs from its cache where it can (--prefer-offline); npx's install, made in npm's
// cache, is removed afterwards.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { serveApp, type ServedApp } from "../client/server.ts";
import { ROOT } from "./start-bundle.ts";

const exec = promisify(execFile);
const VERSION = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
const NPM_QUIET = ["--prefer-offline", "--no-audit", "--no-fund"];

/** Runs a command to its end; fails with its output unless it exits 0. */
async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  try {
    return await exec(command, args, { cwd, env, encoding: "utf8", timeout: 180_000, maxBuffer: 10_000_000 });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    assert.fail(`${command} ${args.join(" ")}: ${failed.message}\n${failed.stdout ?? ""}\n${failed.stderr ?? ""}`);
  }
}

/** npx's installs of `tarball` in npm's cache (`<cache>/_npx/<hash>/`, its package.json naming the spec). */
function npxInstallsOf(tarball: string): string[] {
  const cache = spawnSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).stdout.trim();
  const npx = join(cache, "_npx");
  if (!cache || !existsSync(npx)) return [];
  return readdirSync(npx)
    .map((hash) => join(npx, hash))
    .filter((dir) => {
      try {
        return JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))._npx?.packages?.includes(tarball);
      } catch {
        return false;
      }
    });
}

describe("svc installed anywhere", () => {
  let work: string;
  let elsewhere: string;
  let tarball: string;
  let t: ServedApp;
  let npxVersion: string;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "svc-install-"));
    elsewhere = join(work, "a-client-repository");
    mkdirSync(elsewhere);
    const packed = JSON.parse(
      (await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], ROOT)).stdout,
    );
    tarball = join(work, packed[0].filename);
    // The three side by side: each waits on the disk and npm's cache more than on a core. (npx
    // installs the tarball again on each run, so it runs once.)
    const [, , npx] = await Promise.all([
      run("npm", ["install", "-g", "--prefix", join(work, "from-tarball"), tarball, ...NPM_QUIET], elsewhere),
      run("npm", ["install", "-g", "--prefix", join(work, "from-checkout"), ROOT, ...NPM_QUIET], elsewhere),
      // (npx's --no-audit/--no-fund would make it answer npm's own --version.)
      run("npx", ["--yes", "--package", tarball, "--prefer-offline", "svc", "--version"], elsewhere),
    ]);
    npxVersion = npx.stdout.trim();
    t = await serveApp();
  });

  after(async () => {
    await t?.close();
    if (tarball) for (const dir of npxInstallsOf(tarball)) rmSync(dir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  it("the tarball holds the build (dist/), the starter site and package.json, no source", () => {
    const files = spawnSync("tar", ["-tzf", tarball], { encoding: "utf8" }).stdout.trim().split("\n");
    assert.ok(files.includes("package/dist/cli.js"), "the bin");
    assert.ok(files.includes("package/dist/main.js"), "the service's entry");
    assert.ok(files.includes("package/package.json"));
    assert.ok(files.includes("package/starter/frames/base.html"), "the starter site");
    assert.deepEqual(
      files.filter(
        (file) =>
          !file.startsWith("package/dist/") &&
          !file.startsWith("package/starter/") &&
          !/^package\/(package\.json|README\.md)$/.test(file),
      ),
      [],
    );
  });

  it("its prepack builds dist/ (what --ignore-scripts skipped here)", () => {
    assert.match(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.prepack, /^npm run build$/);
  });

  for (const from of ["tarball", "checkout"]) {
    it(`installed from the ${from}, svc --version and --help answer in another folder`, async () => {
      const svc = join(work, `from-${from}/bin/svc`);
      assert.equal((await run(svc, ["--version"], elsewhere)).stdout.trim(), VERSION);
      assert.match((await run(svc, ["--help"], elsewhere)).stdout, /^Usage: svc /);
    });
  }

  it("npx --package <tarball> svc --version answers in another folder", () => {
    assert.equal(npxVersion, VERSION);
  });

  it("the installed svc writes the starter site in another folder (svc init finds the package's starter/)", async () => {
    const svc = join(work, "from-tarball/bin/svc");
    await run(svc, ["init", "starter-site"], elsewhere, { ...process.env, NODE_OPTIONS: "" });
    for (const key of ["frames/base.html", "pages/de/start.md", ".gitignore"])
      assert.ok(existsSync(join(elsewhere, "starter-site", key)), key);
  });

  it("the installed svc pulls a site in another folder and tells its status", async () => {
    const svc = join(work, "from-tarball/bin/svc");
    const env = { ...process.env, SVC_URL: t.origin, SVC_TOKEN: t.adminToken, NODE_OPTIONS: "" };
    await run(svc, ["pull", "site"], elsewhere, env);
    assert.ok(existsSync(join(elsewhere, "site/settings.json")));
    const status = await run(svc, ["status", "site"], elsewhere, env);
    assert.equal(status.stdout, `in sync with ${t.origin} site 1\n`);
  });
});
