// `npm run lint:api`: the OpenAPI document the service serves, linted with @redocly/cli (its
// recommended rules, tuned in redocly.yaml with the reasons in docs/api-reference.md). The app is
// built on a throwaway store (scripts/openapi-document.ts), the document written to a temporary
// file and linted; the exit status is redocly's (1 on any error; warnings are printed only).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openApiDocument } from "./openapi-document.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "svc-lint-api-"));
try {
  const file = join(dir, "openapi.json");
  writeFileSync(file, JSON.stringify(await openApiDocument(), null, 2));
  const cli = join(ROOT, "node_modules", "@redocly", "cli", "bin", "cli.js");
  const result = spawnSync(
    process.execPath,
    [cli, "lint", file, "--config", join(ROOT, "redocly.yaml"), "--format", "codeframe"],
    {
      stdio: "inherit",
      // No usage report or update check: CI has no network but the package registry.
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    },
  );
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
