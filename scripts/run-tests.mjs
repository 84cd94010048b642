// Runs every test/**/*.test.ts (or the files given) with node:test through tsx, after building
// dist/ with `npm run build`: the process tests start `node dist/main.js`, what `npm start` runs.
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

const build = spawnSync("npm", ["run", "--silent", "build"], { stdio: "inherit", env: process.env });
if (build.status !== 0) {
  process.stderr.write(`run-tests: npm run build failed (${build.status ?? build.signal}); no test ran\n`);
  process.exit(build.status || 1);
}

const only = process.argv.slice(2);
const files = only.length ? only : find("test").sort();
const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...files], {
  stdio: "inherit",
  env: process.env,
});
process.exit(result.status ?? 1);
