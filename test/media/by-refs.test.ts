// What renders read of media (src/media/queries.ts (mediaByRefs)), on a real store of either dialect:
// the site's files by id or slug in one query, addresses by the rule of addresses.ts, and never
// another site's file.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "../../src/store/database.ts";
import { mediaByRefs } from "../../src/media/queries.ts";
import { fileUrl, variantsOf } from "../../src/media/addresses.ts";
import { freshDatabase, type TestDatabase } from "../support/database.ts";

const SHA = (digit: string) => digit.repeat(64);

describe("media as renders read them", () => {
  let dir: string;
  let database: TestDatabase;
  let store: Store;
  let siteA: number;
  let siteB: number;
  const ids: Record<string, number> = {};

  async function file(
    siteId: number,
    slug: string,
    values: { mime?: string; width?: number | null; height?: number | null; alt?: string; sha?: string } = {},
  ): Promise<number> {
    const row = await store.db
      .insertInto("media")
      .values({
        site_id: siteId,
        slug,
        filename: `${slug}.png`,
        mime: values.mime ?? "image/png",
        kind: values.mime === "application/pdf" ? "document" : "image",
        bytes: 10,
        sha256: values.sha ?? SHA("a"),
        width: values.width === undefined ? 1000 : values.width,
        height: values.height === undefined ? 500 : values.height,
        alt_json: values.alt ?? "{}",
        title_json: "{}",
        created_at_gmt: "2026-01-01 00:00:00",
        updated_at_gmt: "2026-01-01 00:00:00",
        updated_by: 1,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-media-source-"));
    database = await freshDatabase();
    store = await openStore({ dataDir: dir, databaseUrl: database.url });
    const site = (name: string) =>
      store.db
        .insertInto("sites")
        .values({ name, domain: `${name}.localhost`, created_at_gmt: "2026-01-01 00:00:00" })
        .returning("id")
        .executeTakeFirstOrThrow();
    siteA = (await site("a")).id;
    siteB = (await site("b")).id;
    ids.hero = await file(siteA, "hero", { alt: JSON.stringify({ en: "Sea", de: "Meer" }), sha: SHA("b") });
    ids.doc = await file(siteA, "brochure", { mime: "application/pdf", width: null, height: null });
    ids.other = await file(siteB, "elsewhere", { sha: SHA("c") });
    ids.sameSlug = await file(siteB, "hero", { sha: SHA("d") });
    ids.bad = await file(siteA, "bad-alt", { alt: "not json" });
  });
  after(async () => {
    await store.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("finds the site's files by id and by slug, each under the ref asked, with its address, variants and alt per language", async () => {
    const found = await mediaByRefs(store.db, siteA, ["hero", String(ids.hero), "brochure", "missing"]);
    assert.deepEqual([...found.keys()].sort(), [String(ids.hero), "brochure", "hero"].sort());
    const hero = found.get("hero")!;
    assert.equal(found.get(String(ids.hero)), hero);
    const row = { sha256: SHA("b"), filename: "hero.png", mime: "image/png", width: 1000, height: 500 };
    assert.deepEqual(hero, {
      id: ids.hero,
      slug: "hero",
      url: fileUrl(row),
      mime: "image/png",
      alt: { en: "Sea", de: "Meer" },
      width: 1000,
      height: 500,
      variants: variantsOf(row).map(({ url, width }) => ({ url, width })),
    });
    assert.deepEqual(
      hero.variants.map((v) => v.width),
      [320, 640],
    );
    assert.deepEqual(found.get("brochure")!.variants, []);
  });

  it("never finds another site's file, by id or by slug", async () => {
    const found = await mediaByRefs(store.db, siteA, [String(ids.other), "elsewhere", String(ids.sameSlug)]);
    assert.equal(found.size, 0);
    const fromB = await mediaByRefs(store.db, siteB, ["hero", String(ids.hero)]);
    assert.deepEqual(
      [...fromB.values()].map((f) => f.id),
      [ids.sameSlug],
      "site b's hero is its own",
    );
  });

  it("an id wins over a slug written as the same digits; digits with a leading zero or past the id range are slugs", async () => {
    const digits = await file(siteA, String(ids.hero), { sha: SHA("e") });
    const zero = await file(siteA, `0${ids.hero}`, { sha: SHA("f") });
    const found = await mediaByRefs(store.db, siteA, [String(ids.hero), `0${ids.hero}`, "99999999999"]);
    assert.equal(found.get(String(ids.hero))!.id, ids.hero);
    assert.equal(found.get(`0${ids.hero}`)!.id, zero);
    assert.equal(found.has("99999999999"), false);
    assert.notEqual(digits, ids.hero);
  });

  it("a malformed alt is no alt text rather than a failed render; no refs, no query", async () => {
    assert.deepEqual((await mediaByRefs(store.db, siteA, ["bad-alt"])).get("bad-alt")!.alt, {});
    assert.equal((await mediaByRefs(store.db, siteA, [])).size, 0);
  });
});
