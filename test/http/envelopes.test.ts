import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { startTestApp, type TestApp } from "../support/app.ts";

describe("error envelopes", () => {
  let t: TestApp;
  const logLines: string[] = [];
  before(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    t = await startTestApp({
      build: { logger: { level: "error", stream } },
      beforeReady(app) {
        app.get("/api/test-fault", async () => {
          throw new Error("boom: an unexpected fault");
        });
      },
    });
  });
  after(() => t.close());

  const pre = (r: { status: number; body: any }, code: string) => {
    assert.deepEqual(Object.keys(r.body).sort(), ["code", "data", "message"]);
    assert.equal(r.body.code, code);
    assert.equal(r.body.data.status, r.status);
    assert.equal(typeof r.body.message, "string");
  };

  it("an unknown route answers 404 route_not_found before any handler", async () => {
    const r = await t.call("GET", "/api/no/such/route");
    assert.equal(r.status, 404);
    pre(r, "route_not_found");
  });

  it("a wrong method on a known route answers 405 method_not_allowed with Allow", async () => {
    const r = await t.call("PUT", "/api/profile");
    assert.equal(r.status, 405);
    pre(r, "method_not_allowed");
    assert.match(String(r.headers.allow), /GET/);
  });

  it("the token is checked before the route: no token on an unknown route is 401", async () => {
    assert.equal((await t.call("GET", "/api/no/such/route", { token: null })).status, 401);
  });

  it("malformed JSON answers 400 invalid_json", async () => {
    const r = await t.call("POST", "/api/sites", { payload: '{"name": "x",' });
    assert.equal(r.status, 400);
    pre(r, "invalid_json");
  });

  it("a JSON body that is not an object answers 400 invalid_body", async () => {
    for (const payload of ["[1,2]", '"text"', "42", "null"]) {
      const r = await t.call("POST", "/api/sites", { payload });
      assert.equal(r.status, 400, payload);
      pre(r, "invalid_body");
    }
  });

  it("a body over the limit answers 413 body_too_large before it is parsed", async () => {
    const r = await t.call("POST", "/api/sites", { payload: JSON.stringify({ name: "x".repeat(13 * 1024 * 1024) }) });
    assert.equal(r.status, 413);
    pre(r, "body_too_large");
  });

  it("a non-JSON content type answers 415 unsupported_media_type", async () => {
    const r = await t.call("POST", "/api/sites", {
      payload: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    assert.equal(r.status, 415);
    pre(r, "unsupported_media_type");
  });

  it("a field of the wrong type answers 400 invalid_field in the handler envelope, never a 500", async () => {
    const r = await t.call("POST", "/api/users", { body: { login: "typed", super_admin: { not: "a boolean" } } });
    assert.equal(r.status, 400);
    assert.equal(r.body.success, false);
    assert.equal(r.body.error, "invalid_field");
    assert.equal(r.body.field, "super_admin");
  });

  it("handler errors use {success: false, error, message, ...details}", async () => {
    const r = await t.call("POST", "/api/sites", { body: { domain: "a.localhost" } });
    assert.equal(r.status, 400);
    assert.deepEqual(Object.keys(r.body).sort(), ["error", "message", "success"]);
    assert.equal(r.body.success, false);
  });

  it("an unexpected fault answers 500 internal_error, logged with the request id the answer carries", async () => {
    const r = await t.call("GET", "/api/test-fault");
    assert.equal(r.status, 500);
    pre(r, "internal_error");
    assert.ok(!r.text.includes("boom"), "the fault's text is not shown to the caller");
    const id = String(r.headers["x-request-id"]);
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal(r.body.data.request_id, id);
    const logged = logLines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.reqId === id || entry.request_id === id);
    assert.ok(logged, "the fault is logged with the request id");
    assert.match(JSON.stringify(logged), /boom/);
  });

  it("every answer carries X-Request-Id, errors and successes alike, and public paths too", async () => {
    for (const [method, url] of [
      ["GET", "/api/profile"],
      ["GET", "/api/none"],
      ["GET", "/healthz"],
    ] as const) {
      const r = await t.call(method, url);
      assert.match(String(r.headers["x-request-id"]), /^[0-9a-f-]{36}$/, url);
    }
  });

  it("tokens never appear in the logs", async () => {
    await t.call("GET", "/api/test-fault");
    assert.ok(!logLines.join("").includes(t.adminToken));
  });
});

describe("health and OpenAPI", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("GET /healthz answers 200 {ok: true} without a token", async () => {
    const r = await t.call("GET", "/healthz", { token: null });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { ok: true });
  });

  it("GET /api/openapi.json is OpenAPI 3.1, needs no token, and describes every API route with its schemas", async () => {
    const r = await t.call("GET", "/api/openapi.json", { token: null });
    assert.equal(r.status, 200);
    assert.equal(r.body.openapi, "3.1.0");
    const paths = r.body.paths as Record<string, Record<string, any>>;
    const apiRoutes = t.app.routesIndex.list().filter(([url]) => url.startsWith("/api/"));
    assert.ok(apiRoutes.length > 10);
    // Templates that differ only in a parameter's name are one path (http/openapi.ts).
    const shape = (template: string) => template.replace(/\{[^}]+\}/g, "{}");
    const byShape = new Map(Object.keys(paths).map((path) => [shape(path), paths[path]]));
    for (const [url, methods] of apiRoutes) {
      const path = url.replace(/:([A-Za-z_]+)/g, "{$1}").replace(/\/$/, "");
      for (const method of methods.filter((m) => m !== "HEAD" && !t.app.routesIndex.hidden(m, url))) {
        const op = byShape.get(shape(path))?.[method.toLowerCase()];
        assert.ok(op, `${method} ${path} is in the OpenAPI description`);
        const codes = Object.keys(op.responses ?? {});
        const removed = codes.length > 0 && codes.every((code) => code === "410");
        assert.ok(
          removed || codes.some((code) => /^2/.test(code)),
          `${method} ${path} describes its success answer (or is a removed endpoint answering 410)`,
        );
      }
    }
    const expected: Array<[string, string]> = [
      ["/api/sites", "post"],
      ["/api/sites/{id}", "patch"],
      ["/api/users", "post"],
      ["/api/users/{id}/tokens/{token_id}/reissue", "post"],
      ["/api/login", "post"],
      ["/api/profile", "get"],
      ["/api/site/{site_id}/users/{user_id}", "put"],
    ];
    for (const [path, method] of expected) {
      const op = paths[path]?.[method];
      assert.ok(op, `${method} ${path} is described`);
      assert.ok(op.responses?.["200"] || op.responses?.["201"], `${method} ${path} has a success schema`);
    }
    assert.ok(paths["/api/sites"].post.requestBody, "request bodies are described");
  });
});

describe("U+0000 in input", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("a JSON string holding U+0000 is refused as 400 invalid_field naming where, on every store alike", async () => {
    const r = await t.call("POST", "/api/sites", { body: { name: "a\u0000b", domain: "nul.localhost" } });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, "invalid_field");
    assert.equal(r.body.data.field, "name");
    const nested = await t.call("PUT", "/api/site/1/data/team", { body: { items: [{ ok: "x" }, { bad: "\u0000" }] } });
    assert.equal(nested.body.data.field, "items.1.bad");
  });

  it("an address holding %00 is refused as 400, never a 500", async () => {
    const r = await t.call("GET", "/api/site/1/frames/a%00b");
    assert.equal(r.status, 400);
    const pub = await t.app.inject({ method: "GET", url: "/x%00y/", headers: { host: "localhost" } });
    assert.equal(pub.statusCode, 400);
  });
});
