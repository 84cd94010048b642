// An older commit of the service built in a temporary git worktree, so a group can start it as a
// real process next to this checkout's build (`startService(…, { root })`) and compare the same
// writes on both: the revisions group against the commit before revisions, the webhooks group
// against the commit before events, bench/request-cpu.ts against any commit.
//
// The commit is checked out with `git worktree add --detach` in a temporary folder, this checkout's
// node_modules linked into it, and built there with its own scripts/build.mjs (what its `npm run
// build` does, without the type check). `remove` takes the worktree away again; the callers call it
// in a `finally`, so it goes also when the run fails.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./lib.ts";

function git(args: string[], cwd = ROOT): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** The commit `base` checked out and built in a temporary worktree; `remove` takes it away again. */
export function baselineTree(
  log: (message: string) => void,
  base: string,
): { root: string; commit: string; remove(): void } {
  const commit = git(["rev-parse", "--verify", `${base}^{commit}`]);
  const folder = mkdtempSync(join(tmpdir(), "bench-base-"));
  const root = join(folder, "tree");
  const remove = () => {
    try {
      if (existsSync(root)) git(["worktree", "remove", "--force", root]);
    } catch (error) {
      log(`baseline: git worktree remove ${root}: ${error instanceof Error ? error.message : String(error)}`);
    }
    // (Were the removal to fail, `git worktree prune` clears the entry once the folder is gone.)
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    git(["worktree", "add", "--detach", root, commit]);
    symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"), "dir");
    if (!existsSync(join(root, "scripts/build.mjs"))) throw new Error(`${base} has no scripts/build.mjs`);
    // What its `npm run build` does, without the type check.
    execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  } catch (error) {
    remove();
    throw error;
  }
  return { root, commit, remove };
}
