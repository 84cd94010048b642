// Source patches the build applies to dependencies as it bundles them into dist/server.cjs
// (scripts/build.mjs), for a faster cold start (bench/README.md, "Cold start"). Each one removes
// start-up work the service never needs and changes nothing a request can observe. One is left:
//
// - fastify/lib/server.js requires node:https and node:http2 at its top, which loads Node's TLS
//   and HTTP/2 stacks for a service that serves plain HTTP/1.1. The patch loads each one when
//   Fastify first uses it (an https or http2 server being made).
//
// What each saves of a start is measured by bench/patch-savings.ts (docs/architecture.md, "The
// build patches one dependency"); a patch that saves under 10 ms is dropped. Three were, all of
// find-my-way: static path segments matched with String#startsWith instead of a compiled function
// each, and a route's parameters builder and constraint matcher compiled at first use.
// docs/dependency-patches.md describes each for its maintainers.
//
// Each patch replaces one exact text. When an update of the dependency changes that text the
// build stops with a message naming the patch, so no patch is ever dropped or misapplied
// silently: review it against the new source, then adjust or remove it. package.json pins the
// patched packages (overrides), so an install does not bring such an update unasked.
// test/build/dependency-patches.test.ts checks that every patch applies to the installed version
// and that the patched Fastify still makes an HTTP/2 server, test/process/startup.test.ts that a
// start loads neither module. SVC_BUILD_PATCHES=0 builds without them (chosenPatches, below).
import { readFileSync } from "node:fs";

export const PATCHES = [
  {
    id: "fastify-lazy-tls",
    name: "fastify: https and http2 loaded on first use",
    file: "fastify/lib/server.js",
    find: "const https = require('node:https')\nconst http2 = require('node:http2')\n",
    replace:
      "// (svc build, scripts/dependency-patches.mjs: loaded when first used)\n" +
      "const https = new Proxy({}, { get: (_, key) => require('node:https')[key] })\n" +
      "const http2 = new Proxy({}, { get: (_, key) => require('node:http2')[key] })\n",
  },
];

const normalised = (path) => path.replaceAll("\\", "/");

/** The patches (of `chosen`) for a file of node_modules (an absolute path), if any. */
function patchesFor(path, chosen) {
  return chosen.filter((patch) => normalised(path).endsWith(`/node_modules/${patch.file}`));
}

/** A dependency file's source with its patches applied; throws when a patch's text is not found exactly once. */
export function patchedSource(path, chosen = PATCHES) {
  let source = readFileSync(path, "utf8");
  for (const patch of patchesFor(path, chosen)) {
    const found = source.split(patch.find).length - 1;
    if (found !== 1) {
      throw new Error(
        `dependency patch "${patch.name}": its text occurs ${found} times in ${path}, not once; the dependency has changed: ` +
          "review the patch in scripts/dependency-patches.mjs against the new source",
      );
    }
    source = source.replace(patch.find, () => patch.replace);
  }
  return source;
}

const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * The patches a build applies, from SVC_BUILD_PATCHES: unset (or "1") all of them, "0" none (a
 * build of the dependencies as installed, which the whole suite must pass too), or a comma list of
 * patch ids, only those (what bench/patch-savings.ts builds to measure each one).
 */
export function chosenPatches(setting = process.env.SVC_BUILD_PATCHES) {
  if (setting === undefined || setting === "" || setting === "1") return PATCHES;
  if (setting === "0") return [];
  const ids = setting.split(",").map((id) => id.trim());
  const unknown = ids.filter((id) => !PATCHES.some((patch) => patch.id === id));
  if (unknown.length > 0) {
    throw new Error(
      `SVC_BUILD_PATCHES: no patch ${unknown.join(", ")}; it takes 0, 1 or a comma list of ${PATCHES.map((patch) => patch.id).join(", ")}`,
    );
  }
  return PATCHES.filter((patch) => ids.includes(patch.id));
}

const BANNER = "// dependency patches (scripts/dependency-patches.mjs):";

/** The first line of a bundle built with `chosen`: the ids of its patches, or "none". */
export function patchesBanner(chosen) {
  return `${BANNER} ${chosen.map((patch) => patch.id).join(", ") || "none"}`;
}

/** The ids of the patches a bundle (its text) was built with, from its first line; null when it has no such line. */
export function patchesOfBundle(text) {
  const firstLine = text.slice(0, text.indexOf("\n"));
  if (!firstLine.startsWith(BANNER)) return null;
  const ids = firstLine.slice(BANNER.length).trim();
  return ids === "none" ? [] : ids.split(", ");
}

/**
 * `plugins`, the esbuild plugins that bundle the patched files in place of the installed ones
 * (none when no patch is chosen); `unapplied()` names the patched files the build never loaded (a
 * bundle that no longer includes them, or a moved file), which the build treats as an error too.
 */
export function dependencyPatches(chosen = PATCHES) {
  const files = [...new Set(chosen.map((patch) => patch.file))];
  const loaded = new Set();
  const unapplied = () => files.filter((file) => !loaded.has(file));
  if (files.length === 0) return { plugins: [], unapplied };
  const filter = new RegExp(
    `[\\\\/]node_modules[\\\\/](${files.map((file) => escaped(file).replaceAll("\\/", "[\\\\/]")).join("|")})$`,
  );
  const plugin = {
    name: "dependency-patches",
    setup(build) {
      build.onLoad({ filter }, (args) => {
        const contents = patchedSource(args.path, chosen);
        for (const patch of patchesFor(args.path, chosen)) loaded.add(patch.file);
        return { contents, loader: "js" };
      });
    },
  };
  return { plugins: [plugin], unapplied };
}
