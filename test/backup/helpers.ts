// Helpers of the backup tests: the built service on a SQLite data directory of its own, the svc
// command on it (SVC_DATA_DIR), media of bytes no other upload shares, and what a restored
// directory holds, read with SQLite itself.
import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import { startService, type Running } from "../support/process.ts";
import { call, type Reply } from "../cluster/helpers.ts";
import { runSvc, type Run } from "../cli/harness.ts";

export { tempDir } from "../cli/harness.ts";

export const SITE = "/api/site/1";
/** Prints the page's title, so a public page shows which write it came from. */
export const FRAME = `<!DOCTYPE html><html><body><h1 data-op-bind='{"text": "page.title"}'></h1></body></html>`;

/** The built service on SQLite in `dataDir` (DATABASE_URL emptied: a test:pg run keeps SQLite here). */
export function startOn(dataDir: string, token: string): Promise<Running> {
  return startService({
    DATABASE_URL: "",
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_TOKEN: token,
    SVC_RATE_LIMIT_PER_MIN: "1000000",
  });
}

/** `svc <args>` with SVC_DATA_DIR set, and no DATABASE_URL. */
export function svcOn(dataDir: string, args: string[]): Promise<Run> {
  return runSvc(args, { env: { SVC_DATA_DIR: dataDir, DATABASE_URL: "" } });
}

export function api(svc: Running, token: string, method: string, path: string, body?: unknown): Promise<Reply> {
  return call(svc.port, method, path, { token, body });
}

/** A PDF of bytes no other upload has (so its blob is its own), uploaded; its reply. */
export function uploadUnique(svc: Running, token: string, name: string): Promise<Reply> {
  const bytes = Buffer.from(`%PDF-1.4\n% ${name} ${randomBytes(16).toString("hex")}\ntrailer <<>>\n%%EOF\n`);
  return call(svc.port, "POST", `${SITE}/media?filename=${encodeURIComponent(`${name}.pdf`)}`, {
    token,
    payload: bytes,
    headers: { "content-type": "application/pdf" },
  });
}

export function sha256(bytes: Buffer | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** What a restored data directory's database says: SQLite's integrity check, page slugs, media blobs. */
export function readRestored(dataDir: string): { integrity: string[]; slugs: Set<string>; blobs: Set<string> } {
  const db = new Database(join(dataDir, "svc.db"), { readonly: true, fileMustExist: true });
  try {
    const integrity = (db.pragma("integrity_check", { simple: false }) as { integrity_check: string }[]).map(
      (row) => row.integrity_check,
    );
    const slugs = new Set(db.prepare("select slug from pages where site_id = 1").pluck().all() as string[]);
    const blobs = new Set(db.prepare("select sha256 from media where site_id = 1").pluck().all() as string[]);
    return { integrity, slugs, blobs };
  } finally {
    db.close();
  }
}
