// "A write says what it takes offline" (docs/publishing.md): every write that makes public addresses
// stop answering lists each as a `pages_offline` warning with the page and its address, and the
// same write with ?dry_run=1 answers the same warnings and changes nothing.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";

const S = "/api/site/1";

describe("pages_offline warnings and ?dry_run=1", () => {
  let t: TestApp;
  let n = 0;

  before(async () => {
    t = await startTestApp();
    const frame = await t.call("POST", `${S}/frames`, { body: { slug: "offline-frame", html: "<p>on line</p>" } });
    assert.equal(frame.status, 201, frame.text);
  });
  after(() => t.close());

  /** A published parent with a published child and a draft child, all on a frame. */
  async function family(): Promise<{ parent: any; child: any; draft: any }> {
    n++;
    const make = async (body: Record<string, unknown>) => {
      const r = await t.call("POST", `${S}/pages`, { body: { frame: "offline-frame", status: "publish", ...body } });
      assert.equal(r.status, 201, r.text);
      return r.body.page;
    };
    const parent = await make({ title: `Parent ${n}`, slug: `parent-${n}` });
    const child = await make({ title: `Child ${n}`, slug: "child", parent: parent.id });
    const draft = await make({ title: `Draft ${n}`, slug: "draft", parent: parent.id, status: "draft" });
    return { parent, child, draft };
  }

  const offline = (warnings: any[]) =>
    warnings.filter((w) => w.code === "pages_offline").map((w) => [w.page, new URL(w.url).pathname]);
  const publicStatus = async (path: string) =>
    (await t.app.inject({ method: "GET", url: path, headers: { host: "localhost" } })).statusCode;

  it("drafting a parent names the parent and its published descendants, not pages that were offline already", async () => {
    const { parent, child } = await family();
    const r = await t.call("PATCH", `${S}/pages/${parent.id}`, { body: { status: "draft" } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(offline(r.body.warnings), [
      [parent.id, `/parent-${n}/`],
      [child.id, `/parent-${n}/child/`],
    ]);
    assert.equal(await publicStatus(`/parent-${n}/child/`), 404);
  });

  it("PATCH with ?dry_run=1 answers the same warnings, marks the answer, and writes nothing", async () => {
    const { parent, child } = await family();
    const dry = await t.call("PATCH", `${S}/pages/${parent.id}?dry_run=1`, { body: { status: "draft" } });
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.dry_run, true);
    assert.equal(dry.body.applied, false);
    assert.deepEqual(offline(dry.body.warnings), [
      [parent.id, `/parent-${n}/`],
      [child.id, `/parent-${n}/child/`],
    ]);
    assert.equal((await t.call("GET", `${S}/pages/${parent.id}`)).body.page.status, "publish");
    assert.equal(await publicStatus(`/parent-${n}/child/`), 200);
  });

  it("trashing a parent (DELETE) names it and its published descendants; ?dry_run=1 trashes nothing", async () => {
    const { parent, child } = await family();
    const dry = await t.call("DELETE", `${S}/pages/${parent.id}?dry_run=1`);
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.dry_run, true);
    assert.equal(dry.body.trashed, false);
    assert.deepEqual(offline(dry.body.warnings), [
      [parent.id, `/parent-${n}/`],
      [child.id, `/parent-${n}/child/`],
    ]);
    assert.equal((await t.call("GET", `${S}/pages/${parent.id}`)).body.page.status, "publish");
    const done = await t.call("DELETE", `${S}/pages/${parent.id}`);
    assert.equal(done.body.trashed, true);
    assert.deepEqual(offline(done.body.warnings), offline(dry.body.warnings));
  });

  it("a write that takes nothing offline warns nothing of the kind", async () => {
    const { child } = await family();
    const r = await t.call("PATCH", `${S}/pages/${child.id}`, { body: { title: "Still online" } });
    assert.deepEqual(offline(r.body.warnings), []);
  });

  it("deleting a frame names the pages that stood on it; ?dry_run=1 deletes nothing", async () => {
    await t.call("POST", `${S}/frames`, { body: { slug: "short-lived", html: "<p>short</p>" } });
    const on = await t.call("POST", `${S}/pages`, {
      body: { title: "On short", slug: "on-short", frame: "short-lived", status: "publish" },
    });
    const dry = await t.call("DELETE", `${S}/frames/short-lived?dry_run=1`);
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.dry_run, true);
    assert.deepEqual(dry.body.unbound_pages, [on.body.page.id]);
    assert.deepEqual(offline(dry.body.warnings), [[on.body.page.id, "/on-short/"]]);
    assert.equal((await t.call("GET", `${S}/frames/short-lived`)).status, 200);
    assert.equal(await publicStatus("/on-short/"), 200);
    const done = await t.call("DELETE", `${S}/frames/short-lived`);
    assert.deepEqual(offline(done.body.warnings), [[on.body.page.id, "/on-short/"]]);
    assert.equal(await publicStatus("/on-short/"), 404);
  });

  it("moving or clearing home_page names the page that leaves /; ?dry_run=1 keeps the setting", async () => {
    const { parent: first, child: second } = await family();
    await t.call("PATCH", `${S}/settings`, { body: { home_page: first.id } });
    assert.equal(await publicStatus("/"), 200);
    const dry = await t.call("PATCH", `${S}/settings?dry_run=1`, { body: { home_page: second.id } });
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.dry_run, true);
    assert.deepEqual(offline(dry.body.warnings), [[first.id, "/"]]);
    assert.equal((await t.call("GET", `${S}/settings`)).body.settings.home_page, first.id);
    const moved = await t.call("PATCH", `${S}/settings`, { body: { home_page: second.id } });
    assert.deepEqual(offline(moved.body.warnings), [[first.id, "/"]]);
    const cleared = await t.call("PATCH", `${S}/settings`, { body: { home_page: null } });
    assert.deepEqual(offline(cleared.body.warnings), [[second.id, "/"]]);
    assert.equal(await publicStatus("/"), 404);
  });

  it("removing a language names its pages that answered; ?dry_run=1 keeps the language", async () => {
    const site = await t.call("POST", "/api/sites", { body: { name: "Two tongues", domain: "tongues.localhost" } });
    const T = `/api/site/${site.body.site.id}`;
    for (const code of ["en", "de"])
      assert.equal((await t.call("POST", `${T}/languages`, { body: { code } })).status, 201);
    await t.call("POST", `${T}/frames`, { body: { slug: "tongue", html: "<p>tongue</p>" } });
    const de = await t.call("POST", `${T}/pages`, {
      body: { title: "Uber", slug: "uber", lang: "de", frame: "tongue", status: "publish" },
    });
    await t.call("POST", `${T}/pages`, {
      body: { title: "Entwurf", slug: "entwurf", lang: "de", frame: "tongue", status: "draft" },
    });
    const dry = await t.call("DELETE", `${T}/languages/de?dry_run=1`);
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.dry_run, true);
    assert.deepEqual(offline(dry.body.warnings), [[de.body.page.id, "/de/uber/"]]);
    assert.deepEqual(
      (await t.call("GET", `${T}/languages`)).body.languages.map((l: any) => l.code),
      ["en", "de"],
    );
    const done = await t.call("DELETE", `${T}/languages/de`);
    assert.deepEqual(offline(done.body.warnings), [[de.body.page.id, "/de/uber/"]]);
  });

  it("dry_run other than 1, true, 0 or false is 400 invalid_parameter naming it", async () => {
    const { child } = await family();
    const r = await t.call("PATCH", `${S}/pages/${child.id}?dry_run=maybe`, { body: { title: "x" } });
    assert.equal(r.status, 400);
    assert.equal(r.body.error, "invalid_parameter");
    assert.equal(r.body.parameter, "dry_run");
  });
});
