// Durable publishing (docs/publishing.md): killed with kill -9 in the middle of a stream of writes,
// then restarted, the service served pages one version behind what its API stored, and kept serving
// them until a later write touched them: the publish step runs after the commit and nothing
// remembered that it was owed. Each write now records what it owes in its own transaction
// (publish/outbox.ts), and a start publishes what was not paid before it answers. The built
// service, killed at random moments of bursts of frame, page, menu and settings writes; after each
// restart every public page must agree with what the API stores. On SQLite one process; under
// test:pg two, where the other one, never restarted, pays what the killed one owed (its sweep).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateToken } from "../../src/tokens.ts";
import { callService as call, serviceDatabase, startService, type Running } from "../support/process.ts";
import type { TestDatabase } from "../support/database.ts";

const PAGES = 8;
const ROUNDS = 6;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A frame baked once for all its pages (it prints nothing of the page): marker, tagline, the header menu. */
const frame = (i: number, marker: string) =>
  `<!DOCTYPE html><html><body><p class="v">${marker}</p><p class="t" data-op-bind='{"text": "site.tagline"}'></p><!-- svc/menu {"location": "header"} /--><span>${i}</span></body></html>`;

describe("durable publishing: a kill -9 amid writes leaves no public page behind what the API stores", {
  timeout: 300_000,
}, () => {
  let database: TestDatabase;
  const dirs: string[] = [];
  let env: Record<string, string>;
  const token = generateToken();
  let services: Running[] = [];
  const pg = Boolean(process.env.TEST_DATABASE_URL);

  before(async () => {
    const db = await serviceDatabase();
    database = db.database;
    env = {
      ...db.env,
      SVC_ADMIN_TOKEN: token,
      SVC_RATE_LIMIT_PER_MIN: "1000000",
      SVC_PUBLIC_RATE_LIMIT_PER_MIN: "1000000",
      SVC_OUTBOX_SWEEP_MS: "300",
      LOG_LEVEL: "warn",
    };
  });
  after(async () => {
    for (const svc of services) await svc.stop("SIGKILL");
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await database.drop();
  });

  const start = (dir: string) => startService({ ...env, SVC_DATA_DIR: dir, LOG_LEVEL: "info" });

  /** Every page's public bytes against the stored frame, tagline and menu titles. */
  async function agrees(svc: Running, when: string): Promise<void> {
    const settings = (await call(svc, token, "GET", "/api/site/1/settings")).body;
    const tagline = (settings.settings?.tagline ?? settings.tagline) as string;
    const menu = (await call(svc, token, "GET", "/api/site/1/menus/header")).body.items as Array<{ title: string }>;
    for (let i = 0; i < PAGES; i++) {
      const stored = (await call(svc, token, "GET", `/api/site/1/frames/f${i}`)).body.frame.html as string;
      const marker = /<p class="v">([^<]*)<\/p>/.exec(stored)![1]!;
      const page = await fetch(svc.url(`/p${i}/`), { headers: { host: "localhost" } });
      const html = await page.text();
      assert.equal(page.status, 200, `${when}: /p${i}/`);
      assert.ok(
        html.includes(`<p class="v">${marker}</p>`),
        `${when}: /p${i}/ shows ${/<p class="v">([^<]*)/.exec(html)?.[1]}, the API stores ${marker}`,
      );
      assert.ok(html.includes(`>${tagline}</p>`), `${when}: /p${i}/ shows the tagline ${tagline}`);
      for (const item of menu) assert.ok(html.includes(`>${item.title}</a>`), `${when}: /p${i}/ lists ${item.title}`);
    }
  }

  it("after each of several kills mid-burst, the restarted (or surviving) service serves every page as stored", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-durable-"));
    dirs.push(dir);
    const other = mkdtempSync(join(tmpdir(), "svc-durable-b-"));
    dirs.push(other);
    services = pg ? [await start(dir), await start(other)] : [await start(dir)];
    const first = services[0]!;
    for (let i = 0; i < PAGES; i++) {
      assert.equal(
        (await call(first, token, "POST", "/api/site/1/frames", { slug: `f${i}`, html: frame(i, "v0") })).status,
        201,
      );
      assert.equal(
        (
          await call(first, token, "POST", "/api/site/1/pages", {
            title: `Page ${i}`,
            slug: `p${i}`,
            status: "publish",
            frame: `f${i}`,
          })
        ).status,
        201,
      );
    }
    const menu = await call(first, token, "POST", "/api/site/1/menus", {
      name: "Header",
      location: "header",
      items: Array.from({ length: PAGES }, (_, i) => ({ page: `p${i}` })),
    });
    assert.equal(menu.status, 201, menu.text);
    await agrees(first, "before any kill");

    for (let round = 1; round <= ROUNDS; round++) {
      const victim = services[0]!;
      // A burst: every frame rewritten, two pages renamed (the menu prints their titles), the tagline.
      const burst = [
        ...Array.from({ length: PAGES }, (_, i) =>
          call(victim, token, "PUT", `/api/site/1/frames/f${i}`, { html: frame(i, `r${round}-${i}`) }),
        ),
        call(victim, token, "PATCH", `/api/site/1/pages/p${round % PAGES}`, {
          title: `Page ${round % PAGES} r${round}`,
        }),
        call(victim, token, "PATCH", `/api/site/1/settings`, { tagline: `Tagline r${round}` }),
      ].map((write) => write.catch(() => undefined));
      await sleep(20 + ((round * 37) % 150));
      victim.child.kill("SIGKILL");
      await Promise.all(burst);
      await new Promise((resolve) =>
        victim.child.exitCode !== null || victim.child.signalCode !== null
          ? resolve(undefined)
          : victim.child.once("exit", resolve),
      );
      if (pg) {
        // The other process was never stopped: its sweep pays what the killed one owed.
        const survivor = services[1]!;
        await sleep(1_500);
        await agrees(survivor, `round ${round}, the surviving process`);
        services = [await start(dir), survivor];
      } else {
        services = [await start(dir)];
      }
      // The restarted process paid what was owed before it answered anything.
      await agrees(services[0]!, `round ${round}, after the restart`);
    }
  });
});
