// The admin's built files (docs/admin.md): `npm run build` writes them with
// scripts/admin-build.mjs to dist/admin/ — `index.html`, and under `assets/` the scripts and
// stylesheets named by their content hash, each beside its `.br` and `.gz` copies. They are read
// into memory on the first request for the admin (a few tens of kB; nothing at start-up) and
// served from there, so no request ever names a file on disk. A folder without a build is read
// again on the next request, so a build made while the service runs is found.
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Coding } from "../http/content-coding.ts";

/** One hashed file in each of its encodings. */
export interface AdminAsset {
  type: string;
  bytes: Readonly<Record<Coding, Buffer>>;
}

export interface AdminBuild {
  index: Buffer;
  /** The index's validator (its bytes change with every build that changes an asset's hash). */
  etag: string;
  /** By file name (`main-<hash>.js`). */
  assets: ReadonlyMap<string, AdminAsset>;
}

const TYPES: Readonly<Record<string, string>> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".json": "application/json",
};

const COPIES = [".br", ".gz"];

/**
 * Where the build puts the admin: beside the service's bundle (dist/server.cjs, built with
 * `__dirname`), or, run from src/ (tests, `npm run dev`), the checkout's dist/admin/.
 */
export function defaultAdminDir(): string {
  if (typeof __dirname === "string") return join(__dirname, "admin");
  return fileURLToPath(new URL("../../dist/admin", import.meta.url));
}

/** The build in `dir`; null when there is none (no index.html, or an asset without its copies). */
async function readBuild(dir: string): Promise<AdminBuild | null> {
  let index: Buffer;
  let names: string[];
  try {
    index = await readFile(join(dir, "index.html"));
    names = await readdir(join(dir, "assets"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const assets = new Map<string, AdminAsset>();
  try {
    for (const name of names.filter((n) => !COPIES.includes(extname(n)))) {
      const path = join(dir, "assets", name);
      const [identity, br, gzip] = await Promise.all([readFile(path), readFile(`${path}.br`), readFile(`${path}.gz`)]);
      assets.set(name, { type: TYPES[extname(name)] ?? "application/octet-stream", bytes: { identity, br, gzip } });
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const etag = `"${createHash("sha256").update(index).digest("base64url").slice(0, 22)}"`;
  return { index, etag, assets };
}

/** The admin's build, read once it is there. */
export class AdminFiles {
  private build: Promise<AdminBuild | null> | null = null;

  constructor(readonly dir: string) {}

  /** The build, or null while the folder holds none (then, or after a failed read, read again next time). */
  get(): Promise<AdminBuild | null> {
    this.build ??= readBuild(this.dir).then(
      (build) => {
        if (build === null) this.build = null;
        return build;
      },
      (error) => {
        this.build = null;
        throw error;
      },
    );
    return this.build;
  }
}
