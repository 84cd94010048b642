// Starts a build of the service (dist/main.js, or one built elsewhere with SVC_BUILD_DIR) as a
// child process on a free port, ready once /healthz answers 200, and sends it raw HTTP requests.
// Unlike test/support/process.ts it needs no log line to find the port, so the service may run
// with LOG_LEVEL=warn: a test that sends it thousands of requests does not collect a log line for
// each.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { Agent, request as httpRequest } from "node:http";
import { freePort } from "../support/ports.ts";

export const ROOT = new URL("../../", import.meta.url).pathname;

export interface RawRequest {
  method: string;
  /** Sent as is: no URL parsing or normalising on the way. */
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface Bundle {
  port: number;
  request(request: RawRequest): Promise<RawAnswer>;
  /** The last 20,000 characters the process wrote. */
  output(): string;
  /** Whether the process is still running. */
  running(): boolean;
  /** SIGTERM, then the exit code (SIGKILL after 10 s). */
  stop(): Promise<number | null>;
}

/** Starts `main` (a path from the checkout) with `env` added to this process's, on a free port. */
export async function startBundle(main: string, env: Record<string, string>, timeoutMs = 30_000): Promise<Bundle> {
  const port = await freePort();
  const child = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", ...env, HOST: "127.0.0.1", PORT: String(port) },
  });
  let output = "";
  const keep = (data: Buffer) => (output = (output + data).slice(-20_000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  const send = ({ method, url, headers = {}, payload }: RawRequest, through: Agent | false) =>
    new Promise<RawAnswer>((resolve, reject) => {
      // Its length, whatever the method (Node sends a GET's or HEAD's body without one, as inject does not).
      const length = payload === undefined ? {} : { "content-length": String(Buffer.byteLength(payload)) };
      const sent = httpRequest(
        { host: "127.0.0.1", port, method, path: url, headers: { ...length, ...headers }, agent: through },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString("utf8"),
            }),
          );
          response.on("error", reject);
        },
      );
      // A kept-alive connection the service closed as it was reused: the request never reached it.
      sent.on("error", (error) => reject(Object.assign(error, { reusedSocket: sent.reusedSocket })));
      sent.end(payload);
    });
  const request = (raw: RawRequest, through: Agent | false = agent) =>
    send(raw, through).catch((error: NodeJS.ErrnoException & { reusedSocket?: boolean }) => {
      if (error.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE")) return send(raw, false);
      throw error;
    });

  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${main} exited with ${child.exitCode}: ${output}`);
    if (performance.now() - started > timeoutMs) {
      child.kill("SIGKILL");
      throw new Error(`${main} did not answer /healthz within ${timeoutMs} ms: ${output}`);
    }
    const answer = await request({ method: "GET", url: "/healthz" }, false).catch(() => null);
    if (answer?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  return {
    port,
    request: (raw) => request(raw),
    output: () => output,
    running: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      agent.destroy();
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const [code] = await exited;
      clearTimeout(timer);
      return code as number | null;
    },
  };
}
