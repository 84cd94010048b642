// Several real service processes on one fresh PostgreSQL database, and plain HTTP calls to them
// (node:http, so a test may set any Host header). Loopback only.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serviceDatabase, startService, type Running } from "../support/process.ts";
import type { TestDatabase } from "../support/database.ts";
import { generateToken } from "../../src/tokens.ts";

export const SITE = "/api/site/1";

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** Raw bytes sent as they are (a file upload), with the `content-type` of `headers`. */
  payload?: Buffer;
  headers?: Record<string, string>;
  /** The Host header; default `localhost`. */
  host?: string;
}

/** One HTTP call to 127.0.0.1:port. */
export function call(port: number, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { host: options.host ?? "localhost", ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const payload = options.body === undefined ? options.payload : JSON.stringify(options.body);
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (payload !== undefined) headers["content-length"] = String(Buffer.byteLength(payload));
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path, headers, agent: false }, (res) =>
      replyOf(res).then(resolve, reject),
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** An answer read whole: its status, headers, text, and body when the text is JSON. */
export function replyOf(res: IncomingMessage): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on("data", (chunk) => chunks.push(chunk));
    res.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
    });
    res.on("error", reject);
  });
}

/** Retries `read` until `done` holds, a bounded number of times; answers the last reading. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  tries = 50,
  pauseMs = 20,
): Promise<T> {
  let value = await read();
  for (let i = 1; i < tries && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    value = await read();
  }
  return value;
}

export interface Cluster {
  token: string;
  processes: Running[];
  database: TestDatabase;
  close(): Promise<void>;
}

/** Starts `n` processes at once on one empty database, sharing DATABASE_URL and SVC_ADMIN_TOKEN. */
export async function startCluster(n: number, env: Record<string, string> = {}): Promise<Cluster> {
  const { env: dbEnv, database } = await serviceDatabase();
  const token = generateToken();
  const dirs = Array.from({ length: n }, () => mkdtempSync(join(tmpdir(), "svc-cluster-")));
  // The public limit (600 a minute per address by default) would trip tests that read many pages from 127.0.0.1.
  const started = await Promise.allSettled(
    dirs.map((dir) =>
      startService({
        ...dbEnv,
        SVC_ADMIN_TOKEN: token,
        SVC_DATA_DIR: dir,
        SVC_PUBLIC_RATE_LIMIT_PER_MIN: "10000000",
        ...env,
      }),
    ),
  );
  const processes = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const close = async () => {
    for (const p of processes) await p.stop();
    await database.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  const failed = started.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) {
    await close();
    throw failed.reason;
  }
  return { token, processes, database, close };
}
