// `npm run build`, second step (after `tsc --noEmit -p tsconfig.build.json`, the type check):
// bundles src/ into dist/ with esbuild, what `npm start` runs (`node dist/main.js`).
//
// The entry and the service in two files, for a fast cold start (bench/README.md, "Cold start"):
// - dist/main.js, the entry (src/main.ts, an ES module): runs the service with a V8 code cache;
// - dist/server.cjs: the service (src/server.ts) and the packages it uses in one CommonJS file, so
//   a start reads one file instead of about a thousand. CommonJS because main.ts compiles it with
//   vm.Script to make the code cache; `import()` is turned into require() for the same reason.
// - dist/render-worker.cjs: the render worker's thread (publish/render-worker.ts), started by the
//   service for renders that outlast a slice of its own thread.
// - dist/css-worker.cjs: the CSS worker process (styles/css-worker.ts), started by the service for
//   stylesheet work: lightningcss and browserslist are loaded there only, never in the service.
// - dist/admin/: the admin's front end (admin/, docs/admin.md), built by scripts/admin-build.mjs:
//   index.html and hashed, minified ES modules and stylesheets with their brotli and gzip copies.
// - dist/docs/markup.md: the frame markup grammar, which the MCP server serves as the resource
//   svc://docs/markup (src/mcp/markup-resource.ts).
// - dist/cli.js: the `svc` command (src/cli/main.ts, docs/cli.md), the package's `bin`: one ES
//   module with its packages (commander, openapi-fetch) inside, executable. Built rather than run
//   from src/ because Node does not strip the types of files under node_modules, where an
//   installed package's bin lives.
// dist/main.js and dist/cli.js begin with scripts/check-node.cjs, so an older Node stops there
// with a message saying how to get Node 24.
// Kept out of the bundle, loaded from node_modules at run time: better-sqlite3, sharp and
// lightningcss (native addons; sharp finds its libvips binary package at run time, lightningcss
// its platform's binary package), pg (loaded only on PostgreSQL;
// its optional pg-native with it), @aws-sdk/client-s3 (loaded only when media go to S3) and
// @scalar/fastify-api-reference (about 5 MB, loaded on the first request for /api/docs) and
// @modelcontextprotocol/sdk (loaded on the first MCP call, docs/mcp.md). Source maps sit beside each file (`node --enable-source-maps
// dist/main.js` maps stack traces to src/, but slows the start by about 200 ms).
//
// SVC_BUILD_PATCHES=0 builds without the dependency patches (scripts/dependency-patches.mjs),
// SVC_BUILD_DIR=<folder> into another folder than dist/: one inside the checkout, where the
// bundles find the packages they leave in node_modules (test/build/unpatched-build.test.ts builds
// both ways; bench/patch-savings.ts measures what each patch saves of a start).
//
// A file whose bytes did not change is not rewritten, and a changed one is replaced in one step
// (rename), so a build while another test run starts dist/main.js leaves it a whole file to
// start. Whatever else is in dist/ (an older build's output) is removed (scripts/build-output.mjs).
import { build } from "esbuild";
import { mkdirSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chosenPatches, dependencyPatches, patchesBanner } from "./dependency-patches.mjs";
import { asciiSource } from "./ascii-source.mjs";
import { adminFiles } from "./admin-build.mjs";
import { writeOutput } from "./build-output.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = resolve(ROOT, process.env.SVC_BUILD_DIR || "dist");
if (relative(ROOT, DIST).startsWith("..") || isAbsolute(relative(ROOT, DIST))) {
  throw new Error(
    `SVC_BUILD_DIR ${DIST} is outside ${ROOT}: the bundles would not find the packages left in its node_modules`,
  );
}
const out = (name) => join(DIST, name);

// Checks the running Node before anything else of an entry runs (scripts/check-node.cjs).
const CHECK_NODE = readFileSync(join(ROOT, "scripts/check-node.cjs"), "utf8");

const common = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: "node",
  target: "node24",
  sourcemap: true,
  write: false,
  logLevel: "warning",
};
// Two dependencies are bundled with small patches that take work off every start
// (scripts/dependency-patches.mjs); the build stops if one no longer applies.
const chosen = chosenPatches();
if (chosen.length === 0) process.stderr.write("build: without dependency patches (SVC_BUILD_PATCHES=0)\n");
const patches = dependencyPatches(chosen);
// The admin's front end (admin/, TSX with Preact) into dist/admin/, built beside the service.
const adminBuild = adminFiles(ROOT, out("admin"));
const results = await Promise.all([
  build({
    ...common,
    entryPoints: ["src/main.ts"],
    outfile: out("main.js"),
    format: "esm",
    banner: { js: CHECK_NODE },
  }),
  build({
    ...common,
    entryPoints: ["src/server.ts"],
    outfile: out("server.cjs"),
    format: "cjs",
    external: [
      "better-sqlite3",
      "sharp",
      "lightningcss",
      "pg",
      "@aws-sdk/client-s3",
      "@scalar/fastify-api-reference",
      "@modelcontextprotocol/sdk",
    ],
    supported: { "dynamic-import": false },
    plugins: patches.plugins,
    // What the bundle was built with, for the tests that check a patch's effect on a start.
    banner: { js: patchesBanner(chosen) },
    // publish/render-pool.ts finds the worker with __dirname in the build, import.meta.url in src/.
    logOverride: { "empty-import-meta": "silent" },
  }),
  // The render worker (publish/render-worker.ts), started by dist/server.cjs from beside it.
  build({ ...common, entryPoints: ["src/publish/render-worker.ts"], outfile: out("render-worker.cjs"), format: "cjs" }),
  // The CSS worker process (styles/css-worker.ts), forked by dist/server.cjs from beside it.
  build({
    ...common,
    entryPoints: ["src/styles/css-worker.ts"],
    outfile: out("css-worker.cjs"),
    format: "cjs",
    external: ["lightningcss"],
  }),
  // The svc command. commander is CommonJS and requires Node's modules, which an ES module bundle
  // can only do through a require made with createRequire (the banner, after main.ts's #! line).
  build({
    ...common,
    entryPoints: ["src/cli/main.ts"],
    outfile: out("cli.js"),
    format: "esm",
    // svc backup and svc restore (src/backup/) load it, on first use only: a native addon.
    external: ["better-sqlite3"],
    banner: {
      js: `${CHECK_NODE}import { createRequire as __svcCreateRequire } from "node:module";\nconst require = __svcCreateRequire(import.meta.url);`,
    },
  }),
]);
const adminOutput = await adminBuild;
if (patches.unapplied().length > 0) {
  throw new Error(
    `dependency patches for ${patches.unapplied().join(", ")} were never applied: the bundle no longer loads those files (scripts/dependency-patches.mjs)`,
  );
}
const EXECUTABLE = new Set(["cli.js"]);
// The service's bundle in ASCII only, which Node reads and V8 compiles faster
// (scripts/ascii-source.mjs; on the few lines with an escaped character, the source map's columns
// after it are off by the escape's length).
const ASCII = new Set(["server.cjs"]);
const outputFiles = results.flatMap((result) =>
  result.outputFiles.map((file) => {
    const name = relative(DIST, file.path);
    return {
      path: file.path,
      contents: ASCII.has(name) ? Buffer.from(asciiSource(file.text), "latin1") : file.contents,
    };
  }),
);

mkdirSync(DIST, { recursive: true });
const markupDoc = { path: out("docs/markup.md"), contents: readFileSync(join(ROOT, "docs/markup.md")) };
writeOutput(DIST, [...outputFiles, ...adminOutput, markupDoc], (path) => EXECUTABLE.has(relative(DIST, path)));
