// Runs every test/**/*.test.ts with node:test through tsx.
// Node 20's test runner takes no glob, so the files are listed here.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) find(path, out);
    else if (name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

const only = process.argv.slice(2);
const files = only.length ? only : find("test").sort();
const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...files], {
  stdio: "inherit",
  env: process.env,
});
process.exit(result.status ?? 1);
