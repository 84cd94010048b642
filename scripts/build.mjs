// `npm run build`, second step (after `tsc --noEmit -p tsconfig.build.json`, the type check):
// bundles src/ into dist/ with esbuild, what `npm start` runs (`node dist/main.js`).
//
// Two files, for a fast cold start (bench/README.md, "Cold start"):
// - dist/main.js, the entry (src/main.ts): turns on V8's compile cache, then imports
// - dist/server.js: the service and the packages it uses in one ES module, so a start reads one
//   file instead of about a thousand, and later starts take its compiled code from the cache.
// Kept out of the bundle, loaded from node_modules at run time: better-sqlite3 (a native addon)
// and pg (loaded only on PostgreSQL; its optional pg-native with it). Source maps sit beside
// each file (`node --enable-source-maps dist/main.js` maps stack traces to src/, but slows the
// start by about 200 ms).
//
// A file whose bytes did not change is not rewritten, and a changed one is replaced in one step
// (rename), so a build while another test run starts dist/main.js leaves it a whole file to
// start. Whatever else is in dist/ (an older build's output) is removed.
import { build } from "esbuild";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "dist");

const result = await build({
  absWorkingDir: ROOT,
  entryPoints: ["src/main.ts", "src/server.ts"],
  outdir: "dist",
  bundle: true,
  // With two entries, main.ts's `import("./server.ts")` stays a dynamic import of dist/server.js.
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node24",
  external: ["better-sqlite3", "pg"],
  sourcemap: true,
  // The bundled CommonJS packages call require() for Node's built-ins and the external packages.
  banner: { js: 'const require = process.getBuiltinModule("node:module").createRequire(import.meta.url);' },
  write: false,
  logLevel: "warning",
});

mkdirSync(DIST, { recursive: true });
const built = new Set();
for (const file of result.outputFiles) {
  const name = relative(DIST, file.path);
  built.add(name);
  let old = null;
  try {
    old = readFileSync(file.path);
  } catch {
    // not built before
  }
  if (old && Buffer.compare(old, file.contents) === 0) continue;
  const temporary = `${file.path}.${process.pid}.tmp`;
  writeFileSync(temporary, file.contents);
  renameSync(temporary, file.path);
}
for (const name of readdirSync(DIST)) {
  // (A `.tmp` file is another build's, about to be renamed.)
  if (!built.has(name) && !name.endsWith(".tmp")) rmSync(join(DIST, name), { recursive: true, force: true });
}
