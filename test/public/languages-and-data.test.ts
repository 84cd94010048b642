import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { assign, bind, frame, page, S, visit } from "../support/site.ts";
import { stalledExecutor } from "../../src/publish/executor.ts";

describe("public site: languages", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    for (const [code, name] of [
      ["en", "English"],
      ["de", "Deutsch"],
    ]) {
      const r = await t.call("POST", `${S}/languages`, { body: { code, name } });
      assert.equal(r.status, 201, r.text);
    }
    await frame(
      t,
      "doc",
      `<html lang="x"><body><h1 ${bind("text", "page.title")}></h1><!-- op/lang-switcher /--><span ${bind("text", "site.lang")}></span></body></html>`,
    );
  });
  after(() => t.close());

  it("default-language pages live at /<path>/, others at /<lang>/<path>/, with a switcher linking the translations", async () => {
    const en = await page(t, { title: "About", lang: "en" });
    const de = await t.call("POST", `${S}/pages/language`, {
      body: { page: en.id, lang: "de", title: "Über uns", slug: "ueber-uns" },
    });
    assert.equal(de.status, 201, de.text);
    await assign(t, "doc", en.id);
    await assign(t, "doc", de.body.page.id);

    const english = await visit(t, "/about/");
    assert.equal(english.status, 200);
    assert.equal(english.printed, "on_request", "the language switcher depends on the page");
    assert.match(english.body, /<h1>About<\/h1>/);
    assert.match(english.body, /<span>en<\/span>/);
    assert.match(english.body, /href="http:\/\/localhost:8080\/de\/ueber-uns\/"/);
    assert.match(english.body, /<!-- op\/lang-switcher -->/);

    const german = await visit(t, "/de/ueber-uns/");
    assert.equal(german.status, 200);
    assert.match(german.body, /<h1>Über uns<\/h1>/);
    assert.match(german.body, /<span>de<\/span>/);
    assert.match(german.body, /href="http:\/\/localhost:8080\/about\/"/);
    assert.equal((await visit(t, "/ueber-uns/")).status, 404, "a German page has no unprefixed address");
    assert.equal((await visit(t, "/de/about/")).status, 404);
  });

  it("a new translation refreshes the switcher of the pages it links to", async () => {
    const en = await page(t, { title: "Pricing", lang: "en" });
    await assign(t, "doc", en.id);
    assert.doesNotMatch((await visit(t, "/pricing/")).body, /\/de\/preise\//);
    const de = await t.call("POST", `${S}/pages/language`, {
      body: { page: en.id, lang: "de", title: "Preise", slug: "preise" },
    });
    assert.equal(de.status, 201, de.text);
    await assign(t, "doc", de.body.page.id);
    assert.match((await visit(t, "/pricing/")).body, /\/de\/preise\//);
  });
});

describe("data sets and rebakes", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("writing a data set rebakes the frames that read it and rewrites their pages' static copies", async () => {
    await frame(
      t,
      "team",
      `<ul><!-- svc/repeat {"source": "team", "limit": 2} --><li ${bind("text", "item.name")}></li><!-- /svc/repeat --></ul><p ${bind("text", "data.team.0.role")}></p>`,
    );
    await frame(t, "other", "<p>other</p>");
    const p = await page(t, { title: "Team" });
    await assign(t, "team", p.id);
    assert.match((await visit(t, "/team/")).body, /<ul><!-- op\/repeat [^>]*--><!-- \/op\/repeat --><\/ul><p><\/p>/);

    const put = await t.call("PUT", `${S}/data/team`, {
      body: { items: [{ name: "Ada", role: "lead" }, { name: "Brian" }, { name: "Cleo" }] },
    });
    assert.equal(put.status, 201, put.text);
    assert.deepEqual(
      put.body.rebaked.frames.map((f: any) => f.slug),
      ["team"],
      "only the reader is rebaked",
    );
    assert.deepEqual(put.body.rebaked.frames[0].because, ["data.team"]);
    assert.deepEqual(put.body.rebaked.pages, [p.id]);
    const r = await visit(t, "/team/");
    assert.equal(r.printed, "static");
    assert.match(r.body, /<li>Ada<\/li><li>Brian<\/li><!-- \/op\/repeat -->/);
    assert.doesNotMatch(r.body, /Cleo/, "limit keeps the first n");
    assert.match(r.body, /<p>lead<\/p>/);
  });

  it("the bake report carries real values: bytes, unresolved tokens, the static copies published", async () => {
    await frame(t, "report", `<p ${bind("text", "site.nmae")}>x</p><!-- svc/frame {"name": "missing-one"} /-->`);
    const p = await page(t, { title: "Reported" });
    await assign(t, "report", p.id);
    const put = await t.call("PUT", `${S}/frames/report`, { body: { html: `<p ${bind("text", "site.nmae")}>y</p>` } });
    assert.equal(put.status, 200, put.text);
    const response = put.body.bake.response;
    assert.equal(put.body.bake.status, "ok");
    assert.equal(response.baked, true);
    assert.equal(response.baked_option, `svc_frame_${put.body.frame.id}_baked`);
    assert.deepEqual(response.unresolved, ["site.nmae"]);
    assert.equal(response.bytes, Buffer.byteLength("<p></p>"));
    assert.equal(response.source_bytes, put.body.frame.bytes);
    assert.deepEqual(response.published, { published: 1, pages: [p.id] });
    assert.deepEqual(response.pages, [p.id]);
    assert.equal((await visit(t, "/reported/")).body, "<p></p>");
  });
});

describe("executor faults", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ publishing: { executor: stalledExecutor, timeoutMs: 50 } })));
  after(() => t.close());

  it("when the renderer does not answer, a frame write answers 502 internal_unavailable and stays saved", async () => {
    const r = await t.call("POST", `${S}/frames`, { body: { slug: "stuck", html: "<p>stuck</p>" } });
    assert.equal(r.status, 502);
    assert.equal(r.body.error, "internal_unavailable");
    const back = await t.call("GET", `${S}/frames/stuck`);
    assert.equal(back.status, 200);
    assert.equal(back.body.frame.html, "<p>stuck</p>");
  });

  it("assigning still stores the frame on the page, with republish.status unavailable", async () => {
    const p = await page(t, { title: "Waiting" });
    const r = await t.call("POST", `${S}/frames/stuck/assign`, { body: { page: p.id } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.republish.status, "unavailable");
    assert.equal((await t.call("GET", `${S}/pages/${p.id}`)).body.page.frame, "stuck");
  });

  it("a public page whose render does not answer is 503 with Retry-After, never a hang", async () => {
    const r = await t.app.inject({ method: "GET", url: "/waiting/", headers: { host: "localhost" } });
    assert.equal(r.statusCode, 503);
    // Kept 10 s in the page cache (docs/security.md, "Limits at a glance"): it says when to try again.
    assert.equal(r.headers["retry-after"], "10");
  });
});
