// The build bundles Fastify with a small patch for a faster start (scripts/dependency-patches.mjs).
// Patches must apply to the installed versions, which package.json pins, and the patched code must
// behave as the original: Fastify still makes the servers whose modules it now loads late.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { connect } from "node:http2";
import { once } from "node:events";
import { build } from "esbuild";
// biome-ignore format: the @ts-expect-error below holds for the one line it is on
// @ts-expect-error a build script (plain JavaScript), typed here by its use
import { PATCHES, chosenPatches, dependencyPatches, patchedSource, patchesBanner, patchesOfBundle } from "../../scripts/dependency-patches.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
const require = createRequire(import.meta.url);

interface Patch {
  id: string;
  name: string;
  file: string;
  find: string;
  replace: string;
}

/** A package bundled on its own with the build's patch plugin, as the build bundles it. */
async function patchedPackage(name: string): Promise<any> {
  const patches = dependencyPatches();
  const result = await build({
    stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: ROOT, loader: "js" },
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node24",
    write: false,
    logLevel: "silent",
    plugins: patches.plugins,
  });
  const module = { exports: {} as any };
  new Function("module", "exports", "require", result.outputFiles[0].text)(module, module.exports, require);
  return module.exports;
}

describe("dependency patches of the build", () => {
  it("every patch finds its text exactly once in the installed dependency and changes it", () => {
    for (const patch of PATCHES as Patch[]) {
      const path = require.resolve(patch.file);
      const original = readFileSync(path, "utf8");
      const patched = patchedSource(path);
      assert.notEqual(patched, original, patch.name);
      assert.ok(patched.includes(patch.replace), patch.name);
      assert.ok(!patched.includes(patch.find), patch.name);
    }
  });

  it("package.json pins Fastify and find-my-way to the versions installed, for every dependent (overrides)", () => {
    const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8"));
    // The patched packages, and the router whose start-up work bench/patch-savings.ts measured.
    for (const name of new Set([
      "fastify",
      "find-my-way",
      ...(PATCHES as Patch[]).map((patch) => patch.file.split("/")[0]!),
    ])) {
      const installed = require(`${name}/package.json`).version;
      assert.equal(manifest.overrides?.[name], installed, `overrides.${name}`);
      if (manifest.dependencies[name] !== undefined)
        assert.equal(manifest.dependencies[name], installed, `dependencies.${name}`);
    }
  });

  it("SVC_BUILD_PATCHES chooses all patches (unset or 1), none (0) or the ids listed, and names the ids when it lists an unknown one", () => {
    const ids = (setting: string | undefined) => (chosenPatches(setting) as Patch[]).map((patch) => patch.id);
    const all = (PATCHES as Patch[]).map((patch) => patch.id);
    assert.equal(new Set(all).size, all.length, "ids are unique");
    // Unset is read from the environment, which the suite itself may set (SVC_BUILD_PATCHES=0 npm
    // test): an empty setting stands for it.
    assert.deepEqual(ids(""), all);
    assert.deepEqual(ids("1"), all);
    assert.deepEqual(ids("0"), []);
    assert.deepEqual(
      ids(
        all
          .toReversed()
          .map((id) => ` ${id}`)
          .join(","),
      ),
      all,
      "in the order of PATCHES",
    );
    assert.throws(
      () => chosenPatches("fastify"),
      (error: Error) => error.message.includes("no patch fastify") && error.message.includes(all[0]!),
    );
    assert.deepEqual(dependencyPatches([]).plugins, []);
  });

  it("a bundle's first line names the patches it was built with", () => {
    for (const chosen of [PATCHES, [], (PATCHES as Patch[]).slice(1)]) {
      assert.deepEqual(
        patchesOfBundle(`${patchesBanner(chosen)}\n"use strict";\n`),
        (chosen as Patch[]).map((patch) => patch.id),
      );
    }
    assert.equal(patchesOfBundle('"use strict";\nvar x;\n'), null);
  });

  it("a patch whose text is gone stops with a message naming the patch", () => {
    const [first] = PATCHES as Patch[];
    const saved = first.find;
    first.find = "text that is not in the file";
    try {
      assert.throws(
        () => patchedSource(require.resolve(first.file)),
        (error: Error) => error.message.includes(first.name) && error.message.includes("0 times"),
      );
    } finally {
      first.find = saved;
    }
  });

  it("the patched Fastify still makes an HTTP/2 server (node:http2 is loaded when asked for)", async () => {
    const Fastify = await patchedPackage("fastify");
    const app = Fastify({ http2: true });
    app.get("/", async () => ({ ok: true }));
    await app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const session = connect(`http://127.0.0.1:${(app.server.address() as { port: number }).port}`);
      const stream = session.request({ ":path": "/" });
      let body = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => (body += chunk));
      const [headers] = await once(stream, "response");
      await once(stream, "end");
      session.close();
      assert.equal(headers[":status"], 200);
      assert.deepEqual(JSON.parse(body), { ok: true });
    } finally {
      await app.close();
    }
  });
});
