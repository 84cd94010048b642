// The admin's build (docs/admin.md), called by scripts/build.mjs for dist/admin/ and by tests for a
// folder of their own (`buildAdmin`). esbuild bundles admin/main.tsx (Preact, TSX) for browsers:
// ES modules split into chunks where the admin loads code later, minified, every file named by its
// content hash (`main-<hash>.js`, `main-<hash>.css`) under `assets/`, so the service can let
// browsers keep them for a year (src/admin/routes.ts). Beside every asset its brotli (`.br`) and
// gzip (`.gz`) copy, made once here at the highest levels rather than on each request. index.html
// names the entry, its stylesheet and the chunks it imports at once; it holds no inline script or
// style, which the admin's Content-Security-Policy would refuse.
import { basename, join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { build } from "esbuild";
import { ASSETS_ADDRESS } from "../src/admin/paths.ts";
import { writeOutput } from "./build-output.mjs";

export const ADMIN_ENTRY = "admin/main.tsx";

/** The browsers the admin is built for: those of the last few years (ES2022 and CSS nesting as written). */
const TARGET = ["chrome111", "edge111", "firefox114", "safari16.4"];

function brotli(bytes) {
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

const escapeHtml = (text) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** The page that loads the admin; `lang` is set again by the script to the language chosen. */
function indexHtml({ script, style, preload }) {
  const href = (name) => escapeHtml(ASSETS_ADDRESS + name);
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    "<title>Admin</title>",
    // No favicon request: the admin has none.
    '<link rel="icon" href="data:,">',
    ...(style ? [`<link rel="stylesheet" href="${href(style)}">`] : []),
    ...preload.map((name) => `<link rel="modulepreload" href="${href(name)}">`),
    `<script type="module" src="${href(script)}"></script>`,
    "</head>",
    "<body>",
    '<div id="app"></div>',
    "<noscript>The admin needs JavaScript.</noscript>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/**
 * The admin's files for `outDir`, not written: every asset with its `.br` and `.gz` copies, then
 * index.html. `root` is the checkout (where admin/ and node_modules are).
 */
export async function adminFiles(root, outDir) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [ADMIN_ENTRY],
    outdir: join(outDir, "assets"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: TARGET,
    minify: true,
    // The bundled packages' licence comments (DOMPurify's) go to a .LEGAL.txt file beside each
    // bundle, kept and served with it, rather than inside the code every page loads.
    legalComments: "external",
    jsx: "automatic",
    jsxImportSource: "preact",
    entryNames: "[name]-[hash]",
    chunkNames: "[name]-[hash]",
    assetNames: "[name]-[hash]",
    metafile: true,
    write: false,
    logLevel: "warning",
  });
  const outputs = result.metafile.outputs;
  const entryKey = Object.keys(outputs).find((key) => outputs[key].entryPoint === ADMIN_ENTRY);
  const entry = outputs[entryKey];
  const html = indexHtml({
    script: basename(entryKey),
    style: entry.cssBundle && basename(entry.cssBundle),
    preload: entry.imports.filter((use) => use.kind === "import-statement").map((use) => basename(use.path)),
  });
  const files = result.outputFiles.flatMap((file) => [
    { path: file.path, contents: file.contents },
    { path: `${file.path}.br`, contents: brotli(file.contents) },
    { path: `${file.path}.gz`, contents: gzipSync(file.contents, { level: constants.Z_BEST_COMPRESSION }) },
  ]);
  return [...files, { path: join(outDir, "index.html"), contents: Buffer.from(html, "utf8") }];
}

/** Builds the admin into `outDir` (its own folder: whatever else is in it is removed). */
export async function buildAdmin(root, outDir) {
  writeOutput(outDir, await adminFiles(root, outDir));
}
