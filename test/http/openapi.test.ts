// The OpenAPI document served at GET /api/openapi.json is complete (docs/api-reference.md):
// servers, every path parameter, a unique operationId per operation (legacy twins suffixed
// Legacy), typed request bodies, a success and the error envelopes on every operation; and every
// answer under /api/ carries Link: </api/openapi.json>; rel="service-desc". (Every answer the
// suite receives is checked against the document by test/support/openapi-check.ts.)
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { problemsOf } from "../support/openapi-check.ts";

const LINK = '</api/openapi.json>; rel="service-desc"';
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

type Json = Record<string, any>;

function operations(doc: Json): Array<{ path: string; method: string; op: Json }> {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ path, method, op: op as Json })),
  );
}

/** Properties of a request body (nested objects and array items too) whose schema says nothing. */
function untyped(schema: Json | undefined, doc: Json, at = "body", seen = new Set<Json>()): string[] {
  if (!schema || typeof schema !== "object" || seen.has(schema)) return [];
  seen.add(schema);
  if (typeof schema.$ref === "string")
    return untyped(doc.components.schemas[schema.$ref.split("/").pop()!], doc, at, seen);
  const keys = Object.keys(schema).filter((key) => key !== "description" && key !== "default");
  if (keys.length === 0) return [at];
  const out: string[] = [];
  for (const [name, inner] of Object.entries((schema.properties ?? {}) as Json))
    out.push(...untyped(inner, doc, `${at}.${name}`, seen));
  if (schema.items) out.push(...untyped(schema.items, doc, `${at}[]`, seen));
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) out.push(...untyped(branch, doc, at, seen));
  return out;
}

describe("the OpenAPI document", () => {
  let t: TestApp;
  let doc: Json;
  before(async () => {
    t = await startTestApp({ env: { SVC_API_URL: "https://api.example.test/" } });
    doc = (await t.call("GET", "/api/openapi.json", { token: null })).body;
  });
  after(() => t.close());

  it("names the service's origin in servers (SVC_API_URL; default http://HOST:PORT)", async () => {
    assert.deepEqual(
      doc.servers.map((s: Json) => s.url),
      ["https://api.example.test"],
    );
    const other = await startTestApp({ env: { HOST: "0.0.0.0", PORT: "8123" } });
    try {
      const served = (await other.call("GET", "/api/openapi.json", { token: null })).body;
      assert.deepEqual(
        served.servers.map((s: Json) => s.url),
        ["http://127.0.0.1:8123"],
      );
    } finally {
      await other.close();
    }
  });

  it("declares every path parameter of every operation, site_id on the site-scoped addresses", () => {
    for (const { path, method, op } of operations(doc)) {
      const declared = (op.parameters ?? [])
        .filter((p: Json) => p.in === "path")
        .map((p: Json) => p.name)
        .sort();
      const wanted = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      assert.deepEqual(declared, wanted, `${method} ${path}`);
      for (const p of (op.parameters ?? []).filter((q: Json) => q.in === "path"))
        assert.equal(p.required, true, `${method} ${path} ${p.name}`);
    }
    const site = doc.paths["/api/site/{site_id}/frames/{ref}"].put.parameters.find((p: Json) => p.name === "site_id");
    assert.equal(site.schema.type, "integer");
  });

  it("has no two paths that differ only in their parameters' names", () => {
    const shapes = Object.keys(doc.paths).map((path) => path.replace(/\{[^}]+\}/g, "{}"));
    assert.deepEqual(
      shapes.filter((shape, i) => shapes.indexOf(shape) !== i),
      [],
    );
  });

  it("gives every operation a unique operationId; the legacy twin is the same name with Legacy", () => {
    const ids = operations(doc).map(({ path, method, op }) => {
      assert.ok(
        typeof op.operationId === "string" && /^[a-z][A-Za-z]+$/.test(op.operationId),
        `${method} ${path} has an operationId (declared in its route schema)`,
      );
      return op.operationId as string;
    });
    assert.equal(new Set(ids).size, ids.length, "unique");
    assert.equal(doc.paths["/api/site/{site_id}/frames"].get.operationId, "listFrames");
    assert.equal(doc.paths["/api/site/{site_id}/frames/{ref}"].put.operationId, "putFrame");
    assert.equal(doc.paths["/api/frames"].get.operationId, "listFramesLegacy");
    assert.equal(doc.paths["/api/frames"].get.deprecated, true);
    for (const { path, method, op } of operations(doc).filter(
      // Path-only routes: their /api addresses are the network's own calls (users, the network's events).
      (o) =>
        o.path.startsWith("/api/site/{site_id}/") &&
        !o.path.startsWith("/api/site/{site_id}/users") &&
        !o.path.startsWith("/api/site/{site_id}/events"),
    )) {
      const legacy = doc.paths[path.replace("/api/site/{site_id}", "/api")]?.[method];
      assert.equal(legacy?.operationId, `${op.operationId}Legacy`, `${method} ${path} has its legacy twin`);
      assert.ok(
        legacy.parameters.some((p: Json) => p.in === "query" && p.name === "blog_id"),
        `${method} ${path}: blog_id on the legacy twin`,
      );
    }
  });

  it("documents a success answer and both error envelopes on every operation", () => {
    for (const { path, method, op } of operations(doc)) {
      const codes = Object.keys(op.responses);
      assert.ok(
        codes.some((code) => /^2/.test(code)),
        `${method} ${path}: a 2xx answer`,
      );
      for (const range of ["4XX", "5XX"]) {
        const envelopes = op.responses[range]?.content?.["application/json"]?.schema?.anyOf ?? [];
        assert.deepEqual(
          envelopes.map((e: Json) => Object.keys(e.properties).sort()),
          [
            ["error", "message", "success"],
            ["code", "data", "message"],
          ],
          `${method} ${path} ${range}`,
        );
      }
    }
  });

  it("types every request body: no field is left without a schema, a menu's items on both addresses", () => {
    for (const { path, method, op } of operations(doc)) {
      const schema = op.requestBody?.content?.["application/json"]?.schema;
      assert.deepEqual(untyped(schema, doc), [], `${method} ${path}`);
    }
    for (const path of ["/api/site/{site_id}/menus/{ref}/items", "/api/menus/{ref}/items"]) {
      const items = doc.paths[path].put.requestBody.content["application/json"].schema.properties.items;
      assert.equal(items.type, "array", path);
      const item = doc.components.schemas[items.items.$ref.split("/").pop()];
      const object = item.anyOf.find((branch: Json) => branch.type === "object");
      for (const field of ["page", "url", "title", "target", "classes", "children"])
        assert.ok(object.properties[field], `${path}: ${field}`);
    }
  });

  it("needs no token for itself and login (security: [])", () => {
    assert.deepEqual(doc.paths["/api/openapi.json"].get.security, []);
    assert.deepEqual(doc.paths["/api/login"].post.security, []);
    assert.equal(doc.paths["/api/site/{site_id}/frames"].get.security, undefined, "the document's default: a token");
  });

  it("the answer check finds an answer its operation does not describe", () => {
    const base = {
      method: "GET",
      route: "/api/site/:site_id/frames",
      url: "/api/site/1/frames",
      contentType: "application/json",
      requestBody: undefined,
    };
    assert.deepEqual(
      problemsOf(doc, { ...base, status: 200, body: JSON.stringify({ success: true, site_id: 1, frames: [] }) }).length,
      1,
    );
    assert.match(problemsOf(doc, { ...base, status: 302, body: "" })[0], /status 302 is not documented/);
    assert.deepEqual(
      problemsOf(doc, {
        ...base,
        status: 404,
        body: JSON.stringify({ code: "site_not_found", message: "x", data: { status: 404 } }),
      }),
      [],
    );
  });
});

describe('Link: </api/openapi.json>; rel="service-desc" on every answer under /api/', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  const cases: Array<[string, string, { token?: string | null; body?: unknown; payload?: string }, number]> = [
    ["GET", "/api/openapi.json", { token: null }, 200],
    ["GET", "/api/docs", { token: null }, 200],
    ["GET", "/api/docs/no-such-file", { token: null }, 404],
    ["GET", "/api/site/1/frames", {}, 200],
    ["GET", "/api/frames", {}, 200],
    ["GET", "/api/site/1/frames", { token: null }, 401],
    ["GET", "/api/site/1/frames", { token: `op_${"x".repeat(64)}` }, 401],
    ["GET", "/api/no-such-call", {}, 404],
    ["DELETE", "/api/profile", {}, 405],
    ["GET", "/api/site/999/frames", {}, 404],
    ["GET", "/api/site/1/frames/nope", {}, 404],
    ["POST", "/api/site/1/frames", { payload: "{not json" }, 400],
    ["PUT", "/api/site/1/data/team", { body: { items: "no" } }, 400],
    ["GET", "/api/site/1/frames/defaults", {}, 410],
    ["POST", "/api/login", { token: null, body: { login: "nobody", password: "x" } }, 401],
  ];
  for (const [method, url, options, status] of cases) {
    it(`${method} ${url} → ${status}`, async () => {
      const r = await t.call(method, url, options);
      assert.equal(r.status, status, r.text);
      assert.equal(r.headers.link, LINK);
    });
  }

  it("a paged list keeps it beside its prev and next links", async () => {
    for (const slug of ["a", "b"]) {
      const made = await t.call("POST", "/api/site/1/frames", { body: { slug, html: "<p>x</p>" } });
      assert.equal(made.status, 201, made.text);
    }
    const r = await t.call("GET", "/api/site/1/frames?per_page=1");
    assert.match(String(r.headers.link), /^<\/api\/openapi\.json>; rel="service-desc", <[^>]+page=2>; rel="next"$/);
  });

  it("public pages do not carry it", async () => {
    const r = await t.app.inject({ method: "GET", url: "/", headers: { host: "localhost" } });
    assert.equal(r.headers.link, undefined);
  });
});
