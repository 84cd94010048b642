// Retention (docs/events.md, "Order and retention"): events older than SVC_EVENTS_DAYS are
// deleted, newer ones kept.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { pruneEvents } from "../../src/events/retention.ts";
import { startTestApp, type TestApp } from "../support/app.ts";

describe("events retention", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("events older than the retention's days are deleted; younger ones stay", async () => {
    const now = Date.parse("2026-06-01T00:00:00.000Z");
    const row = (at: string) => ({
      site_id: 1,
      type: "frame.created",
      object_kind: "frame",
      object_id: "x",
      object_slug: null,
      actor_user_id: null,
      actor_token_id: null,
      request_id: null,
      at,
      changes_json: "{}",
      outbox_id: null,
      published_json: "{}",
      dispatched: 1,
    });
    await t.store.db.deleteFrom("events").execute();
    await t.store.db
      .insertInto("events")
      .values([row("2026-02-01T00:00:00.000Z"), row("2026-03-02T23:59:59.999Z"), row("2026-03-03T00:00:00.001Z")])
      .execute();
    assert.equal(await pruneEvents(t.store.db, 90, now), 2);
    const left = await t.store.db.selectFrom("events").select("at").execute();
    assert.deepEqual(
      left.map((r) => r.at),
      ["2026-03-03T00:00:00.001Z"],
    );
  });
});
