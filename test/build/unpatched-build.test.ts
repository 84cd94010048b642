// The build without its dependency patches (SVC_BUILD_PATCHES=0, scripts/dependency-patches.mjs):
// the patches only take work off a start, so the service must run as well without them, and a
// Fastify or find-my-way update that a patch no longer fits can ship unpatched. Built here into a
// folder of its own (SVC_BUILD_DIR) inside the checkout, where the bundle finds the packages it
// leaves in node_modules, and started like `npm start`: it answers the API, takes a write and
// serves the page it published. (The whole suite runs against such a build with
// `SVC_BUILD_PATCHES=0 npm test`, which builds dist/ that way.)
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
// @ts-expect-error a build script (plain JavaScript), typed here by its use
import { patchesOfBundle } from "../../scripts/dependency-patches.mjs";
import { generateToken } from "../../src/tokens.ts";
import { serviceDatabase } from "../support/process.ts";
import type { TestDatabase } from "../support/database.ts";
import { ROOT, startBundle, type Bundle } from "./start-bundle.ts";

describe("the build without dependency patches (SVC_BUILD_PATCHES=0)", () => {
  let out: string;
  let dataDir: string;
  let database: TestDatabase;
  let service: Bundle;
  const token = generateToken();

  before(async () => {
    mkdirSync(join(ROOT, ".tmp"), { recursive: true });
    out = mkdtempSync(join(ROOT, ".tmp", "unpatched-build-"));
    dataDir = mkdtempSync(join(tmpdir(), "svc-unpatched-"));
    const built = spawnSync(process.execPath, ["scripts/build.mjs"], {
      cwd: ROOT,
      env: { ...process.env, SVC_BUILD_PATCHES: "0", SVC_BUILD_DIR: relative(ROOT, out) },
      encoding: "utf8",
    });
    assert.equal(built.status, 0, built.stderr);
    assert.match(built.stderr, /without dependency patches/);
    const db = await serviceDatabase();
    database = db.database;
    // A code cache of its own, removed with the build (main.ts keeps one per bundle path).
    service = await startBundle(relative(ROOT, join(out, "main.js")), {
      ...db.env,
      SVC_DATA_DIR: dataDir,
      SVC_ADMIN_TOKEN: token,
      SVC_CODE_CACHE_DIR: join(out, "code-cache"),
    });
  });

  after(async () => {
    await service?.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  });

  it("bundles the dependencies as installed and says so on its first line", () => {
    assert.deepEqual(patchesOfBundle(readFileSync(join(out, "server.cjs"), "latin1")), []);
    assert.notEqual(
      patchesOfBundle(readFileSync(join(ROOT, "dist/server.cjs"), "latin1")),
      null,
      "dist/server.cjs names its patches too",
    );
  });

  it("starts, answers the API, takes a write and serves the page it published", async () => {
    const api = async (method: string, url: string, body?: unknown) => {
      const answer = await service.request({
        method,
        url,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: answer.status, body: JSON.parse(answer.body) };
    };
    assert.equal((await api("GET", "/api/profile")).status, 200);
    const frame = await api("POST", "/api/site/1/frames", {
      slug: "plain",
      html: '<p class="t" data-op-bind=\'{"text":"page.title"}\'>t</p>',
    });
    assert.equal(frame.status, 201, JSON.stringify(frame.body));
    const page = await api("POST", "/api/site/1/pages", {
      title: "Unpatched",
      slug: "unpatched",
      status: "publish",
      frame: "plain",
    });
    assert.equal(page.status, 201, JSON.stringify(page.body));
    // A route with parameters, found by the router as installed.
    assert.equal((await api("GET", `/api/site/1/pages/${page.body.page.id}`)).body.page.title, "Unpatched");
    const published = await service.request({ method: "GET", url: "/unpatched/", headers: { host: "localhost" } });
    assert.equal(published.status, 200);
    assert.match(published.body, /<p class="t">Unpatched<\/p>/);
    assert.equal((await api("GET", "/api/no-such-call")).status, 404);
    assert.ok(service.running(), service.output());
  });
});
