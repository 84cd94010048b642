// The built service's notification worker (docs/forms.md, "Notifications"), started by server.ts:
// without SVC_SMTP_URL a queued e-mail waits and a start says so; started again with it, the e-mail
// arrives from SVC_MAIL_FROM; a stop (SIGTERM) ends cleanly. Needs `npm run build`.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serviceDatabase, startService } from "../support/process.ts";
import { startSmtpServer } from "../support/smtp-server.ts";
import { loadConfig } from "../../src/config.ts";
import { openStore } from "../../src/store/database.ts";
import { queueNotification } from "../../src/forms/notify-queue.ts";

describe("forms: the service's notification worker", () => {
  it("waits without SVC_SMTP_URL (a start says how many wait), sends once it is set, stops cleanly", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-notify-"));
    const { env, database } = await serviceDatabase();
    const smtp = await startSmtpServer();
    const base = { ...env, SVC_DATA_DIR: dir };
    try {
      const first = await startService(base);
      const config = loadConfig(base);
      const store = await openStore({ dataDir: dir, databaseUrl: config.databaseUrl, db: config.db });
      try {
        const message = { to: ["owner@example.test"], subject: "A message", text: "Hello" };
        await queueNotification(store.db, 1, "contact", message, Date.now());
        assert.equal(await first.stop(), 0);

        const second = await startService(base);
        assert.equal(await second.stop(), 0);
        assert.match(second.stdout(), /form notifications wait: SVC_SMTP_URL is not set/);
        assert.match(second.stdout(), /"waiting":1/);

        const third = await startService({
          ...base,
          SVC_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          SVC_MAIL_FROM: "Site <forms@example.test>",
        });
        try {
          await smtp.waitFor(1, 15_000);
          assert.equal(smtp.received[0]!.headers.get("from"), "Site <forms@example.test>");
          assert.equal(smtp.received[0]!.headers.get("subject"), "A message");
        } finally {
          assert.equal(await third.stop(), 0);
        }
        const left = await store.db.selectFrom("form_notifications").select("id").execute();
        assert.deepEqual(left, []);
      } finally {
        await store.close();
      }
    } finally {
      await smtp.close();
      await database.drop();
    }
  });
});
