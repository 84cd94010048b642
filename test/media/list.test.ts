// GET /media as a list, paged as GET /pages (docs/media.md "The API", docs/lists.md):
// 100 files a page unless asked, up to 500; the Link header keeps the caller's filters; ?search
// looks in the alt and title of every language.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import sharp from "sharp";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { site, uploadRaw } from "./upload-helpers.ts";

/** The links of a Link header by rel, as path and query. */
function links(header: unknown): Record<string, URL> {
  const out: Record<string, URL> = {};
  for (const part of String(header ?? "").split(/,\s*(?=<)/)) {
    const m = /^<([^>]+)>;\s*rel="([a-z]+)"$/.exec(part.trim());
    if (m) out[m[2]] = new URL(m[1], "http://localhost");
  }
  return out;
}

describe("GET /media paging", () => {
  let t: TestApp;
  let S: number;
  const FILES = 103;
  before(async () => {
    t = await startTestApp();
    S = await makeSite(t, "Many", "many.localhost");
    const dot = await sharp({ create: { width: 2, height: 2, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
    for (let i = 1; i <= FILES; i++)
      assert.equal((await uploadRaw(t, S, dot, { filename: `dot-${i}.png`, type: "image/png" })).status, 201);
  });
  after(() => t.close());

  it("without per_page a page holds 100 files: the rest are on page 2, named by Link rel=next", async () => {
    const first = await t.call("GET", `${site(S)}/media`);
    assert.equal(first.status, 200);
    assert.deepEqual(
      [first.body.total, first.body.media.length, first.headers["x-wp-total"], first.headers["x-wp-totalpages"]],
      [FILES, 100, String(FILES), "2"],
    );
    const next = links(first.headers.link).next;
    assert.ok(next, String(first.headers.link));
    assert.equal(next.searchParams.get("page"), "2");
    const second = await t.call("GET", `${next.pathname}${next.search}`);
    assert.equal(second.body.media.length, FILES - 100);
    const ids = new Set([...first.body.media, ...second.body.media].map((m: { id: number }) => m.id));
    assert.equal(ids.size, FILES, "every file once");
  });

  it("per_page=500 is accepted and answers every file on one page, without a prev or next Link", async () => {
    const r = await t.call("GET", `${site(S)}/media?per_page=500`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.body.total, r.body.media.length, r.headers["x-wp-totalpages"]], [FILES, FILES, "1"]);
    assert.deepEqual(links(r.headers.link), {}, "no prev or next (only the service-desc link)");
    assert.equal((await t.call("GET", `${site(S)}/media?per_page=501`)).body.error, "invalid_parameter");
  });
});

describe("GET /media filters", () => {
  let t: TestApp;
  let S: number;
  before(async () => {
    t = await startTestApp();
    S = await makeSite(t, "Filters", "filters.localhost");
    for (const code of ["en", "fr"])
      assert.equal((await t.call("POST", `${site(S)}/languages`, { body: { code } })).status, 201);
    const png = (n: number) =>
      sharp({ create: { width: 4 + n, height: 4, channels: 3, background: "#654321" } })
        .png()
        .toBuffer();
    for (let i = 1; i <= 5; i++)
      assert.equal((await uploadRaw(t, S, await png(i), { filename: `photo-${i}.png` })).status, 201);
    assert.equal((await uploadRaw(t, S, Buffer.from("%PDF-1.4\n%%EOF\n"), { filename: "photo-list.pdf" })).status, 201);
    assert.equal((await uploadRaw(t, S, await png(9), { filename: "beach.png" })).status, 201);
  });
  after(() => t.close());

  it("the Link header keeps type and search (and per_page) on every page it names", async () => {
    const first = await t.call("GET", `${site(S)}/media?type=image&search=photo&per_page=2`);
    assert.equal(first.status, 200);
    assert.deepEqual([first.body.total, first.body.media.length], [5, 2]);
    const next = links(first.headers.link).next;
    assert.ok(next, String(first.headers.link));
    assert.deepEqual(
      [
        next.pathname,
        next.searchParams.get("type"),
        next.searchParams.get("search"),
        next.searchParams.get("per_page"),
        next.searchParams.get("page"),
      ],
      [`${site(S)}/media`, "image", "photo", "2", "2"],
    );
    const second = await t.call("GET", `${next.pathname}${next.search}`);
    assert.deepEqual([second.body.total, second.body.media.length], [5, 2]);
    const around = links(second.headers.link);
    for (const rel of ["prev", "next"]) {
      assert.deepEqual(
        [around[rel].searchParams.get("type"), around[rel].searchParams.get("search")],
        ["image", "photo"],
        rel,
      );
    }
    const last = await t.call("GET", `${around.next.pathname}${around.next.search}`);
    assert.ok(
      last.body.media.every(
        (m: { mime: string; filename: string }) => m.mime === "image/png" && m.filename.startsWith("photo-"),
      ),
    );
    assert.equal(last.body.media.length, 1);
  });

  it("?search finds an alt or a title written only in a language other than the default", async () => {
    assert.equal(
      (await t.call("GET", `${site(S)}/languages`)).body.default_lang,
      "en",
      "fr is not the default language",
    );
    const r = await t.call("PATCH", `${site(S)}/media/beach`, { body: { alt: { fr: "Plage de sable fin" } } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.media.alt, { fr: "Plage de sable fin" });
    const names = async (search: string) =>
      (await t.call("GET", `${site(S)}/media?search=${encodeURIComponent(search)}`)).body.media.map(
        (m: { filename: string }) => m.filename,
      );
    assert.deepEqual(await names("plage"), ["beach.png"]);
    assert.deepEqual(await names("SABLE FIN"), ["beach.png"], "ignoring case");
    await t.call("PATCH", `${site(S)}/media/photo-1`, { body: { title: { fr: "Été à Nice" } } });
    assert.deepEqual(await names("été"), ["photo-1.png"]);
    await t.call("PATCH", `${site(S)}/media/beach`, { body: { alt: { fr: null } } });
    assert.deepEqual(await names("plage"), [], "a removed alt is no longer found");
  });
});
