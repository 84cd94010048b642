// Headless Chromium for the tests that look at a page (Debian's `chromium`, driven by
// playwright-core), and the real service process those tests load pages from.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { generateToken } from "../../src/tokens.ts";
import { freePort } from "./ports.ts";
import { serviceDatabase, startService } from "./process.ts";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** The `skip` option of a browser suite: skipped, and saying why, where no browser is installed. */
export const withBrowser = { skip: existsSync(CHROMIUM) ? false : `no browser at ${CHROMIUM}` };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export interface BrowserSite {
  /** `http://localhost:<port>`: the main site's public address. */
  base: string;
  /** A call to site 1's API as the administrator; a Buffer body is sent as raw bytes of `type`. */
  api(method: string, path: string, body?: unknown, type?: string): Promise<any>;
  close(): Promise<void>;
}

/** The service as `npm start` runs it, on a database and data directory of its own. */
export async function startBrowserSite(): Promise<BrowserSite> {
  const token = generateToken();
  const port = await freePort();
  const db = await serviceDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), "svc-e2e-"));
  const svc = await startService({
    ...db.env,
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_TOKEN: token,
    PORT: String(port),
    SVC_RATE_LIMIT_PER_MIN: "100000",
    SVC_PUBLIC_RATE_LIMIT_PER_MIN: "100000",
  });
  const base = `http://localhost:${port}`;
  return {
    base,
    async api(method, path, body, type = "application/json") {
      const r = await fetch(`${base}/api/site/1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": type }) },
        body: body === undefined ? undefined : Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body),
      });
      const json = await r.json();
      assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
      return json;
    },
    async close() {
      await svc.stop();
      await db.database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
