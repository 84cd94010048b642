// Runs every test/**/*.test.ts (or the files given) with node:test through tsx, after building
// dist/ with `npm run build`: the process tests start `node dist/main.js`, what `npm start` runs.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) find(path, out);
    else if (name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

const build = spawnSync("npm", ["run", "--silent", "build"], { stdio: "inherit", env: process.env });
if (build.status !== 0) {
  process.stderr.write(`run-tests: npm run build failed (${build.status ?? build.signal}); no test ran\n`);
  process.exit(build.status || 1);
}

const only = process.argv.slice(2);
// SVC_TEST_SKIP: comma-separated folders or files left out of a whole run, `*<end>` for every file
// whose name ends so (test-pg.sh leaves out what a second run on PostgreSQL would only repeat).
const skipped = (process.env.SVC_TEST_SKIP ?? "").split(",").filter((entry) => entry !== "");
const isSkipped = (file) =>
  skipped.some((entry) => (entry.startsWith("*") ? file.endsWith(entry.slice(1)) : file.startsWith(entry)));
// The longest files start first: files run side by side in the order given, and one that starts
// last and runs for minutes (the fuzz sweeps, 1–4 minutes each) would end the run minutes after
// every other. Measured cumulative times on a 2-core machine, longest first.
const LONGEST = [
  "test/security/fuzz.test.ts",
  "test/security/fuzz-built.test.ts",
  "test/events/every-write-route.test.ts",
  "test/cli/pacing.test.ts",
  "test/docs/walkthrough.test.ts",
  "test/process/durable-webhooks.test.ts",
  "test/build/install-anywhere.test.ts",
  "test/history/every-write-route.test.ts",
  "test/security/read-only-tokens.test.ts",
];
const rank = (file) => {
  const at = LONGEST.indexOf(file.replaceAll("\\", "/"));
  return at === -1 ? LONGEST.length : at;
};
const files = only.length
  ? only
  : find("test")
      .filter((file) => !isSkipped(file))
      .sort()
      .sort((a, b) => rank(a) - rank(b));
// Files run side by side, one more than the machine has cores (node:test's default is one fewer,
// one file at a time on a 2-core machine): most files spend their time waiting on sockets, child
// processes, PostgreSQL or Chromium, and CI's time halves. SVC_TEST_CONCURRENCY=1 runs them in turn.
const concurrency = Number(process.env.SVC_TEST_CONCURRENCY) || availableParallelism() + 1;
const args = ["--import", "tsx", "--test", `--test-concurrency=${concurrency}`, "--test-reporter=spec", ...files];
const result = spawnSync(process.execPath, args, {
  stdio: "inherit",
  env: process.env,
});
process.exit(result.status ?? 1);
