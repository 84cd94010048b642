// Losing PostgreSQL answers 503 in the envelope, and the service recovers by itself when the
// database returns. Runs under `npm run test:pg` (it needs a PostgreSQL server to cut off).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp } from "../support/app.ts";
import { freshDatabase, testServerUrl } from "../support/database.ts";
import { CuttableProxy } from "../support/tcp-proxy.ts";

describe("losing the database", { skip: testServerUrl ? false : "needs TEST_DATABASE_URL (npm run test:pg)" }, () => {
  it("answers 503 database_unavailable with Retry-After while it is gone, and recovers by itself", async () => {
    const database = await freshDatabase();
    const target = new URL(database.url!);
    const proxy = new CuttableProxy(target.hostname, Number(target.port));
    await proxy.open();
    const viaProxy = new URL(database.url!);
    viaProxy.port = String(proxy.port);
    const t = await startTestApp({
      env: { DATABASE_URL: viaProxy.toString(), SVC_DB_CONNECT_TIMEOUT_MS: "500" },
      database: { url: viaProxy.toString(), drop: database.drop },
    });
    try {
      assert.equal((await t.call("GET", "/api/profile")).status, 200);
      await proxy.cut();
      const down = await t.call("GET", "/api/profile");
      assert.equal(down.status, 503);
      assert.deepEqual(down.body, { code: "database_unavailable", message: down.body.message, data: { status: 503 } });
      assert.equal(down.headers["retry-after"], "5");
      assert.equal((await t.call("GET", "/healthz", { token: null })).status, 503);
      await proxy.restore();
      assert.equal((await t.call("GET", "/api/profile")).status, 200, "back without a restart");
      assert.equal((await t.call("GET", "/healthz", { token: null })).status, 200);
    } finally {
      await proxy.restore();
      await t.close();
      await proxy.cut();
    }
  });
});
