// dependency-cruiser with the project's rules (.dependency-cruiser.cjs), for the layer tests: on
// the real src/, or on a small src/ tree written for one test (test/architecture.test.ts,
// test/client/layers.test.ts, test/cli/layers.test.ts).
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = new URL("../../", import.meta.url).pathname;
const DEPCRUISE = join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs");

/** Cruises `src` under `cwd` with the config there: exit status and the rules' report. */
export function cruise(cwd: string): { status: number | null; output: string } {
  const run = spawnSync(
    process.execPath,
    [DEPCRUISE, "src", "--config", ".dependency-cruiser.cjs", "--output-type", "err"],
    { cwd, encoding: "utf8" },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** The project's config and tsconfig around a small src/ tree (path → text), cruised, then removed. */
export function cruiseTree(files: Record<string, string>): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), "svc-layers-"));
  cpSync(join(ROOT, ".dependency-cruiser.cjs"), join(dir, ".dependency-cruiser.cjs"));
  cpSync(join(ROOT, "tsconfig.json"), join(dir, "tsconfig.json"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  try {
    return cruise(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
