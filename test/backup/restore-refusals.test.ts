// What svc restore refuses (docs/backups.md, "Restoring"): a data directory that holds anything, and
// a backup file that is not whole or not what svc backup wrote — a changed byte (sha256), an entry
// added or missing, a name outside the data directory, a newer format, bad gzip. Each is exit 1
// with its code and reason, and leaves the target directory empty and nothing outside it.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { extract, pack } from "tar-stream";
import { generateToken } from "../../src/tokens.ts";
import { api, FRAME, SITE, startOn, svcOn, tempDir, uploadUnique } from "./helpers.ts";

interface Entry {
  name: string;
  data: Buffer;
}

async function entriesOf(file: string): Promise<Entry[]> {
  const reader = extract();
  const entries: Entry[] = [];
  reader.end(gunzipSync(readFileSync(file)));
  for await (const entry of reader) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    entries.push({ name: entry.header.name, data: Buffer.concat(chunks) });
  }
  return entries;
}

async function writeEntries(file: string, entries: Entry[]): Promise<void> {
  const writer = pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of writer) chunks.push(chunk as Buffer);
  })();
  for (const entry of entries) writer.entry({ name: entry.name, size: entry.data.length }, entry.data);
  writer.finalize();
  await done;
  writeFileSync(file, gzipSync(Buffer.concat(chunks)));
}

describe("svc restore refuses", { timeout: 120_000 }, () => {
  const work = tempDir("svc-restore-refusals-");
  const good = join(work, "good.backup");
  let entries: Entry[];
  before(async () => {
    const token = generateToken();
    const svc = await startOn(join(work, "source"), token);
    try {
      assert.equal((await api(svc, token, "POST", `${SITE}/frames`, { slug: "page", html: FRAME })).status, 201);
      assert.equal((await uploadUnique(svc, token, "file")).status, 201);
    } finally {
      await svc.stop();
    }
    // Taken from a stopped service too: the same copy, with nothing writing.
    const made = await svcOn(join(work, "source"), ["backup", good]);
    assert.equal(made.code, 0, made.stderr);
    entries = await entriesOf(good);
    assert.deepEqual(
      entries.map((e) => e.name.replace(/[0-9a-f]{64}/, "<sha256>").replace(/\/[0-9a-f]{2}\/[0-9a-f]{2}\//, "/ab/cd/")),
      ["svc.db", "media/ab/cd/<sha256>", "manifest.json"],
    );
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  /** Restores `file` into a new directory: the run, and what the directory holds afterwards. */
  async function restoreInto(name: string, file: string) {
    const target = join(work, name);
    const run = await svcOn(target, ["restore", file, "--json"]);
    return { run, body: JSON.parse(run.stdout), held: existsSync(target) ? readdirSync(target) : [] };
  }

  it("a data directory that holds anything, without touching it", async () => {
    const target = join(work, "held");
    mkdirSync(target);
    writeFileSync(join(target, "admin-token"), "op_x\n");
    const run = await svcOn(target, ["restore", good]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^data_dir_not_empty: SVC_DATA_DIR .*held holds 1 file or folder \(admin-token\)/m);
    assert.deepEqual(readdirSync(target), ["admin-token"]);
  });

  const tampered: Array<[string, (all: Entry[]) => Entry[], RegExp]> = [
    [
      "a changed byte in the database",
      (all) =>
        all.map((e) => {
          if (e.name !== "svc.db") return e;
          const data = Buffer.from(e.data);
          data[data.length - 100] ^= 0xff;
          return { ...e, data };
        }),
      /the entry svc\.db does not match its sha256/,
    ],
    [
      "a changed media file",
      (all) =>
        all.map((e) => (e.name.startsWith("media/") ? { ...e, data: Buffer.concat([e.data, Buffer.from("x")]) } : e)),
      /the entry media\/.* does not match its sha256/,
    ],
    [
      "a missing media file",
      (all) => all.filter((e) => !e.name.startsWith("media/")),
      /the entry media\/.* is missing/,
    ],
    [
      "an entry the manifest does not list",
      (all) => [{ name: `media/aa/bb/aabb${"0".repeat(60)}`, data: Buffer.from("extra") }, ...all],
      /is not in manifest\.json/,
    ],
    [
      "a name outside the data directory",
      (all) => [{ name: "../escaped", data: Buffer.from("x") }, ...all],
      /the entry "\.\.\/escaped" is no file a backup holds/,
    ],
    [
      "an absolute name",
      (all) => [{ name: "/tmp/escaped", data: Buffer.from("x") }, ...all],
      /is no file a backup holds/,
    ],
    [
      "a newer format version",
      (all) =>
        all.map((e) =>
          e.name === "manifest.json"
            ? { ...e, data: Buffer.from(JSON.stringify({ ...JSON.parse(e.data.toString()), format_version: 99 })) }
            : e,
        ),
      /format version 99 is newer than this svc reads/,
    ],
    ["no manifest", (all) => all.filter((e) => e.name !== "manifest.json"), /no manifest\.json/],
  ];
  for (const [what, change, reason] of tampered) {
    it(`${what}, leaving the data directory empty`, async () => {
      const file = join(work, `${what.replaceAll(" ", "-")}.backup`);
      await writeEntries(file, change(entries));
      const { run, body, held } = await restoreInto(what.replaceAll(" ", "_"), file);
      assert.equal(run.code, 1, run.stderr);
      assert.equal(body.error.code, "invalid_backup");
      assert.match(body.reason, reason);
      assert.deepEqual(held, []);
      assert.ok(!existsSync(join(work, "escaped")) && !existsSync("/tmp/escaped"));
    });
  }

  it("a file cut short, and one that is not gzip", async () => {
    const bytes = readFileSync(good);
    const cut = join(work, "cut.backup");
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const short = await restoreInto("cut", cut);
    assert.equal(short.run.code, 1);
    assert.match(short.body.reason, /not a whole gzip-compressed tar/);
    assert.deepEqual(short.held, []);
    const plain = join(work, "plain.backup");
    writeFileSync(plain, "just text\n");
    const text = await restoreInto("plain", plain);
    assert.equal(text.run.code, 1);
    assert.match(text.body.reason, /not a whole gzip-compressed tar/);
  });

  it("the untouched file restores", async () => {
    const { run, held } = await restoreInto("fine", good);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(held.sort(), ["media", "svc.db"]);
  });
});
