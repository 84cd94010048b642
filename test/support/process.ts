// Starts the real service as `npm start` does (`node dist/main.js`, the compiled build) as a child
// process on a free port. `npm test` (scripts/run-tests.mjs) builds dist/ before the suite.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { freshDatabase, type TestDatabase } from "./database.ts";

/** The environment of a service process with a database of its own (PostgreSQL under test:pg). */
export async function serviceDatabase(): Promise<{ env: Record<string, string>; database: TestDatabase }> {
  const database = await freshDatabase();
  return { env: database.url ? { DATABASE_URL: database.url } : {}, database };
}

export interface Running {
  child: ChildProcess;
  port: number;
  stdout: () => string;
  stderr: () => string;
  url(path: string): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const ROOT = new URL("../../", import.meta.url).pathname;
const MAIN = "dist/main.js";

/** The command line of the service: what `npm start` runs. */
function serviceArgs(): string[] {
  if (!existsSync(join(ROOT, MAIN)))
    throw new Error(`${MAIN} is missing: run \`npm run build\` (npm test does it first)`);
  return [MAIN];
}

/** Runs the service to completion (for start-up failures); resolves with exit code and output. */
export async function runToExit(
  env: Record<string, string>,
  timeoutMs = 20_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, serviceArgs(), {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const [code] = await once(child, "exit");
  clearTimeout(timer);
  return { code, stdout, stderr };
}

export async function startService(env: Record<string, string>, timeoutMs = 30_000): Promise<Running> {
  const child = spawn(process.execPath, serviceArgs(), {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", LOG_LEVEL: "info", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start: ${stdout} ${stderr}`)), timeoutMs);
    const check = () => {
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on("data", check);
    child.on("exit", (code) => reject(new Error(`service exited with ${code}: ${stdout} ${stderr}`)));
  });
  return {
    child,
    port,
    stdout: () => stdout,
    stderr: () => stderr,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, "exit");
      child.kill(signal);
      const [code] = await exited;
      return code;
    },
  };
}

/** A service's answer: status, text and the JSON it parses to (undefined when it is none). */
export interface ServiceAnswer {
  status: number;
  text: string;
  body: any;
}

/** A call on a running service with a token (JSON body), on `host` (default localhost). */
export async function callService(
  svc: Running,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  host = "localhost",
): Promise<ServiceAnswer> {
  const response = await fetch(svc.url(path), {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      host,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, text, body: parsed };
}
