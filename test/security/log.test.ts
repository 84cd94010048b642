// No secret reaches a log (docs/security.md). Before: every request's address was written to the
// log at the default level, so a preview link's token (`/_preview/<token>`, which shows a draft
// to whoever holds it) and any `?token=` a client put in a query stayed in the log files for
// whoever reads them. Now the logger masks them, and redacts bearer tokens (Authorization,
// X-Svc-Key), cookies, passwords and secrets wherever a log line carries headers or a body, at
// every level. The app logs at trace into memory here, so every line it can write is read.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import type { AddressInfo } from "node:net";
import { Type } from "@sinclair/typebox";
import { makeUser, startTestApp, type TestApp } from "../support/app.ts";
import { rawRequest } from "../support/raw-http.ts";
import { previewSite } from "../preview/helpers.ts";
import { loggableUrl } from "../../src/http/log-redaction.ts";
import { PREVIEW_PATH } from "../../src/preview/links.ts";

const PASSWORD = "pw-Secret-Horse-1234";
const COOKIE = "session=Cookie-Secret-5678";
const QUERY_SECRET = "Query-Secret-9012";

describe("security: no secret reaches a log", () => {
  const lines: string[] = [];
  let t: TestApp;
  let port = 0;
  let userToken = "";
  let previewToken = "";
  let host = "";

  before(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    t = await startTestApp({
      build: { logger: { level: "trace", stream } },
      beforeReady(app) {
        // A careless handler that logs everything it was sent: redaction must still hold.
        app.post(
          "/test/logs-everything",
          { schema: { hide: true, body: Type.Object({}, { additionalProperties: true }) } },
          async (request) => {
            request.log.trace({ req: request, headers: request.headers, body: request.body }, "received");
            request.log.info({ headers: request.headers, body: request.body }, "received");
            return { ok: true };
          },
        );
      },
      checkAnswers: false,
    });
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    userToken = (await makeUser(t, "logged", { password: PASSWORD })).token;
    const site = await previewSite(t, "logs");
    host = `${site.domain}:8080`;
    const link = await t.call("POST", site.at("/preview/links"), { body: { page: "about" } });
    assert.equal(link.status, 201, link.text);
    previewToken = /\/_preview\/([A-Za-z0-9_-]+)$/.exec(link.body.url)![1];
  });
  after(() => t.close());

  /** The secrets the requests below carry, each of which must be missing from every log line. */
  const secrets = () => ({
    "admin bearer token": t.adminToken,
    "user token (X-Svc-Key)": userToken,
    cookie: "Cookie-Secret-5678",
    password: PASSWORD,
    "preview token": previewToken,
    "query token": QUERY_SECRET,
  });

  function assertNoSecret(what: string): void {
    assert.ok(lines.length > 0, "the app logged");
    const log = lines.join("");
    for (const [name, secret] of Object.entries(secrets())) {
      assert.ok(secret.length >= 16, name);
      assert.ok(
        !log.includes(secret),
        `${what}: the ${name} is in the log:\n${lines.find((line) => line.includes(secret))}`,
      );
    }
  }

  it("requests carrying each secret leave none of them in the log at any level: preview links, bearer tokens, X-Svc-Key, cookies, login passwords, ?token=", async () => {
    const cookie = { cookie: COOKIE };
    assert.equal((await t.call("GET", "/api/profile", { headers: cookie })).status, 200);
    assert.equal(
      (await t.call("GET", "/api/profile", { token: null, headers: { "x-svc-key": userToken, ...cookie } })).status,
      200,
    );
    assert.equal((await t.call("GET", "/api/profile", { token: `${userToken}x` })).status, 401, "a bad token");
    assert.equal(
      (await t.call("POST", "/api/login", { token: null, body: { login: "logged", password: PASSWORD } })).status,
      200,
    );
    assert.equal(
      (await t.call("POST", "/api/login", { token: null, body: { login: "logged", password: `${PASSWORD}!` } })).status,
      401,
    );
    assert.equal((await t.call("GET", `/api/profile?token=${QUERY_SECRET}&access_token=${QUERY_SECRET}`)).status, 200);
    // The preview link, through Fastify and over a socket, with a query; a tampered one too.
    const shown = await t.app.inject({ method: "GET", url: `/_preview/${previewToken}`, headers: { host, ...cookie } });
    assert.equal(shown.statusCode, 200);
    assert.equal((await rawRequest(port, `/_preview/${previewToken}?x=1`, { host })).status, 200);
    assert.equal(
      (
        await rawRequest(port, `/_preview/${previewToken.slice(0, -1)}${previewToken.endsWith("A") ? "B" : "A"}`, {
          host,
        })
      ).status,
      404,
    );
    // A page held in memory, answered by the raw listener before Fastify, with a token in its query.
    assert.equal((await rawRequest(port, "/about/", { host })).status, 200);
    assert.equal(
      (
        await rawRequest(port, `/about/?token=${QUERY_SECRET}`, {
          host,
          headers: { authorization: `Bearer ${t.adminToken}`, ...cookie },
        })
      ).status,
      200,
    );
    // A method the preview link does not take: no route, so its line names the address, masked.
    assert.equal((await rawRequest(port, `/_preview/${previewToken}`, { host, method: "POST" })).status, 405);
    assert.ok(
      lines.some((line) => line.includes('"route":"/_preview/:token"')),
      "preview requests are logged by their route",
    );
    assert.ok(
      lines.some((line) => line.includes('"route":"/_preview/[redacted]"')),
      "and an unrouted one by its address, masked",
    );
    assert.ok(
      lines.some((line) => line.includes('"route":"/*","method":"GET","status":200')),
      "pages from memory are logged, without their query",
    );
    assertNoSecret("requests");
  });

  it("a log line that carries a request's headers or body keeps no token, cookie or password", async () => {
    const answer = await t.call("POST", "/test/logs-everything", {
      headers: { "x-svc-key": userToken, cookie: COOKIE },
      body: {
        login: "logged",
        password: PASSWORD,
        token: userToken,
        nested: { password: PASSWORD, secret: QUERY_SECRET, webhook_secret: QUERY_SECRET },
      },
    });
    assert.equal(answer.status, 200);
    assert.ok(
      lines.some((line) => line.includes('"received"')),
      "the handler's lines were written",
    );
    assertNoSecret("a handler's log");
  });
});

describe("security: the address a log keeps", () => {
  it("masks a preview link's token and the value of every secret-looking query parameter, and nothing else", () => {
    const loggable = (url: string) => loggableUrl(url, [PREVIEW_PATH]);
    assert.equal(loggable("/_preview/abcDEF123_-xyz"), "/_preview/[redacted]");
    assert.equal(loggable("/_preview/abc?x=1"), "/_preview/[redacted]?x=1");
    assert.equal(loggable("/api/profile?token=s3cret&page=2"), "/api/profile?token=[redacted]&page=2");
    assert.equal(
      loggable("/x?access_token=a&api_key=b&Password=c&client_secret=d&sig=e"),
      "/x?access_token=[redacted]&api_key=[redacted]&Password=[redacted]&client_secret=[redacted]&sig=e",
    );
    assert.equal(loggable("/_preview/abc/more?token=t"), "/_preview/[redacted]/more?token=[redacted]");
    assert.equal(loggable("/x?%74oken=a&t%zz=b"), "/x?%74oken=[redacted]&t%zz=b");
    assert.equal(
      loggable("/x?auth=a&apikey=b&keyword=c&author=d"),
      "/x?auth=[redacted]&apikey=[redacted]&keyword=c&author=d",
    );
    assert.equal(loggable("/about/?utm_source=news"), "/about/?utm_source=news");
    assert.equal(loggable("/api/site/3/pages?per_page=10"), "/api/site/3/pages?per_page=10");
  });
});
