// Public serving of stylesheets (docs/styles.md, "Public serving"): the bundle at
// /styles/<name>.<hash>.css, minified, with its headers and encodings, on its own site's domain
// only; a replaced address answers its own bytes for 24 hours, then 404.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";

describe("stylesheets served at /styles/<name>.<hash>.css", () => {
  let t: TestApp;
  let n = 0;
  const fresh = async () => {
    n++;
    const host = `served${n}.localhost`;
    return { id: await makeSite(t, `Served ${n}`, host), host };
  };
  const put = async (id: number, name: string, css: string) => {
    const r = await t.call("PUT", `/api/site/${id}/styles/${name}`, { body: { css } });
    assert.ok(r.status === 200 || r.status === 201, r.text);
    return r.body.style;
  };
  const fetch = (url: string, host: string, headers: Record<string, string> = {}, method: "GET" | "HEAD" = "GET") =>
    t.app.inject({ method, url, headers: { host, ...headers } });

  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("answers the bundle minified, with its type, validators and a year of immutable caching", async () => {
    const { id, host } = await fresh();
    const style = await put(
      id,
      "main",
      "/* comment */\nbody {\n  color: #ff0000;\n  margin: 0px;\n}\n\n.a   >   .b { padding : 1px 1px 1px 1px }\n",
    );
    const hash = /\.([0-9a-f]{16})\.css$/.exec(style.url)![1]!;
    const r = await fetch(style.url, host);
    assert.equal(r.statusCode, 200);
    assert.equal(r.body, "body{color:red;margin:0}.a>.b{padding:1px}");
    assert.equal(r.headers["content-type"], "text/css; charset=utf-8");
    assert.equal(r.headers["cache-control"], "public, max-age=31536000, immutable");
    assert.equal(r.headers.etag, `"${hash}"`);
    assert.equal(r.headers.vary, "Accept-Encoding");
    assert.equal(r.headers["x-content-type-options"], "nosniff");
    assert.equal(r.headers["content-length"], String(Buffer.byteLength(r.body)));
    assert.equal(r.headers["content-encoding"], undefined);
    assert.equal((await fetch(`${style.url}?v=2`, host)).body, r.body, "the query string is ignored");
    const head = await fetch(style.url, host, {}, "HEAD");
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, "");
    assert.equal(head.headers["content-length"], r.headers["content-length"]);
  });

  it("vendor prefixes follow the browserslist target: user-select gains -webkit-", async () => {
    const { id, host } = await fresh();
    const style = await put(id, "prefixed", ".x { user-select: none }");
    assert.equal((await fetch(style.url, host)).body, ".x{-webkit-user-select:none;user-select:none}");
  });

  it("Accept-Encoding chooses br, else gzip, else none; the compressed forms were made once and decode to the same bytes", async () => {
    const { id, host } = await fresh();
    const css = Array.from(
      { length: 200 },
      (_, i) => `.c${i} { color: #${(i * 4099).toString(16).padStart(6, "0").slice(-6)}; margin: ${i}px }`,
    ).join("\n");
    const style = await put(id, "big", css);
    const plain = await fetch(style.url, host);
    const hash = /\.([0-9a-f]{16})\.css$/.exec(style.url)![1]!;
    const cases: Array<[string | undefined, string | undefined]> = [
      [undefined, undefined],
      ["identity", undefined],
      ["gzip, deflate, br", "br"],
      ["br", "br"],
      ["*", "br"],
      ["gzip", "gzip"],
      ["x-gzip", "gzip"],
      ["gzip, br;q=0", "gzip"],
      ["br;q=0.5, gzip", "gzip"],
      ["br;q=1.0, gzip;q=0.8", "br"],
      ["deflate", undefined],
      ["*;q=0", undefined],
    ];
    for (const [accept, coding] of cases) {
      const r = await fetch(style.url, host, accept === undefined ? {} : { "accept-encoding": accept });
      assert.equal(r.statusCode, 200, String(accept));
      assert.equal(r.headers["content-encoding"], coding, String(accept));
      assert.equal(r.headers.etag, coding ? `"${hash}-${coding}"` : `"${hash}"`, String(accept));
      const bytes = r.rawPayload;
      assert.equal(r.headers["content-length"], String(bytes.length));
      const decoded = coding === "br" ? brotliDecompressSync(bytes) : coding === "gzip" ? gunzipSync(bytes) : bytes;
      assert.equal(decoded.toString("utf8"), plain.body, String(accept));
      if (coding) assert.ok(bytes.length < plain.rawPayload.length / 2, `${accept}: compressed`);
    }
    const stored = await t.store.db
      .selectFrom("style_copies")
      .select(["br", "gzip"])
      .where("site_id", "=", id)
      .where("hash", "=", hash)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      Buffer.from(stored.br),
      (await fetch(style.url, host, { "accept-encoding": "br" })).rawPayload,
      "served as stored, not compressed per request",
    );
    assert.deepEqual(
      Buffer.from(stored.gzip),
      (await fetch(style.url, host, { "accept-encoding": "gzip" })).rawPayload,
    );
  });

  it("If-None-Match naming the copy in any encoding answers 304 without a body", async () => {
    const { id, host } = await fresh();
    const style = await put(id, "etag", "a{color:red}");
    const hash = /\.([0-9a-f]{16})\.css$/.exec(style.url)![1]!;
    for (const tag of [`"${hash}"`, `"${hash}-br"`, `W/"${hash}-gzip"`, `"other", "${hash}"`, "*"]) {
      const r = await fetch(style.url, host, { "if-none-match": tag, "accept-encoding": "br" });
      assert.equal(r.statusCode, 304, tag);
      assert.equal(r.body, "");
      assert.equal(r.headers.etag, `"${hash}-br"`);
      assert.equal(r.headers["cache-control"], "public, max-age=31536000, immutable");
    }
    assert.equal((await fetch(style.url, host, { "if-none-match": `"${"0".repeat(16)}"` })).statusCode, 200);
  });

  it("a stylesheet answers on its own site's domain only: elsewhere, and for an address naming no copy, the site's ordinary 404", async () => {
    const mine = await fresh();
    const theirs = await fresh();
    const style = await put(mine.id, "own", "a{color:red}");
    const never = await fetch("/never-was-a-page/", theirs.host);
    assert.equal(never.statusCode, 404);
    for (const [url, host] of [
      [style.url, theirs.host],
      [style.url, "localhost"],
      [style.url.replace(/[0-9a-f]{16}/, "0123456789abcdef"), mine.host],
      ["/styles/nothing.0123456789abcdef.css", mine.host],
      ["/styles/own.css", mine.host],
    ] as const) {
      const r = await fetch(url, host);
      assert.equal(r.statusCode, 404, `${url} on ${host}`);
      assert.equal(r.body, never.body, `${url} on ${host}: the same bytes as any 404`);
      assert.equal(r.headers["content-type"], never.headers["content-type"]);
    }
    assert.equal((await fetch(style.url, mine.host)).statusCode, 200);
  });

  it("a replaced address answers its own bytes (never the newer ones) for 24 hours after it was replaced, then 404; a deleted stylesheet's too", async (c) => {
    c.mock.timers.enable({ apis: ["Date"], now: Date.parse("2030-01-01T00:00:00Z") });
    const { id, host } = await fresh();
    const first = await put(id, "daily", "a{color:red}");
    await put(id, "gone-soon", "b{color:red}");
    const doomed = (await t.call("GET", `/api/site/${id}/styles/gone-soon`)).body.style;
    assert.equal((await fetch(first.url, host)).body, "a{color:red}", "read while current: kept in memory");
    c.mock.timers.tick(60 * 60 * 1000);
    const second = await put(id, "daily", "a{color:green}");
    assert.equal((await t.call("DELETE", `/api/site/${id}/styles/gone-soon`)).status, 200);
    const hour = 60 * 60 * 1000;
    c.mock.timers.tick(23 * hour + 1000);
    assert.equal(
      (await fetch(first.url, host)).body,
      "a{color:red}",
      "24 hours after it was read, but not after it was replaced",
    );
    assert.equal((await fetch(second.url, host)).body, "a{color:green}");
    c.mock.timers.tick(hour - 2000);
    assert.equal((await fetch(first.url, host)).statusCode, 200, "a second before its 24 hours are up");
    assert.equal((await fetch(doomed.url, host)).statusCode, 200);
    c.mock.timers.tick(2000);
    assert.equal((await fetch(first.url, host)).statusCode, 404);
    assert.equal((await fetch(doomed.url, host)).statusCode, 404);
    assert.equal((await fetch(second.url, host)).statusCode, 200, "the current copy answers as long as it is current");
    c.mock.timers.tick(30 * 24 * hour);
    assert.equal((await fetch(second.url, host)).statusCode, 200);
    // The next write of the site's stylesheets drops the copies past their time.
    await put(id, "another", "i{color:red}");
    const left = await t.store.db
      .selectFrom("style_copies")
      .select("name")
      .where("site_id", "=", id)
      .orderBy("name")
      .execute();
    assert.deepEqual(
      left.map((row) => row.name),
      ["another", "daily"],
    );
  });

  it("writing a stylesheet back as it was makes its earlier address current again", async () => {
    const { id, host } = await fresh();
    const a = await put(id, "toggle", "a{color:red}");
    const b = await put(id, "toggle", "a{color:blue}");
    const again = await put(id, "toggle", "a{color:red}");
    assert.equal(again.url, a.url);
    assert.notEqual(b.url, a.url);
    assert.equal((await fetch(a.url, host)).body, "a{color:red}");
    const current = await t.store.db
      .selectFrom("style_copies")
      .select("hash")
      .where("site_id", "=", id)
      .where("replaced_at_gmt", "is", null)
      .execute();
    assert.equal(current.length, 1);
  });
});
