// What an import refuses, before anything is written (docs/bundles.md, "Refusals"): each reason of
// 400 invalid_bundle, a newer format (400 bundle_version_unsupported), an older one migrated, and
// who may export and import.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { makeSite, makeUser, startTestApp, type TestApp } from "../support/app.ts";
import { MAX_ENTRIES } from "../../src/bundles/format.ts";
import { call, handBundle, importBytes, sha256, tarGz } from "./support.ts";

const FRAME = "<!doctype html><html><body>hi</body></html>";

describe("bundles: refusals", () => {
  let t: TestApp;
  let site: number;
  before(async () => {
    t = await startTestApp({ env: { SVC_MEDIA_MAX_BYTES: "64" } });
    site = await makeSite(t, "Target", "target.localhost");
  });
  after(() => t.close());

  const sites = async () => (await call(t, "GET", "/api/sites")).total as number;
  const frames = async () => (await call(t, "GET", `/api/site/${site}/frames`)).frames.length as number;

  async function refused(bytes: Buffer, reason: string, code = "invalid_bundle") {
    const before = [await sites(), await frames()];
    for (const url of [`/api/sites/${site}/import`, "/api/sites/import?domain=new.localhost"]) {
      const answer = await importBytes(t, url, bytes);
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(answer.body.error, code);
      if (code === "invalid_bundle") assert.equal(answer.body.reason, reason, JSON.stringify(answer.body));
    }
    assert.deepEqual([await sites(), await frames()], before, "nothing was written: no site, no object");
  }

  it("a body that is not gzip: bad_gzip", async () => {
    await refused(Buffer.from("plain text, not gzip"), "bad_gzip");
  });

  it("gzip that holds no tar: bad_tar", async () => {
    await refused(gzipSync(Buffer.alloc(1024, 7)), "bad_tar");
  });

  it("no manifest.json: missing_manifest", async () => {
    await refused(await tarGz([{ name: "frames/home.html", data: FRAME }]), "missing_manifest");
  });

  it("an entry whose sha256 is not the manifest's: sha256_mismatch", async () => {
    const bytes = await tarGz([
      {
        name: "manifest.json",
        data: JSON.stringify({ format_version: 1, entries: { "frames/home.html": sha256("other") } }),
      },
      { name: "frames/home.html", data: FRAME },
    ]);
    await refused(bytes, "sha256_mismatch");
  });

  it("an absolute entry name, and one holding ..: absolute_entry_name, dotdot_entry_name", async () => {
    const manifest = { name: "manifest.json", data: JSON.stringify({ format_version: 1, entries: {} }) };
    await refused(await tarGz([manifest, { name: "/etc/cron.d/x", data: "x" }]), "absolute_entry_name");
    await refused(await tarGz([manifest, { name: "frames/../../x.html", data: "x" }]), "dotdot_entry_name");
  });

  it("an empty segment in an entry name: entry_name", async () => {
    const manifest = { name: "manifest.json", data: JSON.stringify({ format_version: 1, entries: {} }) };
    await refused(await tarGz([manifest, { name: "frames//home.html", data: FRAME }]), "entry_name");
  });

  it("an entry twice: duplicate_entry", async () => {
    const manifest = {
      name: "manifest.json",
      data: JSON.stringify({ format_version: 1, entries: { "frames/home.html": sha256(FRAME) } }),
    };
    const twice = { name: "frames/home.html", data: FRAME };
    await refused(await tarGz([manifest, twice, twice]), "duplicate_entry");
  });

  it("more than 100,000 entries: too_many_entries", async () => {
    const many = Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => ({ name: `frames/f${i}.html`, data: "" }));
    await refused(await tarGz(many), "too_many_entries");
  });

  it("a manifest that is not JSON, has no whole-number format_version, or lists no sha256: bad_manifest", async () => {
    const withManifest = (data: string) => tarGz([{ name: "manifest.json", data }]);
    await refused(await withManifest("{not json"), "bad_manifest");
    await refused(await withManifest(JSON.stringify({ entries: {} })), "bad_manifest");
    await refused(await withManifest(JSON.stringify({ format_version: 1.5, entries: {} })), "bad_manifest");
    await refused(
      await withManifest(JSON.stringify({ format_version: 1, entries: ["frames/a.html"] })),
      "bad_manifest",
    );
    const notSha = { format_version: 1, entries: { "frames/a.html": "not a sha256" } };
    await refused(
      await tarGz([
        { name: "manifest.json", data: JSON.stringify(notSha) },
        { name: "frames/a.html", data: FRAME },
      ]),
      "bad_manifest",
    );
  });

  it("a link entry: entry_type", async () => {
    const manifest = { name: "manifest.json", data: JSON.stringify({ format_version: 1, entries: {} }) };
    await refused(await tarGz([manifest, { name: "media/a.gif", data: "", type: "symlink" }]), "entry_type");
  });

  it("U+0000 in a text entry, in a JSON entry (raw or as \\u0000) or in a media file's texts: nul_character, naming the entry", async () => {
    const page = (title: string) => JSON.stringify({ title, frame: "home", status: "publish" });
    const cases: Array<[string, Record<string, string>]> = [
      ["frames/home.html", { "frames/home.html": "<p>a\u0000b</p>" }],
      ["styles/default/main.css", { "styles/default/main.css": "p { color: red } /*\u0000*/" }],
      ["pages/_/about.json", { "frames/home.html": FRAME, "pages/_/about.json": page("a\u0000b") }],
      ["strings/_.json", { "strings/_.json": '{"hello": "a\\u0000b"}' }],
      ["redirects.json", { "redirects.json": JSON.stringify([{ from: "/a\u0000", to: "/b", status: 301 }]) }],
      [
        "media/logo.gif.json",
        { "media/logo.gif.json": JSON.stringify({ filename: "logo.gif", alt: { "": "\u0000" } }) },
      ],
    ];
    for (const [entry, entries] of cases) {
      const bytes = await handBundle(entries);
      await refused(bytes, "nul_character");
      const answer = await importBytes(t, `/api/sites/${site}/import`, bytes);
      assert.equal(answer.body.entry, entry);
    }
  });

  it("a media entry over the media limit: oversize_entry", async () => {
    await refused(await handBundle({ "media/big.gif": "x".repeat(65) }), "oversize_entry");
  });

  it("entries the manifest does not list, lists but lacks, or no kind has a place for", async () => {
    const unlisted = await tarGz([
      { name: "manifest.json", data: JSON.stringify({ format_version: 1, entries: {} }) },
      { name: "frames/home.html", data: FRAME },
    ]);
    await refused(unlisted, "unlisted_entry");
    const missing = await tarGz([
      { name: "manifest.json", data: JSON.stringify({ format_version: 1, entries: { "frames/a.html": sha256("a") } }) },
    ]);
    await refused(missing, "missing_entry");
    await refused(await handBundle({ "secrets/x.txt": "x" }), "unknown_entry");
    await refused(await handBundle({ "menus/main.json": "{not json" }), "bad_entry");
  });

  it("a newer format: 400 bundle_version_unsupported; an older one (0) is migrated", async () => {
    await refused(await handBundle({}, { format_version: 2 }), "", "bundle_version_unsupported");
    const old = await tarGz([
      {
        name: "manifest.json",
        data: JSON.stringify({
          format_version: 0,
          site: { domain: "old.localhost" },
          files: { "frames/home.html": sha256(FRAME) },
        }),
      },
      { name: "frames/home.html", data: FRAME },
    ]);
    const planned = await importBytes(t, `/api/sites/${site}/import?dry_run=1`, old);
    assert.equal(planned.status, 200, JSON.stringify(planned.body));
    assert.deepEqual(planned.body.creates, [{ kind: "frames", name: "home" }]);
    assert.equal(planned.body.source.domain, "old.localhost");
  });

  it("another content type: 415; an unknown mode: 400 invalid_parameter", async () => {
    const bytes = await handBundle({});
    const typed = await t.app.inject({
      method: "POST",
      url: `/api/sites/${site}/import`,
      headers: { authorization: `Bearer ${t.adminToken}`, "content-type": "application/json" },
      payload: "{}",
    });
    assert.equal(JSON.parse(typed.body).error, "unsupported_media_type");
    const mode = await importBytes(t, `/api/sites/${site}/import?mode=wipe`, bytes);
    assert.deepEqual([mode.status, mode.body.error], [400, "invalid_parameter"]);
  });

  it("an editor sees no such site (404 site_not_found); only a super-administrator makes a site", async () => {
    const editor = await makeUser(t, "bundle-editor");
    await call(t, "PUT", `/api/site/${site}/users/${editor.id}`, { role: "editor" });
    const exported = await t.call("GET", `/api/sites/${site}/export`, { token: editor.token });
    assert.deepEqual([exported.status, exported.body.error], [404, "site_not_found"]);
    const bytes = await handBundle({});
    const into = await importBytes(t, `/api/sites/${site}/import`, bytes, editor.token);
    assert.deepEqual([into.status, into.body.error], [404, "site_not_found"]);
    const made = await importBytes(t, "/api/sites/import?domain=x.localhost", bytes, editor.token);
    assert.deepEqual([made.status, made.body.error], [403, "insufficient_role"]);
  });
});
