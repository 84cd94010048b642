// On SQLite the site's frame graph is kept in memory between calls (src/frames/graph.ts). What a
// frame read answers must still follow every write: the services' own, a write that bypassed
// them on the same connection, and a write through another connection to the same file.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { startTestApp, type TestApp } from "../support/app.ts";
import { testServerUrl } from "../support/database.ts";
import { S } from "../support/site.ts";

const embed = (slug: string) => `<div><!-- svc/frame {"name": "${slug}"} /--></div>`;

describe("the kept frame graph follows every write", {
  skip: testServerUrl ? "SQLite only: PostgreSQL reads the graph on every call" : false,
}, () => {
  let t: TestApp;
  const refsOf = async (slug: string) => (await t.call("GET", `${S}/frames/${slug}`)).body.frame;
  before(async () => {
    t = await startTestApp();
    for (const [slug, html] of [
      ["leaf", "<p>leaf</p>"],
      ["mid", embed("leaf")],
      ["top", embed("mid")],
    ]) {
      assert.equal((await t.call("POST", `${S}/frames`, { body: { slug, html } })).status, 201);
    }
  });
  after(() => t.close());

  it("the services' writes: PUT, rename and delete show in the next read", async () => {
    assert.deepEqual((await refsOf("leaf")).referenced_by, ["mid"]);
    await t.call("PUT", `${S}/frames/mid`, { body: { html: "<p>no embed</p>" } });
    assert.deepEqual((await refsOf("leaf")).referenced_by, []);
    assert.deepEqual((await refsOf("mid")).frame_refs, []);
    await t.call("PUT", `${S}/frames/mid`, { body: { html: embed("leaf") } });
    await t.call("PATCH", `${S}/frames/leaf`, { body: { slug: "leaf-2" } });
    assert.deepEqual((await refsOf("mid")).frame_refs, ["leaf-2"], "the rename rewrote mid's reference");
    await t.call("DELETE", `${S}/frames/leaf-2`);
    assert.deepEqual((await refsOf("mid")).frame_refs, ["leaf-2"], "a reference to a deleted frame stays as written");
    await t.call("POST", `${S}/frames`, {
      body: { slug: "leaf-2", html: '<p data-op-bind=\'{"text": "page.title"}\'></p>' },
    });
    assert.equal((await refsOf("top")).renders_on_request, true, "top now reaches a frame that reads the page");
  });

  it("a row written on the same connection without the services (a new frame) shows too", async () => {
    const row = await t.store.db.selectFrom("frames").selectAll().where("slug", "=", "top").executeTakeFirstOrThrow();
    await t.store.db
      .insertInto("frames")
      .values({
        ...row,
        id: "00000000000000aa",
        slug: "side",
        analysis_json: JSON.stringify({ ...JSON.parse(row.analysis_json), ref_values: ["mid"] }),
      })
      .execute();
    assert.deepEqual((await refsOf("mid")).referenced_by, ["side", "top"]);
  });

  it("a write through another connection to the same file shows from the next turn of the event loop", async () => {
    assert.deepEqual((await refsOf("mid")).referenced_by, ["side", "top"]);
    const other = new SQLite(join(t.dataDir, "svc.db"));
    try {
      const row = other.prepare("select analysis_json from frames where slug = 'top'").get() as {
        analysis_json: string;
      };
      const analysis = JSON.parse(row.analysis_json);
      other
        .prepare("update frames set analysis_json = ? where slug = 'top'")
        .run(JSON.stringify({ ...analysis, ref_values: [] }));
    } finally {
      other.close();
    }
    // Kept answers read data_version once per turn (src/store/kept-reads.ts).
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual((await refsOf("mid")).referenced_by, ["side"]);
  });
});
