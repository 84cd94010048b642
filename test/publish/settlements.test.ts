// Paid outbox rows are deleted, and their events told what was published, a moment after their
// publish run (src/publish/outbox.ts, Settlements): a caller told the rows are settled finds it so,
// even when the moment's own flush is still on its way.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { frame } from "../support/site.ts";

describe("settling paid outbox rows", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  const owed = async () => (await t.store.db.selectFrom("publish_outbox").select("id").execute()).length;
  const untold = async () =>
    (
      await t.store.db
        .selectFrom("events")
        .select("id")
        .where("outbox_id", "is not", null)
        .where("published_json", "is", null)
        .execute()
    ).length;

  it("settled() while another flush of the same rows runs answers once that flush is over: no row owed, every event told", async () => {
    for (let round = 0; round < 5; round++) {
      await frame(t, `settle${round}`, `<p>${round}</p>`);
      const first = t.settled();
      await t.settled();
      assert.equal(await owed(), 0, `round ${round}: a paid row was still in the outbox`);
      assert.equal(await untold(), 0, `round ${round}: an event was not told what was published`);
      await first;
    }
  });
});
