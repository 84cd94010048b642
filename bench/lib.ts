// What the benchmark scenarios share: the service as a real process, an API client, the load
// generator and the bare baseline server (each in a process of its own), and the result shape.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { request as httpRequest, Agent } from "node:http";
import { join } from "node:path";
import { freePort } from "../test/support/ports.ts";

export const ROOT = new URL("../", import.meta.url).pathname;
export const ADMIN_TOKEN = `op_${"b3nch".repeat(12)}${"x".repeat(4)}`;

export interface Result {
  name: string;
  value: number;
  unit: string;
  baseline: number;
  ratio: number;
  target: string;
  pass: boolean;
}

export const round = (n: number, digits = 2) => Number(n.toFixed(digits));
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export { freePort };

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One HTTP request over a keep-alive connection; no timeout (a full rebake may take a while). */
export function http(
  port: number,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer; fresh?: boolean; agent?: Agent } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        headers: options.headers,
        agent: options.fresh ? false : (options.agent ?? agent),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

export interface Service {
  child: ChildProcess;
  port: number;
  pid: number;
  dataDir: string;
  /** Milliseconds from spawn to the first 200 on /healthz. */
  startMs: number;
  stop(): Promise<void>;
  stderr(): string;
}

/** Polls /healthz every few milliseconds until it answers 200; resolves with the time it took. */
async function untilHealthy(
  port: number,
  child: ChildProcess,
  t0: number,
  timeoutMs: number,
  output: () => string,
): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}: ${output()}`);
    if (performance.now() - t0 > timeoutMs)
      throw new Error(`service did not answer /healthz within ${timeoutMs} ms: ${output()}`);
    try {
      const answer = await http(port, "GET", "/healthz", { fresh: true });
      if (answer.status === 200) return performance.now() - t0;
    } catch {
      // not listening yet
    }
    await sleep(5);
  }
}

/**
 * Starts `node dist/main.js` (what `npm start` runs; `npm run bench` builds it first) on a data directory of its own.
 * `options.root`: the checkout whose build runs (default this one; the revisions group starts an older commit's).
 */
export async function startService(
  dataDir: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
  options: { root?: string } = {},
): Promise<Service> {
  const root = options.root ?? ROOT;
  if (!existsSync(join(root, "dist/main.js")))
    throw new Error(`${join(root, "dist/main.js")} is missing: run \`npm run build\` first`);
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, "dist/main.js"], {
    cwd: root,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      SVC_DATA_DIR: dataDir,
      SVC_ADMIN_TOKEN: ADMIN_TOKEN,
      // The load of the throughput scenarios would trip the default 120 requests a minute.
      SVC_RATE_LIMIT_PER_MIN: "10000000",
      // and the public site's default 600 a minute per address.
      SVC_PUBLIC_RATE_LIMIT_PER_MIN: "10000000",
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output = (output + d).slice(-20_000)));
  child.stderr!.on("data", (d) => (output = (output + d).slice(-20_000)));
  const startMs = await untilHealthy(port, child, t0, 60_000, () => output);
  return {
    child,
    port,
    pid: child.pid!,
    dataDir,
    startMs,
    stderr: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resident set size (and its peak) of a process, in MiB, from /proc. */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
}

/** CPU time (user + system) a process has used so far, in milliseconds (from /proc; 10 ms ticks). */
export function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** A JSON API client with the admin token. Throws on an unexpected status. */
export class Api {
  /** `agent`: the connections its calls take (default the bench's shared pool of four). */
  constructor(
    readonly port: number,
    private readonly token = ADMIN_TOKEN,
    private readonly agent?: Agent,
  ) {}

  async call(method: string, path: string, body?: unknown, expect: number[] = [200, 201]): Promise<any> {
    return (await this.send(method, path, body, expect)).json;
  }

  /** One call: its parsed body and the answer's headers (`x-request-id`…). Throws on an unexpected status. */
  async send(
    method: string,
    path: string,
    body?: unknown,
    expect: number[] = [200, 201],
  ): Promise<{ json: any; headers: Answer["headers"] }> {
    const answer = await http(this.port, method, path, {
      agent: this.agent,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = answer.body.toString("utf8");
    if (!expect.includes(answer.status)) throw new Error(`${method} ${path}: ${answer.status} ${text.slice(0, 500)}`);
    return { json: text === "" ? null : JSON.parse(text), headers: answer.headers };
  }

  /** Wall-clock milliseconds of one call. */
  async timed(method: string, path: string, body?: unknown): Promise<{ ms: number; answer: any }> {
    const t0 = performance.now();
    const answer = await this.call(method, path, body);
    return { ms: performance.now() - t0, answer };
  }
}

export interface LoadResult {
  rps: number;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  bytesPerSec: number;
}

export interface LoadOptions {
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  /** GET when absent. */
  method?: string;
  /** A file whose bytes are every request's body (uploads). */
  bodyFile?: string;
}

/** One autocannon run from a second process. */
export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  const child = spawn(process.execPath, [join(ROOT, "bench/load.mjs"), JSON.stringify({ url, ...options })], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  const [code] = await once(child, "exit");
  if (code !== 0) throw new Error(`load generator exited with ${code}`);
  const result = JSON.parse(out.trim().split("\n").pop()!) as LoadResult;
  if (result.errors > 0 || result.non2xx > 0)
    throw new Error(`load run on ${url} had ${result.errors} errors and ${result.non2xx} non-2xx answers`);
  return result;
}

/** Headers that belong to the connection or the moment, not to the answer: node:http writes its own. */
const PER_CONNECTION = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

/** A bare server of bench/ (`script` with its `args`) in a process of its own, once it says on which port it listens. */
export async function startBareProcess(
  script: string,
  args: string[],
): Promise<{ port: number; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(ROOT, "bench", script), ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.on("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return {
    port,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Starts the bare node:http server answering exactly this recorded answer. */
export async function startBare(
  answer: Answer,
  file: string,
): Promise<{ port: number; pid: number; stop(): Promise<void> }> {
  const headers: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(answer.headers))
    if (value !== undefined && !PER_CONNECTION.has(key)) headers[key] = value;
  writeFileSync(file, JSON.stringify({ status: answer.status, headers, body_base64: answer.body.toString("base64") }));
  return startBareProcess("bare-server.mjs", [file]);
}

export interface Comparison {
  service: LoadResult;
  bare: LoadResult;
  /** Median over the rounds of service throughput / bare throughput. */
  ratio: number;
}

/**
 * Throughput of the service against the bare server under the same settings: a warm-up run on
 * each, then `rounds` pairs of runs, the order alternating (service first, then bare first).
 * The ratio is the median of the pairs' ratios, so a burst of other load on the machine moves
 * one pair, not the result; the runs reported are those of the median pair.
 */
export async function compare(
  serviceUrl: string,
  bareUrl: string,
  options: LoadOptions & { rounds: number; warmup: number },
): Promise<Comparison> {
  await load(serviceUrl, { ...options, duration: options.warmup });
  await load(bareUrl, { ...options, duration: options.warmup });
  const pairs: Array<{ service: LoadResult; bare: LoadResult; ratio: number }> = [];
  for (let i = 0; i < options.rounds; i++) {
    let s: LoadResult;
    let b: LoadResult;
    if (i % 2 === 0) {
      s = await load(serviceUrl, options);
      b = await load(bareUrl, options);
    } else {
      b = await load(bareUrl, options);
      s = await load(serviceUrl, options);
    }
    pairs.push({ service: s, bare: b, ratio: s.rps / b.rps });
  }
  pairs.sort((x, y) => x.ratio - y.ratio);
  return pairs[Math.floor(pairs.length / 2)];
}
