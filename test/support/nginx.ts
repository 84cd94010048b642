// nginx for tests that put it in front of the service (Debian's nginx-light): found on the PATH,
// run in the foreground under a throwaway prefix, with a docs/ example as its `http` block.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";

/** The nginx binary, or null when it is not installed. */
export function findNginx(): string | null {
  for (const candidate of ["nginx", "/usr/sbin/nginx"]) {
    const probe = spawnSync(candidate, ["-v"], { stdio: "ignore" });
    if (!probe.error && probe.status === 0) return candidate;
  }
  return null;
}

/** A main nginx.conf for a throwaway prefix: everything under `dir`, in the foreground, including the example. */
export function mainConfig(dir: string, include: string): string {
  return [
    "daemon off;",
    "worker_processes 1;",
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    "events { worker_connections 256; }",
    "http {",
    `  access_log ${dir}/access.log;`,
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `  ${kind}_temp_path ${dir}/temp/${kind};`),
    `  include ${include};`,
    "}",
    "",
  ].join("\n");
}

export interface RunningNginx {
  child: ChildProcess;
  log(): string;
  stop(): Promise<void>;
}

/** Checks `dir/nginx.conf` (`nginx -t`, which throws with its complaint) and runs it. */
export function runNginx(nginx: string, dir: string): RunningNginx {
  const args = ["-c", join(dir, "nginx.conf"), "-p", dir, "-e", join(dir, "error.log")];
  const test = spawnSync(nginx, ["-t", ...args], { encoding: "utf8" });
  if (test.status !== 0) throw new Error(`nginx -t: ${test.stderr}`);
  const child = spawn(nginx, args, { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  return {
    child,
    log: () => log,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGQUIT");
      await exited;
    },
  };
}
