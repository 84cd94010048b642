// The size limit over a real socket (docs/media.md, "Uploads"): a 26 MiB upload against the default
// limit of 25 MiB is answered 413 media_too_large while the client is still sending (chunked, so no
// Content-Length warns the server), raw and multipart; nothing is kept, not even a temporary.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { startTestApp, type TestApp } from "../support/app.ts";
import { noisyPng } from "./serving-helpers.ts";
import { multipartBody, site, storedFiles } from "./upload-helpers.ts";

const MiB = 1024 * 1024;
const TOTAL = 26 * MiB;

interface Streamed {
  status: number;
  body: any;
  /** Bytes written by the client when the answer's headers arrived. */
  sentWhenAnswered: number;
  total: number;
}

/** Past the limit by this much the client holds the rest back until it is answered (or 10 s pass). */
const HOLD_AFTER = 25 * MiB + MiB / 4;

/**
 * Sends `head`, then zeros up to `total` bytes, then `tail`, in 256 KiB chunks without
 * Content-Length; stops once answered. Past HOLD_AFTER bytes it waits for the answer before
 * sending more, so a server that needed the whole body would answer only after 10 s.
 */
function streamUpload(
  port: number,
  path: string,
  headers: Record<string, string>,
  head: Buffer,
  total: number,
  tail: Buffer,
  token: string,
): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    let onAnswer = () => {};
    const answer = new Promise<void>((done) => (onAnswer = done));
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path,
        headers: { ...headers, authorization: `Bearer ${token}`, "transfer-encoding": "chunked" },
      },
      (res) => {
        answered = true;
        onAnswer();
        const sentWhenAnswered = sent;
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
            sentWhenAnswered,
            total,
          });
          req.destroy();
        });
      },
    );
    // Once answered, the server closes the connection: writes after that may fail, as they should.
    req.on("error", (error) => (answered ? undefined : reject(error)));
    const zeros = Buffer.alloc(256 * 1024);
    const pump = async () => {
      const write = (chunk: Buffer) =>
        new Promise<void>((done) => (req.write(chunk) ? done() : req.once("drain", done)));
      await write(head);
      sent += head.length;
      while (!answered && sent + tail.length < total) {
        const chunk = zeros.subarray(0, Math.min(zeros.length, total - tail.length - sent));
        await write(chunk);
        sent += chunk.length;
        if (sent >= HOLD_AFTER) await Promise.race([answer, new Promise((r) => setTimeout(r, 10_000))]);
      }
      if (!answered) {
        req.end(tail);
        sent += tail.length;
      }
    };
    pump().catch(() => undefined);
  });
}

describe("the media size limit over a socket", () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await startTestApp();
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  it("the default limit is 25 MiB", () => {
    assert.equal(t.config.mediaMaxBytes, 25 * MiB);
  });

  it("a raw 26 MiB upload is refused 413 media_too_large before the client has sent it all; nothing is kept", async () => {
    const png = await noisyPng(64, 64);
    const r = await streamUpload(
      port,
      `${site(1)}/media?filename=huge.png`,
      { "content-type": "image/png" },
      png,
      TOTAL,
      Buffer.alloc(0),
      t.adminToken,
    );
    assert.equal(r.status, 413);
    assert.deepEqual([r.body.error, r.body.max_bytes], ["media_too_large", 25 * MiB]);
    assert.ok(r.sentWhenAnswered < TOTAL, `answered after ${r.sentWhenAnswered} of ${TOTAL} bytes`);
    assert.deepEqual(storedFiles(t.dataDir), []);
    assert.deepEqual(readdirSync(join(t.dataDir, "media", "tmp")), [], "the temporary is removed");
    assert.equal((await t.call("GET", `${site(1)}/media`)).body.total, 0);
  });

  it("a multipart 26 MiB upload is refused the same way; so is a 26 MiB text file (the size is checked before the type)", async () => {
    const { body, type } = await multipartBody([
      ["alt", "big"],
      ["file", { data: await noisyPng(64, 64), filename: "huge.png", type: "image/png" }],
    ]);
    // The form up to the end of the PNG, then zeros, then the closing boundary.
    const boundary = /boundary=(.+)$/.exec(type)![1]!;
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const head = body.subarray(0, body.length - tail.length);
    const r = await streamUpload(port, `${site(1)}/media`, { "content-type": type }, head, TOTAL, tail, t.adminToken);
    assert.equal(r.status, 413);
    assert.equal(r.body.error, "media_too_large");
    assert.ok(r.sentWhenAnswered < TOTAL, `answered after ${r.sentWhenAnswered} of ${TOTAL} bytes`);
    const text = await streamUpload(
      port,
      `${site(1)}/media?filename=huge.txt`,
      { "content-type": "text/plain" },
      Buffer.from("plain text\n"),
      TOTAL,
      Buffer.alloc(0),
      t.adminToken,
    );
    assert.deepEqual([text.status, text.body.error], [413, "media_too_large"]);
    assert.ok(text.sentWhenAnswered < TOTAL);
    assert.deepEqual(storedFiles(t.dataDir), []);
    assert.deepEqual(readdirSync(join(t.dataDir, "media", "tmp")), []);
  });

  it("with a Content-Length over the limit the refusal comes before a byte of the body is sent", async () => {
    const r = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: `${site(1)}/media?filename=x.png`,
          headers: {
            authorization: `Bearer ${t.adminToken}`,
            "content-type": "image/png",
            "content-length": String(TOTAL),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
          );
        },
      );
      req.on("error", reject);
      req.flushHeaders(); // headers only: no body byte is ever written
    });
    assert.deepEqual([r.status, r.body.error], [413, "media_too_large"]);
  });
});
