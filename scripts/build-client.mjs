// Builds the package @site-builder/client (packages/client, an npm workspace) from the typed client's
// source, src/client/ (docs/client.md), into packages/client/dist/: what a project outside the
// checkout installs from the tarball `npm pack -w packages/client` makes (this is the workspace's
// `prepack`).
//
// - dist/index.js: src/client/index.ts and the files it imports in one ES module; openapi-fetch, the
//   package's one dependency, stays an import.
// - dist/*.d.ts: the declarations tsc emits for those files (packages/client/tsconfig.json), and
//   src/client/schema.d.ts (the types `npm run client:types` generates) copied beside them. Their
//   imports name the source's .ts files; they are rewritten to the .js names a project's TypeScript
//   resolves to the .d.ts beside them.
//
// The service's checkout keeps using src/client/ itself (the CLI, the admin, the tests), so nothing
// there waits for this build or goes stale with it.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PACKAGE = join(ROOT, "packages/client");
const DIST = join(PACKAGE, "dist");

rmSync(DIST, { recursive: true, force: true });
await build({
  absWorkingDir: ROOT,
  entryPoints: ["src/client/index.ts"],
  outfile: join(DIST, "index.js"),
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node24",
  logLevel: "warning",
});
execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(PACKAGE, "tsconfig.json")], {
  stdio: "inherit",
});
copyFileSync(join(ROOT, "src/client/schema.d.ts"), join(DIST, "schema.d.ts"));

/** `from "./pacing.ts"` → `from "./pacing.js"`, `from "./schema.d.ts"` → `from "./schema.js"`. */
function declarationImports(text) {
  return text.replace(/(from\s+["']\.{1,2}\/[^"']+?)(?:\.d)?\.ts(["'])/g, "$1.js$2");
}

for (const name of readdirSync(DIST)) {
  if (!name.endsWith(".d.ts")) continue;
  const file = join(DIST, name);
  writeFileSync(file, declarationImports(readFileSync(file, "utf8")));
}
