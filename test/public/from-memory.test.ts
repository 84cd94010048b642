// Public pages held in memory are answered by the server's request listener before Fastify
// routes the request (src/public/routes.ts, answerFromMemory). Over real HTTP, those answers
// must be the ones the Fastify route gives: same status, body, headers and header order.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rawHeader, rawRequest, type Raw } from "../support/raw-http.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { assign, bind, frame, page } from "../support/site.ts";

let port = 0;
/** Requests that went through Fastify's hooks. */
let routed = 0;

const get = (path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> =>
  rawRequest(port, path, { headers, method });

const header = rawHeader;
/** Headers that differ between any two answers: the request id and the date. */
const comparable = (raw: Raw) => raw.headers.filter(([key]) => key !== "x-request-id" && key !== "date");

describe("public pages answered from memory", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ beforeReady: (app) => app.addHook("onRequest", async () => void routed++) });
    await frame(t, "plain", `<!DOCTYPE html><html><body><h1 ${bind("text", "site.name")}>x</h1></body></html>`);
    await frame(t, "live", `<!DOCTYPE html><html><body><h1 ${bind("text", "page.title")}>x</h1></body></html>`);
    await assign(t, "plain", (await page(t, { title: "Still" })).id);
    await assign(t, "live", (await page(t, { title: "Moving" })).id);
    await assign(t, "plain", (await page(t, { title: "Health", slug: "healthz" })).id);
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  it("a static copy answers the same from memory as through Fastify: status, body, headers in the same order", async () => {
    t.deps.publicSite.cache.flushSite();
    const before = routed;
    const routedAnswer = await get("/still/");
    const fromMemory = await get("/still/");
    assert.equal(routed, before + 1, "the second answer came from memory, without Fastify");
    assert.equal(header(fromMemory, "x-svc-printed"), "static");
    assert.equal(routedAnswer.status, 200);
    assert.equal(header(routedAnswer, "x-svc-printed"), "static");
    assert.deepEqual(
      { ...fromMemory, headers: comparable(fromMemory) },
      { ...routedAnswer, headers: comparable(routedAnswer) },
    );
    assert.match(header(fromMemory, "x-request-id") ?? "", /^[0-9a-f-]{36}$/);
    assert.notEqual(header(fromMemory, "x-request-id"), header(routedAnswer, "x-request-id"));
  });

  it("If-None-Match answers 304 the same way from memory", async () => {
    const etag = header(await get("/still/"), "etag")!;
    t.deps.publicSite.cache.flushSite();
    const before = routed;
    const routedAnswer = await get("/still/", { "if-none-match": etag });
    const fromMemory = await get("/still/", { "if-none-match": `"other", ${etag}` });
    assert.equal(routed, before + 1);
    assert.equal(routedAnswer.status, 304);
    assert.deepEqual(
      { ...fromMemory, headers: comparable(fromMemory) },
      { ...routedAnswer, headers: comparable(routedAnswer) },
    );
  });

  it("a page rendered on request is answered from memory as printed by the cache", async () => {
    t.deps.publicSite.cache.flushSite();
    const first = await get("/moving/");
    const second = await get("/moving/?utm=1");
    assert.equal(header(first, "x-svc-printed"), "on_request");
    assert.equal(header(second, "x-svc-printed"), "cache");
    assert.equal(second.body, first.body);
    assert.deepEqual(
      comparable(second).map(([key]) => key),
      comparable(first).map(([key]) => key),
    );
  });

  it("a request with a query is answered from memory once the site's redirects of one query string are known, and so is such a redirect, as Fastify answers it", async () => {
    const made = await t.call("POST", "/api/site/1/seo/redirects", { body: { from: "/still/?id=7", to: "/moving/" } });
    assert.equal(made.status, 201, made.text);
    t.deps.publicSite.cache.flushSite();
    await get("/still/");
    const before = routed;
    assert.equal((await get("/still/?utm=1")).status, 200, "through Fastify: the redirects are read");
    const page = await get("/still/?utm=2");
    assert.equal(page.status, 200);
    assert.equal(routed, before + 1, "the second from memory");
    const routedRedirect = await get("/still/?id=7");
    const fromMemory = await get("/still/?id=7");
    assert.equal(routed, before + 2, "the redirect's second answer from memory");
    assert.equal(fromMemory.status, 301);
    assert.equal(header(fromMemory, "location"), "/moving/");
    assert.deepEqual(
      { ...fromMemory, headers: comparable(fromMemory) },
      { ...routedRedirect, headers: comparable(routedRedirect) },
    );
    const gone = await t.call("DELETE", `/api/site/1/seo/redirects/${made.body.redirect.id}`);
    assert.equal(gone.status, 200, gone.text);
    await t.settled();
    assert.equal((await get("/still/?id=7")).status, 200, "deleted: the page at once");
  });

  it("what Fastify routes elsewhere stays Fastify's: /healthz, /api, HEAD, an address with U+0000", async () => {
    await get("/healthz/"); // the page at /healthz/ is never reached: the health route answers
    for (const path of ["/healthz", "/healthz/", "/healthz?x=1"]) {
      const r = await get(path);
      assert.equal(r.status, 200, path);
      assert.deepEqual(JSON.parse(r.body), { ok: true }, path);
    }
    await get("/still/");
    const nul = await get("/still/?x=%00");
    assert.equal(nul.status, 400);
    assert.equal(JSON.parse(nul.body).code, "invalid_field");
    const before = routed;
    const head = await get("/still/", {}, "HEAD");
    assert.equal(routed, before + 1, "HEAD goes through Fastify");
    assert.equal(head.status, 200);
    assert.equal(head.body, "");
    assert.equal(header(head, "x-svc-printed"), "static");
    const api = await get("/api");
    assert.equal(api.status, 401);
  });
});
