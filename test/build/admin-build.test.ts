// The admin's build (scripts/admin-build.mjs, which `npm run build` runs for dist/admin/): hashed,
// minified ES modules and stylesheets, each beside a brotli and a gzip copy of the same bytes, an
// index.html loading the entry, and an older build's files gone after the next one.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
// @ts-expect-error a build script (plain JavaScript), typed here by its use
import { buildAdmin } from "../../scripts/admin-build.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;

describe("the admin's build", () => {
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-admin-build-test-"));
    writeFileSync(join(dir, "stale.txt"), "an older build's file");
    await buildAdmin(ROOT, dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("writes index.html and, under assets/, files named by their content hash, each with a .br and a .gz copy of its bytes", () => {
    assert.deepEqual(readdirSync(dir).sort(), ["assets", "index.html"], "what was there before is gone");
    const names = readdirSync(join(dir, "assets"));
    const assets = names.filter((name) => !/\.(br|gz)$/.test(name));
    assert.ok(
      assets.some((name) => /^main-[A-Z0-9]{8}\.js$/.test(name)),
      names.join(" "),
    );
    assert.ok(
      assets.some((name) => /^main-[A-Z0-9]{8}\.css$/.test(name)),
      names.join(" "),
    );
    for (const name of assets) {
      assert.match(name, /^[a-z0-9_-]+-[A-Z0-9]{8}\.(js|css)(\.LEGAL\.txt)?$/);
      const bytes = readFileSync(join(dir, "assets", name));
      assert.ok(brotliDecompressSync(readFileSync(join(dir, "assets", `${name}.br`))).equals(bytes), `${name}.br`);
      assert.ok(gunzipSync(readFileSync(join(dir, "assets", `${name}.gz`))).equals(bytes), `${name}.gz`);
    }
    assert.equal(names.length, assets.length * 3);
  });

  it("index.html loads the entry as an ES module and its stylesheet by their hashed names, with nothing inline", () => {
    const html = readFileSync(join(dir, "index.html"), "utf8");
    const assets = readdirSync(join(dir, "assets"));
    const script = /<script type="module" src="\/admin\/assets\/([^"]+)"><\/script>/.exec(html)?.[1];
    const style = /<link rel="stylesheet" href="\/admin\/assets\/([^"]+)">/.exec(html)?.[1];
    assert.ok(script && assets.includes(script), html);
    assert.ok(style && assets.includes(style), html);
    assert.doesNotMatch(html, /<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=/);
  });

  it("the entry is a minified ES module well under 300 kB compressed", () => {
    const entry = readdirSync(join(dir, "assets")).find((name) => /^main-.*\.js$/.test(name))!;
    const code = readFileSync(join(dir, "assets", entry), "utf8");
    // Minified: long lines (the line breaks left are those inside string literals), no comments.
    assert.ok(code.length / code.split("\n").length > 1000, "minified: long lines");
    assert.doesNotMatch(code, /\/\*[!*]|^\s*\/\//m, "no comments, licences included (they go to .LEGAL.txt)");
    assert.doesNotMatch(code, /\brequire\(/, "no CommonJS");
    assert.ok(readFileSync(join(dir, "assets", `${entry}.gz`)).length < 300 * 1024);
  });

  it("building again with the same sources writes the same names", async () => {
    const before = readdirSync(join(dir, "assets")).sort();
    await buildAdmin(ROOT, dir);
    assert.deepEqual(readdirSync(join(dir, "assets")).sort(), before);
  });
});
