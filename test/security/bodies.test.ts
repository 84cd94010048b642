// Bodies only where a route takes one (docs/security.md): a 12 MB JSON body POSTed to any public
// path or /healthz was read and parsed on the service's thread (1–1.5 s each) and counted by no
// limit, since only GET and HEAD counted against the public rate limit. Now a body that no route
// takes is answered before a byte of it is read (src/http/bodies.ts), and every public request
// counts, whatever its method.
// Over real sockets: each refusal must arrive while most of the body is still unsent, which
// shows it was neither read whole nor parsed.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";

const TWELVE_MB = 12 * 1024 * 1024;

/** What came back on a raw socket: the status line's code, the headers and the body as text. */
interface Reply {
  status: number;
  head: string;
  body: string;
  /** Bytes of the declared body sent when the answer's headers arrived. */
  sentWhenAnswered: number;
}

/**
 * Sends a request declaring a body of `declared` bytes, writing its first 64 KiB at once and the
 * rest only after 2 s: an answer before then was made without reading the body.
 */
function sendDeclaringBody(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  declared = TWELVE_MB,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: "127.0.0.1", port });
    let sent = 0;
    let data = "";
    let answeredAt = -1;
    const all = { host: "localhost", ...headers };
    const lines = [
      `${method} ${path} HTTP/1.1`,
      `content-length: ${declared}`,
      "content-type: application/json",
      "connection: close",
      ...Object.entries(all).map(([k, v]) => `${k}: ${v}`),
    ];
    socket.on("connect", () => {
      socket.write(`${lines.join("\r\n")}\r\n\r\n`);
      const first = Buffer.alloc(Math.min(64 * 1024, declared), "[");
      socket.write(first);
      sent = first.length;
      timer = setTimeout(() => {
        const rest = Buffer.alloc(declared - sent, "[");
        sent = declared;
        socket.write(rest);
      }, 2_000);
    });
    let timer: NodeJS.Timeout | undefined;
    socket.on("data", (chunk) => {
      if (answeredAt < 0) answeredAt = sent;
      data += chunk.toString("latin1");
      const end = data.indexOf("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(data)?.[1];
      if (end >= 0 && length !== undefined && data.length >= end + 4 + Number(length)) {
        clearTimeout(timer);
        socket.destroy();
        resolve({
          status: Number(data.slice(9, 12)),
          head: data.slice(0, end).toLowerCase(),
          body: data.slice(end + 4, end + 4 + Number(length)),
          sentWhenAnswered: answeredAt,
        });
      }
    });
    const ended = (error?: Error) => {
      clearTimeout(timer);
      if (data.includes("\r\n\r\n"))
        resolve({
          status: Number(data.slice(9, 12)),
          head: data.toLowerCase(),
          body: "",
          sentWhenAnswered: answeredAt,
        });
      else reject(error ?? new Error(`closed without an answer: ${JSON.stringify(data)}`));
    };
    socket.on("error", ended);
    socket.on("close", () => ended());
  });
}

function answeredUnread(reply: Reply, what: string): void {
  assert.ok(
    reply.sentWhenAnswered >= 0 && reply.sentWhenAnswered < TWELVE_MB,
    `${what}: answered after ${reply.sentWhenAnswered} bytes of the body were sent`,
  );
}

describe("bodies only where a route takes one; every public request counts", () => {
  let t: TestApp;
  let port: number;
  let site: string;
  const host = "bodies.localhost";

  before(async () => {
    t = await startTestApp({ env: { SVC_PUBLIC_RATE_LIMIT_PER_MIN: "1000000" } });
    site = `/api/site/${await makeSite(t, "Bodies", host)}`;
    assert.equal(
      (await t.call("POST", `${site}/frames`, { body: { slug: "plain", html: "<p>plain page</p>" } })).status,
      201,
    );
    assert.equal(
      (
        await t.call("POST", `${site}/pages`, {
          body: { title: "About", slug: "about", status: "publish", frame: "plain" },
        })
      ).status,
      201,
    );
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  it("a 12 MB body POSTed to a public page is answered 404 route_not_found before the body is read", async () => {
    const reply = await sendDeclaringBody(port, "POST", "/about/", { host });
    assert.equal(reply.status, 404, reply.head);
    assert.equal(JSON.parse(reply.body).code, "route_not_found");
    answeredUnread(reply, "POST /about/");
  });

  it("a 12 MB body to /healthz, with POST, PUT, PATCH or DELETE, is answered 405 before the body is read", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const reply = await sendDeclaringBody(port, method, "/healthz", {});
      assert.equal(reply.status, 405, `${method}: ${reply.head}`);
      answeredUnread(reply, `${method} /healthz`);
    }
  });

  it("a 12 MB body to an API route that takes none (DELETE a page) is 413 body_too_large with max_bytes 0, before the body is read; nothing is deleted", async () => {
    const reply = await sendDeclaringBody(port, "DELETE", `${site}/pages/about`, {
      authorization: `Bearer ${t.adminToken}`,
    });
    assert.equal(reply.status, 413, reply.head);
    const body = JSON.parse(reply.body);
    assert.equal(body.code, "body_too_large");
    assert.equal(body.data.max_bytes, 0);
    answeredUnread(reply, "DELETE page");
    assert.equal((await t.call("GET", `${site}/pages/about`)).status, 200, "the page is still there");
  });

  it("a 12 MB body to an unknown API address without a token is 401, and with one 404, before the body is read", async () => {
    const anonymous = await sendDeclaringBody(port, "POST", "/api/no-such-thing", {});
    assert.equal(anonymous.status, 401, anonymous.head);
    answeredUnread(anonymous, "anonymous");
    const known = await sendDeclaringBody(port, "POST", "/api/no-such-thing", {
      authorization: `Bearer ${t.adminToken}`,
    });
    assert.equal(known.status, 404, known.head);
    answeredUnread(known, "with a token");
  });

  it("a GET with a body is answered as usual: the page", async () => {
    const reply = await sendDeclaringBody(port, "GET", "/about/", { host }, 1_000);
    assert.equal(reply.status, 200, reply.head);
    assert.match(reply.body, /plain page/);
  });

  it("routes that take a body still read it: a frame written through the same path", async () => {
    const written = await t.call("POST", `${site}/frames`, { body: { slug: "second", html: "<p>second</p>" } });
    assert.equal(written.status, 201, written.text);
  });
});

describe("every public request counts against the public limit, whatever its method", () => {
  let t: TestApp;
  let port: number;
  const host = "counted.localhost";

  before(async () => {
    t = await startTestApp({ env: { SVC_PUBLIC_RATE_LIMIT_PER_MIN: "6" } });
    const site = `/api/site/${await makeSite(t, "Counted", host)}`;
    assert.equal(
      (await t.call("POST", `${site}/frames`, { body: { slug: "plain", html: "<p>plain page</p>" } })).status,
      201,
    );
    assert.equal(
      (
        await t.call("POST", `${site}/pages`, {
          body: { title: "About", slug: "about", status: "publish", frame: "plain" },
        })
      ).status,
      201,
    );
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  it("POST, PUT, DELETE, OPTIONS and PATCH to public paths spend the same budget as GET: past it, 429 with Retry-After, and the page too", async () => {
    const statuses: number[] = [];
    for (const method of ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "POST"]) {
      const r = await t.app.inject({
        method: method as "POST",
        url: "/about/",
        headers: { host },
        remoteAddress: "203.0.113.9",
      });
      statuses.push(r.statusCode);
    }
    assert.ok(
      statuses.every((s) => s === 405 || s === 404),
      statuses.join(","),
    );
    const over = await t.app.inject({
      method: "POST",
      url: "/contact/",
      headers: { host },
      remoteAddress: "203.0.113.9",
    });
    assert.equal(over.statusCode, 429);
    assert.ok(Number(over.headers["retry-after"]) > 0);
    const page = await t.app.inject({ method: "GET", url: "/about/", headers: { host }, remoteAddress: "203.0.113.9" });
    assert.equal(page.statusCode, 429, "the address's GETs are refused too: one budget");
    const other = await t.app.inject({
      method: "GET",
      url: "/about/",
      headers: { host },
      remoteAddress: "203.0.113.10",
    });
    assert.equal(other.statusCode, 200, "another address is not");
    // Over a socket (its own address, 127.0.0.1): six requests with 12 MB bodies spend the budget
    // and the seventh is 429, each answered before its body is read.
    for (let i = 0; i < 6; i++) answeredUnread(await sendDeclaringBody(port, "POST", "/about/", { host }), `body ${i}`);
    const refused = await sendDeclaringBody(port, "PUT", "/about/", { host });
    assert.equal(refused.status, 429, refused.head);
    answeredUnread(refused, "over the limit");
  });

  it("the API and /healthz spend none of it", async () => {
    for (let i = 0; i < 10; i++) {
      assert.equal(
        (await t.app.inject({ method: "GET", url: "/healthz", remoteAddress: "203.0.113.11" })).statusCode,
        200,
      );
      assert.equal(
        (await t.app.inject({ method: "POST", url: "/healthz", remoteAddress: "203.0.113.11" })).statusCode,
        405,
      );
    }
    assert.equal(
      (await t.app.inject({ method: "GET", url: "/about/", headers: { host }, remoteAddress: "203.0.113.11" }))
        .statusCode,
      200,
    );
  });
});
