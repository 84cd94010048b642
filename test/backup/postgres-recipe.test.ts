// The PostgreSQL recipe of docs/backups.md, run as the page shows it: its backup block (pg_dump, the
// media folder, the check of the pair) while the built service writes, its restore block into an
// empty database and an empty data directory, and the service started on them serves every page
// and media file acknowledged before the backup started. PostgreSQL only (npm run test:pg, or
// TEST_DATABASE_URL), with pg_dump and pg_restore installed.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { freshDatabase, testServerUrl, type TestDatabase } from "../support/database.ts";
import { startService, type Running } from "../support/process.ts";
import { call } from "../cluster/helpers.ts";
import { fences } from "../docs/how-to-pages.ts";
import { generateToken } from "../../src/tokens.ts";
import { blobFile } from "../../src/blobs/fs-layout.ts";
import { api, FRAME, SITE, sha256, tempDir, uploadUnique } from "./helpers.ts";

/** The page's bash block that holds `text`. */
function block(text: string): string {
  const found = fences(readFileSync("docs/backups.md", "utf8")).find((f) => f.lang === "bash" && f.text.includes(text));
  assert.ok(found, `docs/backups.md has no bash block with ${text}`);
  return found.text;
}

/** Runs a block with bash in `cwd`, without blocking the writes this process sends meanwhile. */
function bash(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn("bash", ["-c", script], { cwd, env: { ...process.env, ...env } });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  child.stdout.resume();
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

const installed = ["pg_dump", "pg_restore"].every((c) => spawnSync("bash", ["-c", `command -v ${c}`]).status === 0);

describe("docs/backups.md's PostgreSQL recipe", { timeout: 240_000 }, () => {
  const work = tempDir("svc-pg-backup-");
  const databases: TestDatabase[] = [];
  const services: Running[] = [];
  after(async () => {
    for (const svc of services) await svc.stop();
    for (const db of databases) await db.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it("backs up while the service writes; restored, every acknowledged page and file is served", {
    skip: !testServerUrl ? "PostgreSQL only (npm run test:pg)" : !installed ? "pg_dump is not installed" : false,
  }, async () => {
    const token = generateToken();
    const start = async (db: TestDatabase, dataDir: string) => {
      const svc = await startService({
        DATABASE_URL: db.url!,
        SVC_DATA_DIR: dataDir,
        SVC_ADMIN_TOKEN: token,
        SVC_RATE_LIMIT_PER_MIN: "1000000",
      });
      services.push(svc);
      return svc;
    };
    const source = await freshDatabase();
    databases.push(source);
    const sourceDir = join(work, "data");
    const live = await start(source, sourceDir);
    assert.equal((await api(live, token, "POST", `${SITE}/frames`, { slug: "page", html: FRAME })).status, 201);

    const acknowledged: { slug: string; title: string; media: { sha256: string; url: string } }[] = [];
    let stop = false;
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        const up = await uploadUnique(live, token, `m${i}`);
        assert.equal(up.status, 201, up.text);
        if (i % 3 === 2) {
          // Every third file goes again at once: deletes run through the backup too.
          assert.equal((await api(live, token, "DELETE", `${SITE}/media/${up.body.media.id}`)).status, 200);
          continue;
        }
        const page = await api(live, token, "POST", `${SITE}/pages`, {
          title: `Written ${i}`,
          slug: `p${i}`,
          frame: "page",
        });
        assert.equal(page.status, 201, page.text);
        acknowledged.push({
          slug: `p${i}`,
          title: `Written ${i}`,
          media: { sha256: up.body.media.sha256, url: up.body.media.url },
        });
      }
    })();
    await Promise.race([
      writer,
      (async () => {
        while (acknowledged.length < 15) await new Promise((resolve) => setTimeout(resolve, 20));
      })(),
    ]);
    const before = [...acknowledged];
    // As the page says: a pair a delete broke in between fails its check, and is taken again.
    let backup = await bash(block("pg_dump"), work, { DATABASE_URL: source.url!, SVC_DATA_DIR: sourceDir });
    for (let again = 1; again < 5 && backup.code !== 0 && /named but not copied/.test(backup.stderr); again++)
      backup = await bash(block("pg_dump"), work, { DATABASE_URL: source.url!, SVC_DATA_DIR: sourceDir });
    stop = true;
    await writer;
    assert.equal(backup.code, 0, backup.stderr);
    const named = readFileSync(join(work, "backup", "named.txt"), "utf8").split("\n");
    for (const write of before) assert.ok(named.includes(write.media.sha256), "the check reads the dump's media rows");

    // The check fails a pair that lacks a file the dump names (as a delete between the two steps leaves it).
    const lacking = join(work, "lacking");
    mkdirSync(join(work, "second"));
    cpSync(sourceDir, lacking, { recursive: true });
    rmSync(join(lacking, "media", blobFile(before[0].media.sha256)));
    const checked = await bash(block("pg_dump"), join(work, "second"), {
      DATABASE_URL: source.url!,
      SVC_DATA_DIR: lacking,
    });
    assert.equal(checked.code, 1);
    assert.match(checked.stderr, /named but not copied/);

    const target = await freshDatabase();
    databases.push(target);
    const targetDir = join(work, "restored");
    const restore = await bash(block("pg_restore --no-owner"), work, {
      DATABASE_URL: target.url!,
      SVC_DATA_DIR: targetDir,
    });
    assert.equal(restore.code, 0, restore.stderr);

    const restored = await start(target, targetDir);
    for (const write of before) {
      const page = await call(restored.port, "GET", `/${write.slug}/`);
      assert.equal(page.status, 200, `/${write.slug}/ on the restored service`);
      assert.match(page.text, new RegExp(`<h1>${write.title}</h1>`));
      const file = await call(restored.port, "GET", new URL(write.media.url, "http://localhost").pathname);
      assert.equal(file.status, 200, write.media.url);
      assert.equal(sha256(Buffer.from(file.text, "utf8")), write.media.sha256);
    }
  });
});
