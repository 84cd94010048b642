// `svc dev` as a process for the tests (the built dist/cli.js against a served service): started
// on a free port, its stdout read line by line until it says where it serves.
import { spawn, type ChildProcess } from "node:child_process";
import { CLI, type Served } from "./harness.ts";

export interface DevProcess {
  child: ChildProcess;
  /** Every stdout line so far: parsed documents with --json, else text. */
  lines: any[];
  stderr: string[];
  /** The first line that `serving` says, parsed (--json) or as printed. */
  serving: any;
}

/** Starts `svc dev <dir> --port 0 <args>` and waits for its serving line. */
export async function startDev(t: Served, dir: string, args: string[]): Promise<DevProcess> {
  const json = args.includes("--json");
  const child = spawn(process.execPath, [CLI, "dev", dir, "--port", "0", ...args], {
    env: { ...process.env, SVC_URL: t.url, SVC_TOKEN: t.token, HOME: t.home },
  });
  const lines: any[] = [];
  const stderr: string[] = [];
  let buffer = "";
  child.stdout!.on("data", (chunk) => {
    buffer += chunk;
    for (let cut = buffer.indexOf("\n"); cut !== -1; cut = buffer.indexOf("\n")) {
      const line = buffer.slice(0, cut);
      lines.push(json ? JSON.parse(line) : line);
      buffer = buffer.slice(cut + 1);
    }
  });
  child.stderr!.on("data", (chunk) => stderr.push(String(chunk)));
  const isServing = (l: any) => (json ? l.event === "serving" : String(l).startsWith("serving "));
  for (let i = 0; i < 200 && !lines.some(isServing); i++) await new Promise((r) => setTimeout(r, 50));
  const serving = lines.find(isServing);
  if (!serving) {
    child.kill("SIGKILL");
    throw new Error(`svc dev printed no serving line: ${stderr.join("")}`);
  }
  return { child, lines, stderr, serving };
}
