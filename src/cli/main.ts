#!/usr/bin/env node
// The `svc` command (docs/cli.md). In the checkout `npm run svc -- <command>` runs this file with
// Node's type stripping; the package's `bin` is its build, dist/cli.js (scripts/build.mjs), since
// Node does not strip types of files under node_modules.
import { run } from "./program.ts";

const stop = new Promise<void>((resolve) => {
  process.once("SIGINT", () => resolve());
  process.once("SIGTERM", () => resolve());
});

const code = await run(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  // `npm run svc` runs in the package's folder; the folder it was typed in is INIT_CWD.
  cwd: process.env.npm_lifecycle_event === "svc" && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd(),
  stop,
});
process.exitCode = code;
// Let stdout drain, then leave even if a watcher or a kept-alive socket is still open.
process.stdout.write("", () => process.exit(code));
