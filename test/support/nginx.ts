// Debian's nginx (nginx-light; .ci/run installs it) run by a test: found on the PATH or in
// /usr/sbin, with a main configuration that keeps everything under a throwaway prefix, in the
// foreground, on the ports the test's own configuration names.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The nginx binary, or null when it is not installed. */
export function findNginx(): string | null {
  for (const candidate of ["nginx", "/usr/sbin/nginx"]) {
    const probe = spawnSync(candidate, ["-v"], { stdio: "ignore" });
    if (!probe.error && probe.status === 0) return candidate;
  }
  return null;
}

/** A main nginx.conf for a throwaway prefix: everything under `dir`, in the foreground, including `include`. */
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
    log: () => log,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGQUIT");
      await exited;
    },
  };
}

/** nginx with `server` (an http-level configuration: server blocks, types) in a prefix of its own, removed when stopped. */
export function startNginx(nginx: string, server: string): RunningNginx {
  const dir = mkdtempSync(join(tmpdir(), "svc-nginx-"));
  // When the test runs as root, nginx's workers run as an unprivileged user: they must reach the temp folders.
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, "temp"));
  writeFileSync(join(dir, "site.conf"), server);
  writeFileSync(join(dir, "nginx.conf"), mainConfig(dir, join(dir, "site.conf")));
  const running = runNginx(nginx, dir);
  return {
    log: running.log,
    async stop() {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** runNginx, then waits (up to 5 s) until `probe` (a request through it) answers 200; throws with nginx's log if it never does. */
export async function runNginxServing(
  nginx: string,
  dir: string,
  probe: () => Promise<{ status: number }>,
): Promise<RunningNginx> {
  const running = runNginx(nginx, dir);
  for (let attempt = 0; attempt < 100; attempt++) {
    const status = await probe().then(
      (reply) => reply.status,
      () => 0,
    );
    if (status === 200) return running;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await running.stop();
  throw new Error(`nginx did not come up: ${running.log()}`);
}
