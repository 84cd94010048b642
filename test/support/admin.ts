// The admin's build for tests that serve it from src/: built once per test process, with the
// build's own module (scripts/admin-build.mjs), into a temporary folder the app is pointed at
// (BuildOptions.adminDir), so they need no `npm run build` and never read dist/.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// @ts-expect-error a build script (plain JavaScript), typed here by its use
import { buildAdmin } from "../../scripts/admin-build.mjs";
import { startTestApp, type TestApp, type TestAppOptions } from "./app.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

let built: Promise<string> | null = null;

/** The folder of the admin built for this process (removed when it exits). */
export function builtAdmin(): Promise<string> {
  built ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-admin-build-"));
    process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
    await buildAdmin(ROOT, dir);
    return dir;
  })();
  return built;
}

/** startTestApp serving the admin built for this process. */
export async function startAdminApp(options: TestAppOptions = {}): Promise<TestApp> {
  return startTestApp({ ...options, build: { ...options.build, adminDir: await builtAdmin() } });
}
