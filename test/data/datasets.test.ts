import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { addLanguage, recordChanges, type Recorder } from "../pages/helpers.ts";

describe("data sets (PUT/GET/DELETE /data/{name}, GET /data)", () => {
  let t: TestApp;
  let recorder: Recorder;
  let n = 0;
  const site = () => makeSite(t, `Data ${++n}`, `data${n}.localhost`);
  const put = (id: number, name: string, body: Record<string, unknown>) =>
    t.call("PUT", `/api/site/${id}/data/${name}`, { body });
  const read = (id: number, name: string, query?: Record<string, string>) =>
    t.call("GET", `/api/site/${id}/data/${name}`, { query });
  before(async () => {
    t = await startTestApp();
    recorder = recordChanges(t);
  });
  after(() => t.close());

  it("PUT stores the shared set (201, then 200), announces the data set, and GET reads it back as {source, items, meta}", async () => {
    const id = await site();
    recorder.reset();
    const items = [
      { name: "Ada", role: "lead" },
      { name: "Bob", tags: ["x"] },
    ];
    const r = await put(id, "team", { items });
    assert.equal(r.status, 201);
    assert.equal(r.body.created, true);
    assert.deepEqual(
      { name: r.body.dataset.name, lang: r.body.dataset.lang, total: r.body.dataset.total },
      { name: "team", lang: null, total: 2 },
    );
    assert.ok(r.body.rebaked);
    assert.deepEqual(recorder.changes(), [{ kind: "dataset", name: "team" }]);
    const back = await read(id, "team");
    assert.equal(back.status, 200);
    assert.equal(back.body.success, true);
    assert.equal(back.body.site_id, id);
    assert.equal(back.body.source, "team");
    assert.deepEqual(back.body.items, items);
    assert.equal(back.body.meta.variant, "shared");
    const replaced = await put(id, "team", { items: [{ name: "Cy" }] });
    assert.equal(replaced.status, 200);
    assert.equal(replaced.body.created, false);
    assert.deepEqual((await read(id, "team")).body.items, [{ name: "Cy" }]);
  });

  it("a malformed name is 400 invalid_dataset_name; a set that exists nowhere is 404 dataset_not_found", async () => {
    const id = await site();
    for (const name of ["Team", "-team", "te am", "team!", "_x", "pages", "site"]) {
      const r = await put(id, encodeURIComponent(name), { items: [] });
      assert.equal(r.status, 400, name);
      assert.equal(r.body.error, "invalid_dataset_name", name);
    }
    const long = await put(id, "a".repeat(101), { items: [] });
    assert.equal(long.body.error, "invalid_dataset_name");
    assert.equal((await put(id, "a0_b-c", { items: [] })).status, 201);
    const missing = await read(id, "nothing");
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "dataset_not_found");
    const badRead = await read(id, "Bad!");
    assert.equal(badRead.body.error, "invalid_dataset_name");
  });

  it("items must be an array of objects: anything else is 400 invalid_field naming the item, and nothing is stored", async () => {
    const id = await site();
    for (const [items, field] of [
      [undefined, "items"],
      [{ a: 1 }, "items"],
      ["x", "items"],
      [[{ a: 1 }, 2], "items.1"],
      [[null], "items.0"],
      [[[1]], "items.0"],
    ] as const) {
      const r = await put(id, "bad", items === undefined ? {} : { items });
      assert.equal(r.status, 400, JSON.stringify(items));
      assert.equal(r.body.error, "invalid_field");
      assert.equal(r.body.field, field);
    }
    assert.equal((await read(id, "bad")).status, 404);
  });

  it("the language variant wins when it has items; an empty variant falls back to the shared set, and reads [] when there is none", async () => {
    const id = await site();
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    await put(id, "links", { items: [{ label: "shared" }] });
    await put(id, "links", { items: [{ label: "deutsch" }], lang: "de" });
    assert.deepEqual((await read(id, "links", { lang: "de" })).body.items, [{ label: "deutsch" }]);
    assert.equal((await read(id, "links", { lang: "de" })).body.meta.variant, "lang");
    assert.deepEqual((await read(id, "links", { lang: "en" })).body.items, [{ label: "shared" }]);
    await put(id, "links", { items: [], lang: "de" });
    assert.deepEqual((await read(id, "links", { lang: "de" })).body.items, [{ label: "shared" }]);
    await put(id, "only-de", { items: [], lang: "de" });
    const empty = await read(id, "only-de", { lang: "de" });
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body.items, []);
    assert.equal((await read(id, "only-de", { lang: "en" })).body.error, "dataset_not_found");
  });

  it("PUT ?lang=xx writes that variant as the body's lang does; both given and different is 400 invalid_field, nothing stored", async () => {
    const id = await site();
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    const written = await t.call("PUT", `/api/site/${id}/data/team`, {
      body: { items: [{ n: "Ada" }] },
      query: { lang: "de" },
    });
    assert.equal(written.status, 201, written.text);
    assert.equal(written.body.dataset.lang, "de");
    assert.deepEqual((await read(id, "team", { lang: "de" })).body.items, [{ n: "Ada" }]);
    assert.equal((await read(id, "team")).status, 404, "the shared set was not written");
    const same = await t.call("PUT", `/api/site/${id}/data/team`, {
      body: { items: [{ n: "Grace" }], lang: "de" },
      query: { lang: "de" },
    });
    assert.equal(same.status, 200, same.text);
    const clash = await t.call("PUT", `/api/site/${id}/data/team`, {
      body: { items: [{ n: "Linus" }], lang: "en" },
      query: { lang: "de" },
    });
    assert.equal(clash.status, 400);
    assert.equal(clash.body.error, "invalid_field");
    assert.equal(clash.body.field, "lang");
    assert.deepEqual((await read(id, "team", { lang: "de" })).body.items, [{ n: "Grace" }]);
    assert.equal((await read(id, "team", { lang: "en" })).status, 404);
  });

  it("DELETE removes the shared set, ?lang=xx only that variant; a missing one is 404 dataset_not_found", async () => {
    const id = await site();
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    await put(id, "faq", { items: [{ q: "shared" }] });
    await put(id, "faq", { items: [{ q: "de" }], lang: "de" });
    recorder.reset();
    const variant = await t.call("DELETE", `/api/site/${id}/data/faq`, { query: { lang: "de" } });
    assert.equal(variant.status, 200);
    assert.deepEqual(variant.body.deleted, { name: "faq", lang: "de", total: 1 });
    assert.ok(variant.body.rebaked);
    assert.deepEqual(recorder.changes(), [{ kind: "dataset", name: "faq" }]);
    assert.deepEqual((await read(id, "faq", { lang: "de" })).body.items, [{ q: "shared" }]);
    const shared = await t.call("DELETE", `/api/site/${id}/data/faq`);
    assert.deepEqual(shared.body.deleted, { name: "faq", lang: null, total: 1 });
    assert.equal((await read(id, "faq")).status, 404);
    const again = await t.call("DELETE", `/api/site/${id}/data/faq`);
    assert.equal(again.status, 404);
    assert.equal(again.body.error, "dataset_not_found");
  });

  it("GET /data lists every set and variant by name, the shared set first", async () => {
    const id = await site();
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    await put(id, "zeta", { items: [{}] });
    await put(id, "alpha", { items: [{}, {}], lang: "de" });
    await put(id, "alpha", { items: [{}] });
    const r = await t.call("GET", `/api/site/${id}/data`);
    assert.equal(r.status, 200);
    assert.equal(r.body.total, 3);
    assert.deepEqual(
      r.body.datasets.map((d: any) => [d.name, d.lang, d.total]),
      [
        ["alpha", null, 1],
        ["alpha", "de", 2],
        ["zeta", null, 1],
      ],
    );
  });

  it("data sets belong to their site: another site does not see them", async () => {
    const a = await site();
    const b = await site();
    await put(a, "mine", { items: [{ x: 1 }] });
    assert.equal((await read(b, "mine")).status, 404);
    assert.equal((await t.call("GET", `/api/site/${b}/data`)).body.total, 0);
  });
});
