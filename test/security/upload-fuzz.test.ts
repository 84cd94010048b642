// Uploads that break (docs/security.md), as a property: valid multipart uploads cut off at every
// byte, and cut, trimmed, padded and scrambled around their boundaries (fast-check), sent to POST
// /media and PUT /media/{ref}. Whatever arrives:
// - it is answered (a stall holds its handler and connection for good);
// - the answer is a 4xx or a 201 (200 for PUT), never a 5xx, and no exception goes uncaught
//   (an 'error' event nobody listens to is one, and ends the service's process; the test runner
//   would catch it instead, so it is watched for);
// - a refusal changes no row;
// - every blob in the store is named by a row, every row's blob is there, and no temporary is
//   left: nothing partial or refused is kept;
// - a stored file is a whole part of the body: its bytes stand in the body followed by a
//   delimiter, and the body has its closing delimiter after them. A body cut before its closing
//   delimiter is never stored.
// The last rule is checked on uploads sent with ?keep_metadata=1, stored as the body carried them;
// the others on every upload (a PNG's metadata, and bytes after its end, go by default:
// docs/media.md, "Private by default"). FUZZ_RUNS=<n> draws more bodies; FUZZ_SEED=<seed> repeats a run.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import sharp from "sharp";
import { startTestApp, type TestApp } from "../support/app.ts";
import { site, storedBlobs, temporaries } from "../media/upload-helpers.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

interface Part {
  name: string;
  filename?: string;
  type?: string;
  data: Buffer;
}

/** A multipart/form-data body as RFC 7578 writes it: each part after `--boundary`, then `--boundary--`. */
function formBody(boundary: string, parts: Part[]): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? "" : `; filename="${part.filename}"`}`;
    pieces.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type === undefined ? "" : `Content-Type: ${part.type}\r\n`}\r\n`,
      ),
      part.data,
      Buffer.from("\r\n"),
    );
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(pieces);
}

/** Where a body may break: each delimiter's start and end, each part's header end, the body's end. */
function anchors(body: Buffer, boundary: string): number[] {
  const out = new Set<number>([0, body.length]);
  for (const needle of [`--${boundary}`, "\r\n\r\n"]) {
    for (let at = body.indexOf(needle); at >= 0; at = body.indexOf(needle, at + 1)) out.add(at).add(at + needle.length);
  }
  return [...out].sort((a, b) => a - b);
}

/** A body changed at a place near `at` (clamped to the body). */
type Mutation = {
  kind: "cut" | "drop" | "insert" | "flip";
  anchor: number;
  shift: number;
  length: number;
  bytes: number[];
};

function mutate(body: Buffer, boundary: string, mutation: Mutation): Buffer {
  const places = anchors(body, boundary);
  const at = Math.max(0, Math.min(body.length, places[mutation.anchor % places.length] + mutation.shift));
  switch (mutation.kind) {
    case "cut":
      return body.subarray(0, at);
    case "drop":
      return Buffer.concat([body.subarray(0, at), body.subarray(at + mutation.length)]);
    case "insert":
      return Buffer.concat([body.subarray(0, at), Buffer.from(mutation.bytes), body.subarray(at)]);
    case "flip":
      return at >= body.length
        ? body
        : Buffer.concat([
            body.subarray(0, at),
            Buffer.from([body[at] ^ (mutation.bytes[0] || 1)]),
            body.subarray(at + 1),
          ]);
  }
}

/** Bytes that matter to a multipart parser, and some that do not. */
const parserBytes = fc.array(fc.constantFrom(13, 10, 45, 34, 59, 58, 32, 0, 97, 255), { minLength: 1, maxLength: 8 });

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom("cut", "drop", "insert", "flip"),
  anchor: fc.nat(),
  shift: fc.integer({ min: -4, max: 4 }),
  length: fc.integer({ min: 1, max: 6 }),
  bytes: parserBytes,
});

const boundaryArbitrary = fc.stringMatching(/^[A-Za-z0-9'()+_,./:=?-]{1,40}$/).map((s) => `fuzz${s}`);

/** A request that is never answered holds its connection and handler for good: a deadline (not a timing) catches it. */
async function answered<T>(reply: Promise<T>, sent: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const never = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within 10 s: ${sent}`)), 10_000)),
  );
  try {
    return await Promise.race([reply, never]);
  } finally {
    clearTimeout(timer);
  }
}

describe("property: cut and scrambled multipart uploads never crash and never store part of a file", () => {
  let t: TestApp;
  let png: Buffer;
  let replaced: number;
  const crashes: Error[] = [];
  const watch = (error: Error) => crashes.push(error);
  const files: () => Part[] = () => [
    {
      name: "file",
      filename: "drawing.svg",
      type: "image/svg+xml",
      data: Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="4"/></svg>`,
      ),
    },
    { name: "file", filename: "dot.png", type: "image/png", data: png },
    { name: "file", filename: "dot.png", data: png },
  ];

  before(async () => {
    process.on("uncaughtExceptionMonitor", watch);
    t = await startTestApp();
    png = await sharp({ create: { width: 3, height: 2, channels: 3, background: "#204060" } })
      .png()
      .toBuffer();
    const first = await t.call("POST", `${site(1)}/media?filename=first.svg`, {
      payload: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"/>`),
      headers: { "content-type": "image/svg+xml" },
    });
    assert.equal(first.status, 201, first.text);
    replaced = first.body.media.id;
  });
  after(async () => {
    process.off("uncaughtExceptionMonitor", watch);
    await t.close();
  });

  async function rows() {
    return (
      await t.store.db
        .selectFrom("media")
        .select(["id", "sha256", "bytes", "updated_at_gmt", "filename"])
        .orderBy("id")
        .execute()
    ).map((row) => ({ ...row, id: Number(row.id), bytes: Number(row.bytes) }));
  }

  /** Sends one body; checks every rule above; answers the status. */
  async function check(
    body: Buffer,
    boundary: string,
    method: "POST" | "PUT",
    keep = true,
  ): Promise<{ status: number }> {
    const before = await rows();
    const url = `${method === "POST" ? `${site(1)}/media` : `${site(1)}/media/${replaced}`}?keep_metadata=${keep ? 1 : 0}`;
    const sent = `${method} ${JSON.stringify(body.toString("latin1"))}`;
    const answer = await answered(
      t.app.inject({
        method,
        url,
        payload: body,
        headers: {
          authorization: `Bearer ${t.adminToken}`,
          "content-type": `multipart/form-data; boundary="${boundary}"`,
        },
      }),
      sent,
    );
    const shown = `${sent} → ${answer.statusCode} ${answer.body.slice(0, 300)}`;
    assert.deepEqual(
      crashes.splice(0).map((error) => error.message),
      [],
      `no uncaught exception: ${shown}`,
    );
    const stored = answer.statusCode === (method === "POST" ? 201 : 200);
    assert.ok(stored || (answer.statusCode >= 400 && answer.statusCode < 500), shown);
    const after = await rows();
    if (!stored) assert.deepEqual(after, before, `a refusal changes no row: ${shown}`);
    const named = new Set(after.map((row) => row.sha256));
    assert.deepEqual(
      storedBlobs(t.dataDir).sort(),
      [...named].sort(),
      `every blob named by a row and every row's blob there: ${shown}`,
    );
    assert.deepEqual(temporaries(t.dataDir), [], `no temporary left: ${shown}`);
    if (stored && keep) {
      const media = JSON.parse(answer.body).media;
      const bytes = readFileSync(
        join(t.dataDir, "media", media.sha256.slice(0, 2), media.sha256.slice(2, 4), media.sha256),
      );
      const whole = body.indexOf(Buffer.concat([bytes, Buffer.from(`\r\n--${boundary}`)]));
      assert.ok(whole >= 0, `the stored file is a whole part of the body: ${shown}`);
      assert.ok(body.indexOf(`--${boundary}--`, whole) >= 0, `the body has its closing delimiter: ${shown}`);
    }
    return { status: answer.statusCode };
  }

  it("a body cut at every byte is a 4xx until its closing delimiter is whole, then stored; POST and PUT", async () => {
    const boundary = "----cut-every-byte";
    const body = formBody(boundary, [
      { name: "alt", data: Buffer.from("a drawing") },
      { name: "other", filename: "other.bin", type: "application/octet-stream", data: Buffer.from("ignored bytes") },
      files()[0],
      { name: "title", data: Buffer.from("Drawing") },
    ]);
    const closed = body.indexOf(`--${boundary}--`) + `--${boundary}--`.length;
    for (let at = 0; at <= body.length; at++) {
      const method = at % 2 === 0 ? "POST" : "PUT";
      const { status } = await check(body.subarray(0, at), boundary, method);
      if (at < closed)
        assert.ok(
          status >= 400,
          `cut at ${at} of ${body.length}, before the closing delimiter ends at ${closed}: ${status}`,
        );
    }
  });

  it("bodies with parts in any order, cut, trimmed, padded and flipped near their boundaries", async () => {
    const textPart = fc.record({
      name: fc.constantFrom("alt", "title", "note"),
      data: fc.string({ maxLength: 40 }).map((s) => Buffer.from(s)),
    });
    const extraFile = fc.record({
      name: fc.constantFrom("other", "file"),
      filename: fc.constantFrom("x.bin", "y.svg"),
      data: fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
    });
    const form = fc.record({
      boundary: boundaryArbitrary,
      file: fc.nat(2),
      before: fc.array(fc.oneof(textPart, extraFile), { maxLength: 3 }),
      after: fc.array(fc.oneof(textPart, extraFile), { maxLength: 3 }),
      mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }),
      method: fc.constantFrom("POST" as const, "PUT" as const),
      keep: fc.boolean(),
    });
    let stored = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(form, async ({ boundary, file, before, after, mutations, method, keep }) => {
        let body = formBody(boundary, [...before, files()[file], ...after]);
        for (const change of mutations) body = mutate(body, boundary, change);
        if ((await check(body, boundary, method, keep)).status < 300) stored++;
        else refused++;
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    assert.ok(stored > 0 && refused > 0, `the bodies drawn were both stored and refused (${stored}, ${refused})`);
  });
});
