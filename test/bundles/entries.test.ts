// What an export holds (docs/bundles.md, "What a bundle holds"): every text entry is UTF-8 and every
// JSON entry keeps its characters as they are (a Greek or Japanese title stays literal, no `\u`
// escape); a media file that is not an image (a PDF) goes through an export and a replace import
// byte for byte, with its texts.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { extract } from "tar-stream";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { call, exportBytes, handBundle, importBytes } from "./support.ts";
import { PDF } from "./rich-site.ts";

/** The entries of a bundle, by path, in order. */
async function entriesOf(bytes: Buffer): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const tar = extract();
  tar.on("entry", (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
    stream.on("end", () => {
      out.set(header.name, Buffer.concat(chunks));
      next();
    });
  });
  await pipeline(Readable.from([bytes]), createGunzip(), tar);
  return out;
}

const GREEK = "Καλημέρα κόσμε";
const JAPANESE = "こんにちは世界";

describe("bundles: what an export holds", () => {
  let t: TestApp;
  let site: number;
  before(async () => {
    t = await startTestApp();
    site = await makeSite(t, "Ελληνικά 日本語", "utf8.localhost");
    const S = `/api/site/${site}`;
    await call(t, "POST", `${S}/frames`, {
      slug: "page",
      html: '<!doctype html><html><body><h1 data-op-bind=\'{"text": "page.title"}\'>—</h1><a data-op-bind=\'{"href": "media.manual.url"}\'>PDF</a></body></html>',
    });
    await call(t, "POST", `${S}/pages`, { title: GREEK, slug: "greek", frame: "page", content: `<p>${JAPANESE}</p>` });
    await call(t, "POST", `${S}/pages`, { title: JAPANESE, slug: "japanese", frame: "page" });
    await call(t, "PUT", `${S}/data/words`, { items: [{ word: GREEK, tab: "a\tb" }] });
    const upload = await t.call("POST", `${S}/media?filename=manual.pdf`, {
      payload: PDF,
      headers: { "content-type": "application/pdf" },
    });
    assert.equal(upload.status, 201, upload.text);
    await call(t, "PATCH", `${S}/media/manual`, { alt: { "": `Das Handbuch — ${JAPANESE}` } });
    await t.settled();
  });
  after(() => t.close());

  it("every text entry is UTF-8; JSON keeps non-ASCII characters literal, escaping only control characters", async () => {
    const entries = await entriesOf(await exportBytes(t, site));
    assert.equal([...entries.keys()][0], "manifest.json");
    const decoder = new TextDecoder("utf-8", { fatal: true });
    let json = 0;
    for (const [path, bytes] of entries) {
      if (path === "media/manual.pdf") continue;
      const text = decoder.decode(bytes);
      if (!path.endsWith(".json")) continue;
      json++;
      assert.doesNotMatch(text, /\\u[0-9a-fA-F]{4}/, `${path} holds no \\u escape`);
      assert.ok(text.endsWith("}\n") || text.endsWith("]\n"), `${path} ends with a newline`);
      JSON.parse(text);
    }
    assert.ok(json >= 5, `${json} JSON entries`);
    const greek = entries.get("pages/_/greek.json")!.toString("utf8");
    assert.ok(greek.includes(`"title": "${GREEK}"`), greek);
    assert.ok(greek.includes(`<p>${JAPANESE}</p>`), greek);
    assert.ok(entries.get("pages/_/japanese.json")!.toString("utf8").includes(`"title": "${JAPANESE}"`));
    const words = entries.get("data/words.json")!.toString("utf8");
    assert.ok(words.includes(GREEK) && words.includes('"a\\tb"'), words);
    assert.ok(entries.get("media/manual.pdf.json")!.toString("utf8").includes(JAPANESE));
  });

  it("a page's Atom key (its site's domain, creation date and id) is exported and kept by an import; a key not of that form is left out", async () => {
    const bytes = await exportBytes(t, site);
    const greek = JSON.parse((await entriesOf(bytes)).get("pages/_/greek.json")!.toString());
    const row = await t.store.db
      .selectFrom("pages")
      .select(["id", "created_at_gmt"])
      .where("site_id", "=", site)
      .where("slug", "=", "greek")
      .executeTakeFirstOrThrow();
    assert.equal(greek.atom_key, `utf8.localhost,${row.created_at_gmt.slice(0, 10)}:${row.id}`);
    const keyOf = async (target: number) =>
      (
        await t.store.db
          .selectFrom("pages")
          .select("atom_key")
          .where("site_id", "=", target)
          .where("slug", "=", "greek")
          .executeTakeFirstOrThrow()
      ).atom_key;
    const target = await makeSite(t, "Keys", "keys-target.localhost");
    assert.equal((await importBytes(t, `/api/sites/${target}/import`, bytes)).status, 200);
    assert.equal(await keyOf(target), greek.atom_key, "the imported page keeps the key it had");
    const entry = { ...greek, atom_key: "not a key", translations: {} };
    const handMade = await handBundle({
      "frames/page.html": "<p>x</p>",
      "pages/_/greek.json": JSON.stringify(entry),
    });
    const other = await makeSite(t, "Keyless", "keyless-target.localhost");
    assert.equal((await importBytes(t, `/api/sites/${other}/import`, handMade)).status, 200);
    assert.equal(await keyOf(other), null, "its ids are made of the page as it is here");
  });

  it("a PDF goes through an export and a replace import byte for byte, with its texts", async () => {
    const bytes = await exportBytes(t, site);
    assert.ok((await entriesOf(bytes)).get("media/manual.pdf")!.equals(PDF));
    const target = await makeSite(t, "Target", "pdf-target.localhost");
    await call(t, "POST", `/api/site/${target}/frames`, { slug: "other", html: "<p>x</p>" });
    const replaced = await importBytes(t, `/api/sites/${target}/import?mode=replace`, bytes);
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.deepEqual(replaced.body.conflicts, []);
    assert.ok(replaced.body.creates.some((item: any) => item.kind === "media" && item.name === "manual.pdf"));
    assert.deepEqual(replaced.body.deletes, [{ kind: "frames", name: "other" }]);
    await t.settled();
    const media = (await call(t, "GET", `/api/site/${target}/media/manual`)).media;
    assert.equal(media.mime, "application/pdf");
    assert.equal(media.filename, "manual.pdf");
    assert.deepEqual(media.alt, { "": `Das Handbuch — ${JAPANESE}` });
    const file = await t.app.inject({ method: "GET", url: media.url, headers: { host: "pdf-target.localhost" } });
    assert.equal(file.statusCode, 200);
    assert.ok(file.rawPayload.equals(PDF), "the file answers the bundle's bytes");
    const page = await t.app.inject({ method: "GET", url: "/greek/", headers: { host: "pdf-target.localhost" } });
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(`href="${media.url}"`), page.body);
    // Again: nothing left to do.
    const again = await importBytes(t, `/api/sites/${target}/import?mode=replace&dry_run=1`, bytes);
    assert.deepEqual([again.body.creates, again.body.updates, again.body.deletes], [[], [], []]);
  });
});
