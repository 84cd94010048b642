// Process entry of the build (`npm start`: `node dist/main.js`; `npm run dev` runs src/server.ts
// through tsx instead). It runs the service, bundled by `npm run build` into dist/server.cjs, with
// V8 code cache made after start-up, so a later start compiles almost nothing (bench/README.md,
// "Cold start").
//
// Why not only Node's compile cache: Node writes its cache when it first compiles a file, before
// running it, so it holds the top level of each module but not the functions V8 compiles lazily
// as they are first called (most of a start's compiling). Here the bundle is compiled with
// vm.Script, as Node's CommonJS loader would, and once the service has answered its first request
// `script.createCachedData()` saves everything compiled so far. A cache V8 finds stale (another
// Node, other flags, another build) is rejected by V8 itself and written again.
//
// Where: $SVC_CODE_CACHE_DIR, else <OS temp>/svc-code-cache, one file per build and Node version;
// an unwritable directory only means no cache. NODE_DISABLE_COMPILE_CACHE=1 turns this off too.
import type { Script } from "node:vm";

const fs = process.getBuiltinModule("node:fs");
const path = process.getBuiltinModule("node:path");
const vm = process.getBuiltinModule("node:vm");
const { createHash } = process.getBuiltinModule("node:crypto");
const { createRequire, enableCompileCache } = process.getBuiltinModule("node:module");
const { tmpdir } = process.getBuiltinModule("node:os");
const { subscribe, unsubscribe } = process.getBuiltinModule("node:diagnostics_channel");
const { fileURLToPath } = process.getBuiltinModule("node:url");
const { isAscii } = process.getBuiltinModule("node:buffer");

const BUNDLE = fileURLToPath(new URL("./server.cjs", import.meta.url));
const caching = process.env.NODE_DISABLE_COMPILE_CACHE !== "1";

/** The cache file of this bundle (by path, size and time) on this Node; older ones share its prefix. */
function cacheFile(): { dir: string; prefix: string; file: string } {
  const dir = process.env.SVC_CODE_CACHE_DIR || path.join(tmpdir(), "svc-code-cache");
  const stat = fs.statSync(BUNDLE);
  const prefix = `server-${createHash("sha1").update(BUNDLE).digest("hex").slice(0, 12)}-`;
  const file = path.join(
    dir,
    `${prefix}${process.version}-${process.arch}-${stat.size}-${Math.trunc(stat.mtimeMs)}.bin`,
  );
  return { dir, prefix, file };
}

function readCache(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined; // none yet
  }
}

/** Writes the cache in one step (rename) and removes this bundle's older caches. */
function writeCache(script: Script, where: ReturnType<typeof cacheFile>): void {
  try {
    fs.mkdirSync(where.dir, { recursive: true });
    const temporary = `${where.file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, script.createCachedData());
    fs.renameSync(temporary, where.file);
    for (const name of fs.readdirSync(where.dir)) {
      const old = path.join(where.dir, name);
      if (name.startsWith(where.prefix) && old !== where.file && !name.endsWith(".tmp"))
        fs.rmSync(old, { force: true });
    }
  } catch {
    // A read-only or full temp directory: the service runs the same, only its next start is slower.
  }
}

/** Once the first HTTP answer is out, saves the code compiled until then. */
function cacheAfterFirstAnswer(script: Script, where: ReturnType<typeof cacheFile>): void {
  const channel = "http.server.response.finish";
  const once = () => {
    unsubscribe(channel, once);
    setImmediate(() => writeCache(script, where));
  };
  subscribe(channel, once);
}

function run(): void {
  if (caching) enableCompileCache(); // for what the bundle leaves in node_modules (better-sqlite3, pg)
  const where = caching ? cacheFile() : undefined;
  const cachedData = where ? readCache(where.file) : undefined;
  // The build writes the bundle in ASCII (scripts/ascii-source.mjs), which latin1 decodes as is
  // and faster than utf8 does; any other bundle is read as UTF-8.
  const bytes = fs.readFileSync(BUNDLE);
  const source = bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: BUNDLE,
    cachedData,
  });
  if (where && (!cachedData || script.cachedDataRejected)) cacheAfterFirstAnswer(script, where);
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(BUNDLE), module, BUNDLE, path.dirname(BUNDLE));
}

run();
