import { after, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { postWebhook, WEBHOOK_USER_AGENT } from "../../src/webhooks/post.ts";
import { freePort } from "../support/ports.ts";

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

// One local receiver; each test says how it answers.
let answer: (request: http.IncomingMessage, response: http.ServerResponse) => void;
const received: Received[] = [];
let closedResponses = 0;
let server: http.Server;
let base: string;

before(async () => {
  server = http.createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    received.push({ method: request.method!, url: request.url!, headers: request.headers, body });
    response.on("close", () => closedResponses++);
    answer(request, response);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  received.length = 0;
  closedResponses = 0;
  answer = (_request, response) => response.end("ok");
});

const local = { timeoutMs: 2000, allowPrivate: true };

describe("postWebhook", () => {
  it("POSTs the body as JSON with the caller's headers, and answers the status and body", async () => {
    const body = JSON.stringify({ type: "page.published", note: "é" });
    const result = await postWebhook(
      `${base}/hooks/in?site=1`,
      { "X-Svc-Signature": "t=1,v1=abc", "content-type": "text/plain", "user-agent": "spoofed" },
      body,
      local,
    );
    assert.equal(result.status, 200);
    assert.equal(result.body, "ok");
    assert.equal(result.error, null);
    assert.ok(result.durationMs >= 0 && result.durationMs < 2000);
    assert.equal(received.length, 1);
    const [request] = received;
    assert.equal(request.method, "POST");
    assert.equal(request.url, "/hooks/in?site=1");
    assert.equal(request.body, body);
    assert.equal(request.headers["content-type"], "application/json");
    assert.equal(request.headers["user-agent"], WEBHOOK_USER_AGENT);
    assert.equal(request.headers["content-length"], String(Buffer.byteLength(body)));
    assert.equal(request.headers["x-svc-signature"], "t=1,v1=abc");
  });

  it("does not follow a redirect: the 3xx is the answer", async () => {
    answer = (_request, response) => {
      response.writeHead(302, { Location: "/elsewhere" });
      response.end("moved");
    };
    const result = await postWebhook(`${base}/hook`, {}, "{}", local);
    assert.deepEqual(
      { status: result.status, body: result.body, error: result.error },
      {
        status: 302,
        body: "moved",
        error: null,
      },
    );
    assert.deepEqual(
      received.map((request) => request.url),
      ["/hook"],
    );
  });

  it("keeps only the first maxBodyBytes of the answer, and leaves a character cut in two out", async () => {
    answer = (_request, response) => response.end("x".repeat(5000));
    assert.equal((await postWebhook(`${base}/`, {}, "{}", local)).body, "x".repeat(1024));
    assert.equal((await postWebhook(`${base}/`, {}, "{}", { ...local, maxBodyBytes: 10 })).body, "x".repeat(10));
    answer = (_request, response) => response.end("éééé");
    assert.equal((await postWebhook(`${base}/`, {}, "{}", { ...local, maxBodyBytes: 5 })).body, "éé");
  });

  it("stops reading an endless answer at maxBodyBytes and closes the connection", async () => {
    answer = (_request, response) => {
      const timer = setInterval(() => response.write("y".repeat(100)), 5);
      response.on("close", () => clearInterval(timer));
    };
    const result = await postWebhook(`${base}/`, {}, "{}", { ...local, maxBodyBytes: 300 });
    assert.equal(result.status, 200);
    assert.equal(result.body, "y".repeat(300));
    assert.ok(result.durationMs < 1000, `${result.durationMs} ms`);
    const deadline = Date.now() + 2000;
    while (closedResponses === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(closedResponses, 1);
  });

  it("a receiver that never answers is a timeout, within timeoutMs", async () => {
    answer = () => {};
    const result = await postWebhook(`${base}/`, {}, "{}", { ...local, timeoutMs: 300 });
    assert.equal(result.status, null);
    assert.equal(result.error, "timeout");
    assert.ok(result.durationMs >= 290 && result.durationMs < 1000, `${result.durationMs} ms`);
    assert.equal(received.length, 1);
  });

  it("a port nobody listens on is refused", async () => {
    const result = await postWebhook(`http://127.0.0.1:${await freePort()}/`, {}, "{}", local);
    assert.deepEqual({ status: result.status, error: result.error }, { status: null, error: "refused" });
  });

  it("a name that does not resolve is a dns error", async () => {
    const result = await postWebhook("http://hooks.invalid/", {}, "{}", { ...local, timeoutMs: 5000 });
    assert.equal(result.error, "dns");
  });

  it("with private addresses not allowed, loopback is never connected to, by address or by name", async () => {
    const port = new URL(base).port;
    for (const host of ["127.0.0.1", "[::ffff:127.0.0.1]", "[::1]", "localhost", "localhost."]) {
      const result = await postWebhook(`http://${host}:${port}/`, {}, "{}", { timeoutMs: 2000, allowPrivate: false });
      assert.deepEqual({ status: result.status, error: result.error }, { status: null, error: "address_not_allowed" });
    }
    assert.equal(received.length, 0);
  });

  it("another failure is answered by the socket's error code: https to a receiver that speaks no TLS", async () => {
    const result = await postWebhook(base.replace("http:", "https:"), {}, "{}", local);
    assert.deepEqual({ status: result.status, error: result.error }, { status: null, error: "EPROTO" });
  });

  it("an invalid URL or another scheme is answered, not thrown", async () => {
    for (const url of ["not a url", "ftp://127.0.0.1/"]) {
      const result = await postWebhook(url, {}, "{}", local);
      assert.deepEqual({ status: result.status, error: result.error }, { status: null, error: "invalid_url" });
    }
  });
});
