// svc backup while the built service serves and writes, then svc restore into an empty directory
// and the service started on it (docs/backups.md): every write acknowledged before the backup
// started is in the restored database, which passes SQLite's integrity check, and the restored
// service serves its pages and media files. Also the one race a backup must ride out: a media file
// deleted after the database copy was taken (the copy is taken again).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Running } from "../support/process.ts";
import { call } from "../cluster/helpers.ts";
import { generateToken } from "../../src/tokens.ts";
import { backupDataDirectory } from "../../src/backup/backup.ts";
import { api, FRAME, readRestored, SITE, sha256, startOn, svcOn, tempDir, uploadUnique } from "./helpers.ts";

interface Acknowledged {
  slug: string;
  title: string;
  media?: { sha256: string; url: string };
}

describe("svc backup of a live service, svc restore, and the service on the restored directory", {
  timeout: 240_000,
}, () => {
  const token = generateToken();
  const work = tempDir("svc-backup-");
  const dataDir = join(work, "data");
  let svc: Running | undefined;
  let restored: Running | undefined;
  before(async () => {
    svc = await startOn(dataDir, token);
    const frame = await api(svc, token, "POST", `${SITE}/frames`, { slug: "page", html: FRAME });
    assert.equal(frame.status, 201, frame.text);
  });
  after(async () => {
    await svc?.stop();
    await restored?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it("every write acknowledged before the backup started is restored, whole, and served", {
    timeout: 180_000,
  }, async () => {
    const live = svc!;
    const acknowledged: Acknowledged[] = [];
    let stop = false;
    let n = 0;
    // Two writers: pages, and pages each with a media file of its own; a third deletes media now
    // and then, so blobs leave the store while the backup packs them.
    const writer = async (withMedia: boolean) => {
      while (!stop) {
        const i = n++;
        const slug = `p${i}`;
        const title = `Written ${i}`;
        let media: Acknowledged["media"];
        if (withMedia) {
          const up = await uploadUnique(live, token, `m${i}`);
          assert.equal(up.status, 201, up.text);
          media = { sha256: up.body.media.sha256, url: up.body.media.url };
        }
        const page = await api(live, token, "POST", `${SITE}/pages`, { title, slug, status: "publish", frame: "page" });
        assert.equal(page.status, 201, page.text);
        acknowledged.push({ slug, title, media });
      }
    };
    const deleter = async () => {
      while (!stop) {
        const doomed = await uploadUnique(live, token, `doomed${n++}`);
        assert.equal(doomed.status, 201, doomed.text);
        await new Promise((resolve) => setTimeout(resolve, 30));
        const gone = await api(live, token, "DELETE", `${SITE}/media/${doomed.body.media.id}`);
        assert.equal(gone.status, 200, gone.text);
      }
    };
    const writers = Promise.all([writer(false), writer(true), deleter()]);
    // A writer's failure ends the wait with its reason.
    await Promise.race([
      writers,
      (async () => {
        while (acknowledged.length < 30) await new Promise((resolve) => setTimeout(resolve, 20));
      })(),
    ]);

    const before = [...acknowledged];
    const file = join(work, "site.backup");
    const backup = await svcOn(dataDir, ["backup", file, "--json"]);
    const writtenDuring = acknowledged.length - before.length;
    stop = true;
    await writers;
    assert.equal(backup.code, 0, backup.stderr);
    const summary = JSON.parse(backup.stdout);
    assert.equal(summary.ok, true);
    assert.ok(writtenDuring > 0, "the service acknowledged writes while the backup ran");

    const target = join(work, "restored");
    const restore = await svcOn(target, ["restore", file]);
    assert.equal(restore.code, 0, restore.stderr);
    const { integrity, slugs, blobs } = readRestored(target);
    assert.deepEqual(integrity, ["ok"]);
    for (const write of before) {
      assert.ok(slugs.has(write.slug), `the page ${write.slug}, acknowledged before the backup, is restored`);
      if (write.media) assert.ok(blobs.has(write.media.sha256), `the media file of ${write.slug} is restored`);
    }

    restored = await startOn(target, token);
    for (const write of before) {
      const page = await call(restored.port, "GET", `/${write.slug}/`);
      assert.equal(page.status, 200, `/${write.slug}/ on the restored service`);
      assert.match(page.text, new RegExp(`<h1>${write.title}</h1>`));
      if (write.media) {
        const file = await call(restored.port, "GET", new URL(write.media.url, "http://localhost").pathname);
        assert.equal(file.status, 200, write.media.url);
        assert.equal(sha256(Buffer.from(file.text, "utf8")), write.media.sha256, "the restored file's bytes");
      }
    }
    // It takes writes too.
    const next = await api(restored, token, "POST", `${SITE}/pages`, { title: "After", slug: "after", frame: "page" });
    assert.equal(next.status, 201, next.text);
  });

  it("a media file deleted after the database copy was taken: the copy is taken again, without it", {
    timeout: 60_000,
  }, async () => {
    const live = svc!;
    const kept = await uploadUnique(live, token, "kept");
    const doomed = await uploadUnique(live, token, "doomed");
    assert.equal(doomed.status, 201, doomed.text);
    let copies = 0;
    const summary = await backupDataDirectory({
      env: { SVC_DATA_DIR: dataDir },
      file: join(work, "raced.backup"),
      force: false,
      afterCopy: async () => {
        // Committed after the first copy: its row is in that copy, its blob gone from the store.
        if (copies++ === 0)
          assert.equal((await api(live, token, "DELETE", `${SITE}/media/${doomed.body.media.id}`)).status, 200);
      },
    });
    assert.equal(summary.attempts, 2);
    const target = join(work, "raced");
    const restore = await svcOn(target, ["restore", join(work, "raced.backup")]);
    assert.equal(restore.code, 0, restore.stderr);
    const { blobs } = readRestored(target);
    assert.ok(blobs.has(kept.body.media.sha256));
    assert.ok(!blobs.has(doomed.body.media.sha256));
  });
});
