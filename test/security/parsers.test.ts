// Parsers that refuse, not crash (docs/security.md). A request body nested deeper than 64 levels
// is 400 body_too_deep before any work (it was a 500, a stack overflow, on every JSON route and
// /api/login); hostile markup (2,000 nested svc/repeat blocks was a 500 too, deep insert JSON,
// deep binds, deep elements) is accepted with warnings, and the deepest program the compiler lets
// through renders. test/markup/depth.test.ts checks the same bounds on the compiler alone.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type Answer, type TestApp } from "../support/app.ts";

const SITE = "/api/site/1";
/** JSON text `n` arrays deep, and `n` objects deep (text: JSON.stringify itself recurses). */
const arrays = (n: number) => "[".repeat(n) + "]".repeat(n);
const objects = (n: number) => `${'{"a":'.repeat(n - 1)}{"end":true}${"}".repeat(n - 1)}`;

function tooDeep(r: Answer): void {
  assert.equal(r.status, 400, r.text.slice(0, 300));
  assert.deepEqual(r.body, {
    code: "body_too_deep",
    message: "The request body nests objects and arrays more than 64 levels deep.",
    data: { status: 400, max_depth: 64 },
  });
}

const codes = (r: Answer): string[] => (r.body.warnings ?? []).map((w: { code: string }) => w.code);

describe("parsers that refuse, not crash: request bodies", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("page fields: a body 64 levels deep is stored and read back, 65 levels is 400 body_too_deep and writes nothing", async () => {
    // The body is level 1, `fields` level 2, its value 62 more: 64.
    const at64 = await t.call("POST", `${SITE}/pages`, { payload: `{"title":"Deep","fields":{"a":${arrays(62)}}}` });
    assert.equal(at64.status, 201, at64.text.slice(0, 300));
    const read = await t.call("GET", `${SITE}/pages/${at64.body.page.id}`);
    assert.equal(read.status, 200);
    assert.equal(JSON.stringify(read.body.page.fields.a), arrays(62));

    tooDeep(await t.call("POST", `${SITE}/pages`, { payload: `{"title":"Deeper","fields":{"a":${arrays(63)}}}` }));
    tooDeep(await t.call("PATCH", `${SITE}/pages/${at64.body.page.id}`, { payload: `{"fields":{"a":${arrays(63)}}}` }));
    const list = await t.call("GET", `${SITE}/pages`);
    assert.deepEqual(
      list.body.pages.map((p: { title: string }) => p.title),
      ["Deep"],
    );
    assert.equal(
      JSON.stringify((await t.call("GET", `${SITE}/pages/${at64.body.page.id}`)).body.page.fields.a),
      arrays(62),
    );
  });

  it("data-set items: 64 levels are stored and printed by a repeat, 65 levels is 400 body_too_deep", async () => {
    // Body 1, `items` 2, an item 3 and 61 more objects inside it: 64.
    const at64 = await t.call("PUT", `${SITE}/data/deep`, { payload: `{"items":[{"name":"n","x":${objects(61)}}]}` });
    assert.equal(at64.status, 201, at64.text.slice(0, 300));
    const frame = await t.call("POST", `${SITE}/frames`, {
      body: {
        slug: "deep-items",
        html: `<!-- svc/repeat {"source":"deep"} --><i data-op-bind='{"text":"item.name","title":"item.x.a.a"}'></i><!-- /svc/repeat -->`,
      },
    });
    assert.equal(frame.status, 201, frame.text.slice(0, 300));
    assert.equal(frame.body.bake.status, "ok");
    tooDeep(await t.call("PUT", `${SITE}/data/deeper`, { payload: `{"items":[{"x":${objects(62)}}]}` }));
    assert.equal((await t.call("GET", `${SITE}/data/deeper`)).status, 404);
  });

  it("/api/login refuses a deep body as 400 body_too_deep, without a token", async () => {
    tooDeep(
      await t.call("POST", "/api/login", { token: null, payload: `{"login":"admin","password":${arrays(10_000)}}` }),
    );
    tooDeep(await t.call("POST", "/api/login", { token: null, payload: arrays(65) }));
  });

  it("a 10,000-level body is 400 body_too_deep on every route that reads a JSON body, and 413 body_too_large unread on those that take none", async () => {
    const payload = `{"a":${arrays(10_000)}}`;
    const answered = new Map<string, number>();
    // Routes that declare a body (a body sent to any other is refused before it is read).
    const withBody = new Set(
      t.app.routesIndex
        .schemas()
        .filter((s) => s.part === "body")
        .flatMap((s) => {
          const [methods, url] = s.route.split(" ");
          return methods!.split(",").map((m) => `${m} ${url}`);
        }),
    );
    for (const [url, methods] of t.app.routesIndex.list()) {
      for (const method of methods.filter((m) => m === "POST" || m === "PUT" || m === "PATCH")) {
        const address = url.replace(":site_id", "1").replace(/:[a-z_]+/g, "1");
        // Media uploads read any body as a file's bytes and never parse it (docs/media.md,
        // "Uploads"): this text is a file of no allowed type (POST), or names no file (PUT).
        const upload = /\/media(\/:ref)?$/.test(url) && method !== "PATCH";
        // Site bundles are read only as application/gzip (docs/bundles.md): JSON is refused unread.
        const bundle = /\/import$/.test(url);
        const query = upload ? "?filename=deep.json" : url === "/api/sites/import" ? "?domain=deep.example" : "";
        const r = await t.call(method, `${address}${query}`, { payload });
        answered.set(`${method} ${url}`, r.status);
        if (bundle)
          assert.deepEqual([r.status, r.body?.error], [415, "unsupported_media_type"], `${method} ${url}: ${r.text}`);
        else if (upload)
          assert.ok(
            r.body?.success === false && [404, 415].includes(r.status),
            `${method} ${url}: ${r.status} ${r.text.slice(0, 200)}`,
          );
        else if (r.status === 410)
          continue; // removed endpoints answer 410 gone before reading a body
        else if (withBody.has(`${method} ${url}`)) tooDeep(r);
        else
          assert.deepEqual(
            [r.status, r.body?.code, r.body?.data?.max_bytes],
            [413, "body_too_large", 0],
            `${method} ${url}: ${r.text.slice(0, 200)}`,
          );
      }
    }
    assert.ok(answered.size > 30, `${answered.size} routes`);
  });

  it("12 MiB of nested brackets is refused at once, and the next request is answered within 1 s", async () => {
    tooDeep(await t.call("POST", `${SITE}/pages`, { payload: "[".repeat(12 * 1024 * 1024 - 16) }));
    const started = performance.now();
    const health = await t.call("GET", "/healthz", { token: null });
    assert.equal(health.status, 200);
    assert.ok(performance.now() - started < 1000);
  });

  it("a __proto__ key is data: a page field of that name is kept by POST and by PATCH alike", async () => {
    const created = await t.call("POST", `${SITE}/pages`, { payload: '{"title":"Proto","fields":{"b":2}}' });
    assert.equal(created.status, 201, created.text.slice(0, 300));
    // Before, PATCH assigned the key, which set the merged object's prototype: the field vanished.
    const patched = await t.call("PATCH", `${SITE}/pages/${created.body.page.id}`, {
      payload: '{"fields":{"__proto__":{"z":9},"c":3}}',
    });
    assert.equal(patched.status, 200, patched.text.slice(0, 300));
    const read = await t.call("GET", `${SITE}/pages/${created.body.page.id}`);
    assert.match(read.text, /"fields":\{"b":2,"__proto__":\{"z":9\},"c":3\}/);
    assert.equal(({} as Record<string, unknown>).z, undefined);
  });

  it("brackets inside strings are not nesting: a 2 MB string of them is stored as it is", async () => {
    const content = "[{".repeat(1024 * 1024);
    const r = await t.call("POST", `${SITE}/pages`, { body: { title: "Brackets", content } });
    assert.equal(r.status, 201, r.text.slice(0, 300));
  });
});

describe("parsers that refuse, not crash: hostile markup", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    // Pages give svc/repeat {"source":"pages"} items to iterate.
    for (const title of ["One", "Two"])
      assert.equal((await t.call("POST", `${SITE}/pages`, { body: { title } })).status, 201);
    assert.equal((await t.call("PUT", `${SITE}/data/one`, { body: { items: [{ n: 1 }] } })).status, 201);
  });
  after(() => t.close());

  const write = (slug: string, html: string) => t.call("POST", `${SITE}/frames`, { body: { slug, html } });

  it("2,000 nested svc/repeat blocks (a 500 before) are accepted with warning repeat_too_deep", async () => {
    const html = `${'<!-- svc/repeat {"source":"one"} -->'.repeat(2000)}x${"<!-- /svc/repeat -->".repeat(2000)}`;
    const r = await write("repeats", html);
    assert.equal(r.status, 201, r.text.slice(0, 300));
    assert.deepEqual(codes(r), ["repeat_too_deep"]);
    assert.equal(r.body.bake.status, "ok");
  });

  it("2,000 nested blocks over pages never reach the renderer's recursion", async () => {
    const html = `${'<!-- svc/repeat {"source":"pages","limit":1} -->'.repeat(2000)}x${"<!-- /svc/repeat -->".repeat(2000)}`;
    const r = await write("pages-repeats", html);
    assert.ok(r.status < 500, `${r.status} ${r.text.slice(0, 300)}`);
    assert.ok(r.status === 201 || r.body.error === "render_too_large", r.text.slice(0, 300));
  });

  it("deep JSON in inserts and binds is never parsed: the insert or bind is dropped with a warning", async () => {
    const cases: Array<[string, string, string]> = [
      ["deep-frame", `<!-- svc/frame {"name":"x","a":${arrays(100_000)}} /-->`, "insert_params_too_deep"],
      ["deep-with", `<!-- svc/partial {"name":"x","with":${objects(10_000)}} /-->`, "insert_params_too_deep"],
      [
        "deep-repeat",
        `<!-- svc/repeat {"source":"one","match":${objects(65)}} -->x<!-- /svc/repeat -->`,
        "insert_params_too_deep",
      ],
      ["deep-bind", `<p data-op-bind='{"text":"site.name","x":${arrays(100_000)}}'>a</p>`, "bind_too_deep"],
    ];
    for (const [slug, html, code] of cases) {
      const r = await write(slug, html);
      assert.equal(r.status, 201, `${slug}: ${r.text.slice(0, 300)}`);
      assert.deepEqual(codes(r), [code], slug);
      assert.deepEqual(r.body.frame_refs, [], slug);
    }
  });

  it("100,000 nested elements are accepted without a warning", async () => {
    const r = await write("elements", "<div>".repeat(100_000) + "</div>".repeat(100_000));
    assert.equal(r.status, 201, r.text.slice(0, 300));
    assert.deepEqual(codes(r), []);
  });

  it("the deepest program the compiler lets through renders: 17 frames in one another, 64 blocks each", async () => {
    // Written innermost first, so each frame's partial names a frame that exists.
    const level = `<!-- svc/repeat {"source":"one"} --><b data-op-bind='{"text":"item.n"}'></b>`;
    for (let i = 17; i >= 0; i--) {
      const inner = i === 17 ? "end" : `<!-- svc/partial {"name":"chain-${i + 1}"} /-->`;
      const r = await write(`chain-${i}`, level.repeat(64) + inner + "<!-- /svc/repeat -->".repeat(64));
      assert.ok(r.status < 500, `chain-${i}: ${r.status} ${r.text.slice(0, 300)}`);
      assert.deepEqual(codes(r), [], `chain-${i}`);
    }
    const page = await t.call("POST", `${SITE}/pages`, { body: { title: "Chain", frame: "chain-0" } });
    assert.equal(page.status, 201, page.text.slice(0, 300));
    const shown = await t.app.inject({ method: "GET", url: "/chain/", headers: { host: "localhost" } });
    assert.equal(shown.statusCode, 200);
    assert.equal(
      shown.body.match(/<b>1<\/b>/g)?.length,
      64 * 17,
      "16 frames embedded under the top one, the 17th prints nothing",
    );
  });
});
