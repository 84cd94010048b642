// The OpenAPI document the service serves at GET /api/openapi.json, without a server: the app is
// built on a throwaway SQLite store and asked for the document (`app.swagger()`, the same object
// the route answers). `npm run lint:api` writes it to a temporary file and lints it with
// @redocly/cli (docs/api-reference.md); `node --import tsx scripts/openapi-document.ts [file]`
// prints it (or writes it to the file).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../src/app.ts";
import { wirePublishing } from "../src/app-deps.ts";
import { openBlobStore } from "../src/blobs/open.ts";
import { systemClock } from "../src/clock.ts";
import { loadConfig } from "../src/config.ts";
import { limitsFor } from "../src/http/limits.ts";
import { openStore } from "../src/store/database.ts";

/** The served document as an object. */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-openapi-"));
  try {
    const config = loadConfig({
      ...process.env,
      DATABASE_URL: "",
      SVC_DATA_DIR: dataDir,
      SVC_MEDIA_S3_BUCKET: "",
      SVC_MEDIA_S3_ENDPOINT: "",
      SVC_MEDIA_S3_REGION: "",
      SVC_MEDIA_S3_FORCE_PATH_STYLE: "",
    });
    const store = await openStore({ dataDir, databaseUrl: null, db: config.db });
    const publishing = wirePublishing(store.db, systemClock, config);
    const blobs = await openBlobStore(config);
    const app = await buildApp({
      config,
      store,
      clock: systemClock,
      limits: limitsFor(store, config),
      publisher: publishing.engine,
      publicSite: publishing.publicSite,
      blobs,
    });
    await app.ready();
    const answer = await app.inject({ method: "GET", url: "/api/openapi.json" });
    await app.close();
    await publishing.engine.close();
    await blobs.close();
    await store.close();
    if (answer.statusCode !== 200)
      throw new Error(`GET /api/openapi.json answered ${answer.statusCode}: ${answer.body}`);
    return JSON.parse(answer.body) as Record<string, unknown>;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = `${JSON.stringify(await openApiDocument(), null, 2)}\n`;
  if (process.argv[2]) writeFileSync(process.argv[2], text);
  else process.stdout.write(text);
}
