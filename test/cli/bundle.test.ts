// `svc export` and `svc import` between two built services with data directories of their own
// (docs/bundles.md, "The CLI").
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serve, tempDir, type Served } from "./harness.ts";

describe("svc export and svc import", () => {
  let a: Served;
  let b: Served;
  let dir: string;
  before(async () => {
    [a, b] = await Promise.all([serve(), serve()]);
    dir = tempDir("svc-bundle-");
    const html = '<!doctype html><html><body><h1 data-op-bind=\'{"text": "page.title"}\'>x</h1></body></html>';
    assert.equal((await a.api("POST", "/api/site/1/frames", { slug: "page", html })).status, 201);
    await a.api("POST", "/api/site/1/pages", { title: "About", slug: "about", frame: "page" });
    await a.api("POST", "/api/site/1/pages", { title: "Later", slug: "later", frame: "page", status: "draft" });
  });
  after(async () => {
    await a.stop();
    await b.stop();
  });

  it("exports the command's site to a file, imports it as a new site, then plans a second import", async () => {
    const file = join(dir, "site.tar.gz");
    const exported = await a.svc(["export", file], { cwd: dir });
    assert.equal(exported.code, 0, exported.stderr);
    assert.ok(existsSync(file) && !existsSync(`${file}.part`));

    const refused = await b.svc(["import", file], { cwd: dir, env: { SVC_SITE: "" } });
    assert.equal(refused.code, 2, "neither a site nor --domain: a usage error");
    assert.match(refused.stderr, /--domain/);

    const made = await b.svc(["import", file, "--domain", "copy.localhost", "--json"], {
      cwd: dir,
      env: { SVC_SITE: "" },
    });
    assert.equal(made.code, 0, made.stderr);
    const answer = JSON.parse(made.stdout);
    assert.equal(answer.command, "import");
    assert.deepEqual(answer.conflicts, []);
    const site = answer.site_id as number;
    const pages = (await b.api("GET", `/api/site/${site}/pages?status=any`)).body.pages;
    assert.deepEqual(pages.map((p: any) => [p.path, p.status]).sort(), [
      ["/about", "publish"],
      ["/later", "draft"],
    ]);

    const planned = await b.svc(["import", file, "--site", String(site), "--dry-run"], { cwd: dir });
    assert.equal(planned.code, 0, planned.stderr);
    assert.match(planned.stdout, /dry run: nothing written; site \d+: 0 created, 0 updated/);
  });

  it("a tampered file is refused with invalid_bundle, exit 1", async () => {
    const file = join(dir, "bad.tar.gz");
    writeFileSync(file, "not a bundle");
    const run = await b.svc(["import", file, "--site", "1"], { cwd: dir });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /invalid_bundle/);
  });
});
