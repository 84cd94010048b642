// No upload ends the process (docs/security.md, "Uploads that break"). The shapes that did, over a
// real socket: a multipart file part cut off before the closing boundary (a zero-byte file at the
// end of the form; another part after the file, unterminated), a text field cut off after a whole
// file (a 500), a file over the limit whose stream was failed by the parser after the store stopped
// reading it, and clients that go away mid-body. Each is refused with a 4xx (400 invalid_body
// when the body is malformed), leaves no row, no blob and no temporary, and the next request is
// answered. Each of POST /media and PUT /media/{ref}.
//
// The app runs in this process: an 'error' event nobody listens to is an uncaught exception,
// which ends the service's process; the test runner catches it instead (and blames whichever test
// runs then), so every one is watched for here (uncaughtExceptionMonitor) and must not happen.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { startTestApp, type TestApp } from "../support/app.ts";
import { noisyPng } from "../media/serving-helpers.ts";
import { multipartBody, site, storeState, temporaries, until } from "../media/upload-helpers.ts";

const B = "----crash-shape";
const TYPE = `multipart/form-data; boundary=${B}`;
/** Over the 64 KiB sniffed before anything is stored, so a file reaches the store before its end. */
const MAX_BYTES = 256 * 1024;
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>`;

const part = (disposition: string, type: string | null, data: string) =>
  `--${B}\r\nContent-Disposition: form-data; ${disposition}\r\n${type === null ? "" : `Content-Type: ${type}\r\n`}\r\n${data}`;

/** The bodies that once ended the process (or answered 500), by what they are. */
const SHAPES: Array<[string, string]> = [
  [
    "a zero-byte file at the end of the form, no closing boundary",
    part('name="file"; filename="a.png"', "image/png", ""),
  ],
  [
    "a whole file, then another file part without a closing boundary (about 150 bytes)",
    `${part('name="file"; filename="a.svg"', "image/svg+xml", SVG)}\r\n${part('name="extra"; filename="x.bin"', null, "abc")}`,
  ],
  [
    "a whole file, then a text field cut off",
    `${part('name="file"; filename="a.svg"', "image/svg+xml", SVG)}\r\n${part('name="alt"', null, "a beach")}`,
  ],
  [
    "an ignored part first, cut off in its headers",
    `--${B}\r\nContent-Disposition: form-data; name="other"; filename="o.bin"\r\nContent-Ty`,
  ],
  ["a file cut off inside its data", part('name="file"; filename="a.svg"', "image/svg+xml", SVG.slice(0, 20))],
];

interface Reply {
  status: number;
  body: any;
}

/**
 * Writes a request's head and then each of `chunks` on a socket of its own, exactly as given
 * (one write each); answers the reply once its body is whole. `hold`: the socket stays open after
 * the last chunk, the body unfinished.
 */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  chunks: Buffer[],
  token: string,
  hold = false,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = Buffer.alloc(0);
    socket.on("data", (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = received.subarray(0, end).toString("latin1");
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (received.length < end + 4 + length) return;
      socket.destroy();
      const text = received.subarray(end + 4, end + 4 + length).toString("utf8");
      resolve({ status: Number(head.split(" ")[1]), body: text ? JSON.parse(text) : null });
    });
    socket.on("error", reject);
    socket.on("close", () =>
      reject(new Error(`the connection closed without a whole answer: ${received.toString("latin1").slice(0, 200)}`)),
    );
    const lines = Object.entries({ host: "localhost", authorization: `Bearer ${token}`, ...headers }).map(
      ([name, value]) => `${name}: ${value}\r\n`,
    );
    socket.write(`${method} ${path} HTTP/1.1\r\n${lines.join("")}\r\n`);
    for (const chunk of chunks)
      socket.write(
        headers["transfer-encoding"] === "chunked"
          ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")])
          : chunk,
      );
    if (!hold && headers["transfer-encoding"] === "chunked") socket.write("0\r\n\r\n");
  });
}

describe("malformed, truncated and aborted uploads over a socket", () => {
  let t: TestApp;
  let port: number;
  let existing: number;
  const crashes: Error[] = [];
  const watch = (error: Error) => crashes.push(error);
  /** The process would still be running, and answers. */
  const serving = async () => {
    assert.deepEqual(
      crashes.splice(0).map((error) => error.message),
      [],
      "no uncaught exception (it ends the process)",
    );
    assert.equal((await send(port, "GET", "/healthz", {}, [], t.adminToken)).status, 200);
  };

  before(async () => {
    process.on("uncaughtExceptionMonitor", watch);
    t = await startTestApp({ env: { SVC_MEDIA_MAX_BYTES: String(MAX_BYTES) } });
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    // A file for PUT to replace.
    const { body, type } = await multipartBody([
      ["file", { data: Buffer.from(SVG), filename: "kept.svg", type: "image/svg+xml" }],
    ]);
    const created = await send(
      port,
      "POST",
      `${site(1)}/media`,
      { "content-type": type, "content-length": String(body.length) },
      [body],
      t.adminToken,
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    existing = created.body.media.id;
  });
  after(async () => {
    process.off("uncaughtExceptionMonitor", watch);
    await t.close();
  });

  for (const [method, path] of [
    ["POST", () => `${site(1)}/media`],
    ["PUT", () => `${site(1)}/media/${existing}`],
  ] as const) {
    for (const [shape, body] of SHAPES) {
      it(`${method}: ${shape} is 400 invalid_body, stores nothing, and the process keeps serving`, async () => {
        const before = await storeState(t);
        const bytes = Buffer.from(body);
        const answer = await send(
          port,
          method,
          path(),
          { "content-type": TYPE, "content-length": String(bytes.length) },
          [bytes],
          t.adminToken,
        );
        assert.equal(answer.status, 400, JSON.stringify(answer.body));
        assert.equal(answer.body.code ?? answer.body.error, "invalid_body", JSON.stringify(answer.body));
        assert.deepEqual(await storeState(t), before, "no row, blob or temporary is left");
        await serving();
      });
    }

    it(`${method}: a multipart file over the limit, the rest held back, is 413 media_too_large and the parser's later failure of the file ends nothing`, async () => {
      const before = await storeState(t);
      const head = Buffer.from(
        part('name="file"; filename="big.svg"', "image/svg+xml", `<svg xmlns="http://www.w3.org/2000/svg">`),
      );
      // Past the limit in a second write; the body never ends, so the parser fails the file stream
      // once the refusal abandons it (after the store stopped reading it).
      const answer = await send(
        port,
        method,
        path(),
        { "content-type": TYPE, "transfer-encoding": "chunked" },
        [head, Buffer.alloc(MAX_BYTES * 2, 0x20)],
        t.adminToken,
        true,
      );
      assert.equal(answer.status, 413, JSON.stringify(answer.body));
      assert.equal(answer.body.error, "media_too_large");
      await until(() => temporaries(t.dataDir).length === 0, "the refused upload's temporary to go");
      assert.deepEqual(await storeState(t), before);
      await serving();
    });

    for (const form of ["raw", "multipart"] as const) {
      it(`${method}: a ${form} upload whose client goes away mid-body stores nothing, and the process keeps serving`, async () => {
        const before = await storeState(t);
        const png = await noisyPng(300, 200);
        assert.ok(png.length > 96 * 1024 && png.length < MAX_BYTES);
        const headers: Record<string, string> = { authorization: `Bearer ${t.adminToken}` };
        let data: Buffer;
        if (form === "raw") {
          data = png;
          headers["content-type"] = "image/png";
        } else {
          const built = await multipartBody([
            ["file", { data: png, filename: "gone.png", type: "image/png" }],
            ["alt", "never"],
          ]);
          data = built.body;
          headers["content-type"] = built.type;
        }
        headers["content-length"] = String(data.length);
        const query = form === "raw" ? "?filename=gone.png" : "";
        const req = request({ host: "127.0.0.1", port, method, path: `${path()}${query}`, headers });
        req.on("error", () => undefined); // destroyed on purpose
        req.write(data.subarray(0, 96 * 1024));
        try {
          // Once the store is writing the file, the client goes.
          await until(() => temporaries(t.dataDir).length > 0, "the upload to reach the store");
        } finally {
          req.destroy();
        }
        await until(() => temporaries(t.dataDir).length === 0, "the aborted upload's temporary to go");
        await serving();
        assert.deepEqual(await storeState(t), before);
      });
    }
  }
});
