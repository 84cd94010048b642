// The svc command as a user runs it: the built dist/cli.js (the package's bin; `npm test` builds
// it first) as a child process, against the real service over a socket — the built service
// (test/support/process.ts), or the app in this process on a loopback port when a test needs a
// short rate-limit window. Each run gets its own HOME, so no test reads a real credentials file.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { FastifyInstance } from "fastify";
import { startTestApp, type TestApp, type TestAppOptions } from "../support/app.ts";
import { serviceDatabase, startService, type Running } from "../support/process.ts";
import { generateToken } from "../../src/tokens.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
export const CLI = join(ROOT, "dist/cli.js");

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface SvcOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
}

/** Runs `svc <args>` to its end. */
export function runSvc(args: string[], options: SvcOptions = {}): Promise<Run> {
  if (!existsSync(CLI)) throw new Error("dist/cli.js is missing: run `npm run build` (npm test does it first)");
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...options.env }))
    if (value !== undefined) env[key] = value;
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? tmpdir(), env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  child.stdin.end(options.input ?? "");
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface Served {
  url: string;
  token: string;
  /** The API writes (POST, PUT, PATCH, DELETE under /api/) the service has logged so far. */
  writes(): number;
  /** Those writes as `METHOD route`, in order (the built service's log; empty in this process). */
  writeList(): string[];
  /** A call to the API with the admin token; the parsed answer. */
  api(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** A public address of the main site. */
  page(path: string): Promise<{ status: number; text: string }>;
  home: string;
  /** Runs svc with SVC_URL, SVC_TOKEN and a HOME of its own. */
  svc(args: string[], options?: SvcOptions): Promise<Run>;
  stop(): Promise<void>;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The built service on a fresh database, logging every request (LOG_LEVEL=info), with the given env. */
export async function serve(env: Record<string, string> = {}): Promise<Served> {
  const token = generateToken();
  const dataDir = tempDir("svc-cli-data-");
  const home = tempDir("svc-cli-home-");
  const { env: dbEnv, database } = await serviceDatabase();
  const running: Running = await startService({
    ...dbEnv,
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_TOKEN: token,
    SVC_RATE_LIMIT_PER_MIN: "100000",
    ...env,
  });
  const url = `http://127.0.0.1:${running.port}`;
  return served(
    url,
    token,
    home,
    () => countWrites(running.stdout()),
    async () => {
      await running.stop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
    () => writeRoutes(running.stdout()),
  );
}

/** API writes in a service's request log (its one line a request, msg "request": src/http/request-line.ts), as `METHOD route`. */
export function writeRoutes(log: string): string[] {
  const out: string[] = [];
  for (const line of log.split("\n")) {
    if (!line.includes('"msg":"request"')) continue;
    const match = /"route":"(\/api\/[^"]*)","method":"(\w+)"/.exec(line);
    if (match && !["GET", "HEAD", "OPTIONS"].includes(match[2])) out.push(`${match[2]} ${match[1]}`);
  }
  return out;
}

export function countWrites(log: string): number {
  return writeRoutes(log).length;
}

export function served(
  url: string,
  token: string,
  home: string,
  writes: () => number,
  stop: () => Promise<void>,
  writeList: () => string[] = () => [],
): Served {
  const baseEnv = { SVC_URL: url, SVC_TOKEN: token, SVC_SITE: undefined, HOME: home, XDG_CONFIG_HOME: undefined };
  return {
    url,
    token,
    home,
    writes,
    writeList,
    async api(method, path, body, headers = {}) {
      const response = await fetch(`${url}${path.startsWith("/api/") ? path : `/api/site/1${path}`}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async page(path) {
      const response = await fetch(`${url}${path}`);
      return { status: response.status, text: await response.text() };
    },
    svc: (args, options = {}) => runSvc(args, { ...options, env: { ...baseEnv, ...options.env } }),
    stop,
  };
}

export function write(dir: string, key: string, text: string): void {
  mkdirSync(dirname(join(dir, key)), { recursive: true });
  writeFileSync(join(dir, key), text);
}

export function read(dir: string, key: string): string {
  return readFileSync(join(dir, key), "utf8");
}

/** The one JSON document a --json run printed. */
export function parseOne(run: Run): any {
  const lines = run.stdout.trim().split("\n");
  if (lines.length !== 1)
    throw new Error(
      `expected one JSON document on stdout, got ${lines.length} lines:\n${run.stdout}\nstderr: ${run.stderr}`,
    );
  return JSON.parse(lines[0]);
}

export interface InProcess {
  app: TestApp;
  t: Served;
  /** The status of every /api/ answer, in order. */
  statuses: number[];
}

/**
 * The app in this process on a loopback port (test/support/app.ts: its answers checked against the
 * OpenAPI document), for tests that need the service's limiter with a short window or a hook
 * between two calls of svc. `writes()` counts the API writes it answered.
 */
export async function inProcess(options: TestAppOptions = {}): Promise<InProcess> {
  const statuses: number[] = [];
  let writes = 0;
  const home = tempDir("svc-cli-home-");
  const app = await startTestApp({
    ...options,
    beforeReady(fastify: FastifyInstance) {
      fastify.addHook("onSend", async (request, reply) => {
        if (!request.url.startsWith("/api/")) return;
        statuses.push(reply.statusCode);
        if (!["GET", "HEAD", "OPTIONS"].includes(request.method)) writes++;
      });
      options.beforeReady?.(fastify);
    },
  });
  await app.app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.app.server.address() as { port: number };
  const t = served(
    `http://127.0.0.1:${port}`,
    app.adminToken,
    home,
    () => writes,
    async () => {
      await app.close();
      rmSync(home, { recursive: true, force: true });
    },
  );
  return { app, t, statuses };
}
