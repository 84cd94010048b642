// The use behind the quotas is kept as running counters (`site_usage`), moved by every counted write
// in its own transaction, so a check never counts the site. These tests prove the counters right:
// after any mix of writes and deletes (refused ones included) they equal a recount of what the site
// holds, and the migration that brought them counted the sites that already existed.
// The recount holds revisions and the trash (stored_bytes) and static copies and
// frame bakes (published_bytes), so the sequences also restore revisions, delete, restore and purge
// from the trash, run retention, put pages on frames and set small byte quotas (old revisions are
// pruned to make room, outputs past published_bytes are not kept). Stylesheet bundles count in
// published_bytes too: stylesheets import each other, are deleted with `force` (their importers
// bundled again) and days pass, so the copies replaced a day before are dropped by the next write.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { sql } from "kysely";
import { makeSite, startTestApp, type Answer, type TestApp } from "../support/app.ts";
import { textBytes } from "../../src/quotas/bytes.ts";
import { recountUsage, usageOf } from "../../src/quotas/usage.ts";
import { prune } from "../../src/revisions/trash.ts";
import { migrate } from "../../src/store/migrations.ts";

type Op =
  | {
      op: "page";
      title: string;
      content: string;
      fields?: Record<string, unknown>;
      tags?: string[];
      parent?: number;
      url?: string;
      frame?: string;
    }
  | { op: "patch"; pick: number; title?: string; content?: string; fields?: Record<string, unknown>; tags?: string[] }
  | { op: "trash" | "purge"; pick: number }
  | { op: "translate"; pick: number; title?: string; content?: string }
  | { op: "frame"; slug: string; html: string }
  | { op: "replace"; slug: string; html: string }
  | { op: "rename"; slug: string; to: string }
  | { op: "unframe"; slug: string }
  | { op: "data"; name: string; lang: string | null; items: Array<Record<string, unknown>> }
  | { op: "undata"; name: string; lang: string | null }
  | { op: "assign"; slug: string; pick: number }
  | { op: "restore"; slug: string; n: number }
  | { op: "style"; name: string; css: string; imports: boolean }
  | { op: "unstyle"; name: string; force: boolean }
  | { op: "day" }
  | { op: "menu"; name: string; pick: number }
  | { op: "unmenu"; name: string }
  | { op: "untrash" | "purgetrash"; pick: number }
  | { op: "prune"; keep: number; expire: boolean }
  | { op: "quota"; quota: string; value: number | null };

const text = (maxLength: number) => fc.string({ unit: "grapheme", maxLength });
const slug = fc.constantFrom("a", "nav", "navigation-bar");
const fields = fc.dictionary(fc.constantFrom("k", "ü", "long"), fc.oneof(fc.integer(), text(12), fc.constant(null)), {
  maxKeys: 3,
});
const tags = fc.array(fc.constantFrom("news", "Presse", "ünïcode"), { maxLength: 3 });
const html = fc
  .tuple(text(30), fc.option(slug, { nil: undefined }))
  .map(([body, ref]) => `<p>${body.replace(/[<>&]/g, "")}</p>${ref ? `<!-- svc/frame {"name": "${ref}"} /-->` : ""}`);

const ops: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant("page" as const),
    title: text(16),
    content: text(40),
    fields: fc.option(fields, { nil: undefined }),
    tags: fc.option(tags, { nil: undefined }),
    url: fc.option(fc.constantFrom("/s/t/leaf", "/s/other", "/u/v/w/x"), { nil: undefined }),
    frame: fc.option(slug, { nil: undefined }),
  }),
  fc.record({
    op: fc.constant("patch" as const),
    pick: fc.nat(),
    title: fc.option(text(16), { nil: undefined }),
    content: fc.option(text(60), { nil: undefined }),
    fields: fc.option(fields, { nil: undefined }),
    tags: fc.option(tags, { nil: undefined }),
  }),
  fc.record({ op: fc.constantFrom("trash" as const, "purge" as const), pick: fc.nat() }),
  fc.record({
    op: fc.constant("translate" as const),
    pick: fc.nat(),
    title: fc.option(text(16), { nil: undefined }),
    content: fc.option(text(20), { nil: undefined }),
  }),
  fc.record({ op: fc.constant("frame" as const), slug, html }),
  fc.record({ op: fc.constant("replace" as const), slug, html }),
  fc.record({ op: fc.constant("rename" as const), slug, to: slug }),
  fc.record({ op: fc.constant("unframe" as const), slug }),
  fc.record({
    op: fc.constant("data" as const),
    name: fc.constantFrom("team", "news"),
    lang: fc.constantFrom(null, "de"),
    items: fc.array(fc.dictionary(fc.constantFrom("n", "é"), text(8), { maxKeys: 2 }), { maxLength: 6 }),
  }),
  fc.record({
    op: fc.constant("undata" as const),
    name: fc.constantFrom("team", "news"),
    lang: fc.constantFrom(null, "de"),
  }),
  fc.record({ op: fc.constant("assign" as const), slug, pick: fc.nat() }),
  fc.record({ op: fc.constant("restore" as const), slug, n: fc.integer({ min: 1, max: 4 }) }),
  // `imports`: the other of the two (refused when it would close a cycle).
  fc.record({
    op: fc.constant("style" as const),
    name: fc.constantFrom("main", "print"),
    css: text(20).map((body) => `a{content:"${body.replace(/["\\\n\r]/g, "")}"}`),
    imports: fc.boolean(),
  }),
  fc.record({ op: fc.constant("unstyle" as const), name: fc.constantFrom("main", "print"), force: fc.boolean() }),
  fc.constant({ op: "day" as const }),
  fc.record({ op: fc.constant("menu" as const), name: fc.constantFrom("Main", "Footer"), pick: fc.nat() }),
  fc.record({ op: fc.constant("unmenu" as const), name: fc.constantFrom("main", "footer") }),
  fc.record({ op: fc.constantFrom("untrash" as const, "purgetrash" as const), pick: fc.nat() }),
  fc.record({ op: fc.constant("prune" as const), keep: fc.integer({ min: 1, max: 3 }), expire: fc.boolean() }),
  // Quotas lowered (and restored) on the way: refused writes must leave the counters alone; byte
  // quotas near the use make writes prune old revisions and outputs go unkept.
  fc.record({
    op: fc.constant("quota" as const),
    quota: fc.constantFrom("pages", "frames", "data_items", "stored_bytes", "published_bytes"),
    value: fc.option(fc.oneof(fc.nat({ max: 6 }), fc.nat({ max: 900 }), fc.nat({ max: 6000 })), { nil: null }),
  }),
);

describe("quota counters equal a recount", () => {
  let t: TestApp;
  let n = 0;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  async function run(site: number, sequence: Op[], tick: (ms: number) => void): Promise<void> {
    const S = `/api/site/${site}`;
    const pages: number[] = [];
    const pick = (k: number) => (pages.length === 0 ? 999_999 : pages[k % pages.length]);
    for (const step of sequence) {
      let r: Answer;
      switch (step.op) {
        case "page":
          r = await t.call("POST", `${S}/pages`, {
            body: {
              title: step.title,
              content: step.content,
              ...(step.fields ? { fields: step.fields } : {}),
              ...(step.tags ? { tags: step.tags } : {}),
              ...(step.url ? { url: step.url, create_missing_parents: true } : {}),
              ...(step.frame ? { frame: step.frame } : {}),
            },
          });
          if (r.status === 201)
            pages.push(r.body.page.id, ...(r.body.created_stubs ?? []).map((stub: { id: number }) => stub.id));
          break;
        case "patch":
          r = await t.call("PATCH", `${S}/pages/${pick(step.pick)}`, {
            body: {
              ...(step.title !== undefined ? { title: step.title } : {}),
              ...(step.content !== undefined ? { content: step.content } : {}),
              ...(step.fields ? { fields: step.fields } : {}),
              ...(step.tags ? { tags: step.tags } : {}),
              ...(step.title === undefined && step.content === undefined && !step.fields && !step.tags
                ? { status: "draft" }
                : {}),
            },
          });
          break;
        case "trash":
        case "purge":
          r = await t.call("DELETE", `${S}/pages/${pick(step.pick)}${step.op === "purge" ? "?force=true" : ""}`);
          break;
        case "translate":
          r = await t.call("POST", `${S}/pages/language`, {
            body: {
              page: pick(step.pick),
              lang: "de",
              ...(step.title !== undefined ? { title: step.title } : {}),
              ...(step.content !== undefined ? { content: step.content } : {}),
            },
          });
          if (r.status === 201) pages.push(r.body.page.id);
          break;
        case "frame":
          r = await t.call("POST", `${S}/frames`, { body: { slug: step.slug, html: step.html } });
          break;
        case "replace":
          r = await t.call("PUT", `${S}/frames/${step.slug}`, { body: { html: step.html } });
          break;
        case "rename":
          r = await t.call("PATCH", `${S}/frames/${step.slug}`, { body: { slug: step.to } });
          break;
        case "unframe":
          r = await t.call("DELETE", `${S}/frames/${step.slug}`);
          break;
        case "data":
          r = await t.call("PUT", `${S}/data/${step.name}`, {
            body: { items: step.items, ...(step.lang ? { lang: step.lang } : {}) },
          });
          break;
        case "undata":
          r = await t.call("DELETE", `${S}/data/${step.name}${step.lang ? `?lang=${step.lang}` : ""}`);
          break;
        case "assign":
          r = await t.call("POST", `${S}/frames/${step.slug}/assign`, { body: { page: pick(step.pick) } });
          break;
        case "restore":
          r = await t.call("POST", `${S}/frames/${step.slug}/revisions/${step.n}/restore`);
          break;
        case "style":
          r = await t.call("PUT", `${S}/styles/${step.name}`, {
            body: { css: `${step.imports ? `@import "${step.name === "main" ? "print" : "main"}";` : ""}${step.css}` },
          });
          break;
        case "unstyle":
          r = await t.call("DELETE", `${S}/styles/${step.name}${step.force ? "?force=1" : ""}`);
          break;
        case "day":
          // Past the day a replaced stylesheet bundle is kept: the next stylesheet write drops it.
          tick(25 * 60 * 60 * 1000);
          continue;
        case "menu":
          r = await t.call("POST", `${S}/menus`, {
            body: { name: step.name, items: [pick(step.pick)], allow_invalid: true },
          });
          break;
        case "unmenu":
          r = await t.call("DELETE", `${S}/menus/${step.name}`);
          break;
        case "untrash":
        case "purgetrash": {
          const items = (await t.call("GET", `${S}/trash`)).body.items as Array<{ kind: string; id: string }>;
          const item = items[step.pick % Math.max(items.length, 1)];
          if (!item) continue;
          r =
            step.op === "untrash"
              ? await t.call("POST", `${S}/trash/${item.kind}/${item.id}/restore`)
              : await t.call("DELETE", `${S}/trash/${item.kind}/${item.id}`);
          break;
        }
        case "prune":
          // Every site's history at once, as the background pass does; expired: the trash emptied.
          await prune(t.store.db, step.keep, 1, new Date(Date.now() + (step.expire ? 2 : 0) * 86_400_000));
          continue;
        case "quota":
          r = await t.call("PATCH", `/api/sites/${site}/quotas`, { body: { [step.quota]: step.value } });
          break;
      }
      assert.ok(r.status < 500, `${JSON.stringify(step)} answered ${r.status}: ${r.text}`);
    }
  }

  it("after any sequence of page, translation, stub, frame, rename, assignment, data-set, stylesheet, menu and quota writes and deletes, revision and trash restores, purges, retention and days passing", async (c) => {
    c.mock.timers.enable({ apis: ["Date"], now: Date.now() });
    await fc.assert(
      fc.asyncProperty(fc.array(ops, { minLength: 1, maxLength: 60, size: "max" }), async (sequence) => {
        const site = await makeSite(t, `Counted ${++n}`, `counted${n}.localhost`);
        for (const code of ["en", "de"]) await t.call("POST", `/api/site/${site}/languages`, { body: { code } });
        await run(site, sequence, (ms) => c.mock.timers.tick(ms));
        const recount = await recountUsage(t.store.db, site);
        assert.deepEqual(await usageOf(t.store.db, site), recount);
        const answered = (await t.call("GET", `/api/site/${site}/usage`)).body.usage;
        assert.deepEqual(
          Object.fromEntries(Object.entries(answered).map(([key, value]) => [key, (value as { used: number }).used])),
          recount,
        );
      }),
      { numRuns: 40 },
    );
  });

  /** What the site's revisions and trash weigh, summed from their rows (not by the recount's SQL). */
  async function historyBytes(site: number): Promise<number> {
    const utf8 = (text: string) => Buffer.byteLength(text, "utf8");
    const revisions = await t.store.db
      .selectFrom("revisions")
      .select(["content", "fields_json", "summary_json"])
      .where("site_id", "=", site)
      .execute();
    const trash = await t.store.db
      .selectFrom("trash")
      .select(["slug", "extra_json"])
      .where("site_id", "=", site)
      .execute();
    return (
      revisions.reduce((sum, r) => sum + utf8(r.content) + utf8(r.fields_json) + utf8(r.summary_json), 0) +
      trash.reduce((sum, r) => sum + utf8(r.slug) + utf8(r.extra_json), 0)
    );
  }

  /** As before migration 0300: no search index (its entries are made again at the next start). */
  async function forgetSearch(): Promise<void> {
    if (t.store.dialect === "sqlite") {
      await sql`drop trigger page_search_page_gone`.execute(t.store.db);
      await sql`drop table page_search_terms`.execute(t.store.db);
      await sql`drop table page_search_heads`.execute(t.store.db);
    }
    await sql`drop table page_search`.execute(t.store.db);
  }

  async function forgetForms(): Promise<void> {
    await sql`drop table form_notifications`.execute(t.store.db);
    await sql`drop table form_submissions`.execute(t.store.db);
    await sql`drop table forms`.execute(t.store.db);
    await sql`drop table form_keys`.execute(t.store.db);
    await sql`alter table site_usage drop column form_submissions`.execute(t.store.db);
  }

  /**
   * As before migrations 0160 (media_variants), 0170 (publish_outbox), 0180 (its wrote_json),
   * 0190 (site_settings.iframe_hosts_json), 0200 (sessions), 0210 (events), 0220 (webhooks), 0230 (pages' format, date
   * and tags), 0240 (Markdown's page references), 0250 (SEO per language) and 0260
   * (site_settings.menu_locations_json), 0270 (pages' feed) and 0280 (tags counted), which run again
   * after the one a test rewinds.
   */
  /** One counter of a site read while later migrations are rewound (usageOf reads the counters they add). */
  async function counterBefore(db: typeof t.store.db, site: number, column: string): Promise<number> {
    const { rows } = await sql<{
      value: number;
    }>`select ${sql.ref(column)} as value from site_usage where site_id = ${site}`.execute(db);
    return Number(rows[0]?.value ?? 0);
  }

  /** As before migrations 0350 and 0360: no scheme of domains, no printed origin of sites, no pages' Atom keys. */
  async function forgetDomainSchemes(): Promise<void> {
    await sql`alter table pages drop column atom_key`.execute(t.store.db);
    await sql`alter table site_domains drop column https`.execute(t.store.db);
    await sql`alter table sites drop column https`.execute(t.store.db);
    await sql`alter table sites drop column printed_origin`.execute(t.store.db);
  }

  async function forgetMediaVariants(): Promise<void> {
    await forgetDomainSchemes();
    await forgetSearch();
    await forgetForms();
    await sql`alter table tokens drop column read_only`.execute(t.store.db);
    await sql`drop table site_seo_languages`.execute(t.store.db);
    await sql`drop table page_refs`.execute(t.store.db);
    await sql`alter table pages drop column content_trust`.execute(t.store.db);
    await sql`alter table pages drop column feed`.execute(t.store.db);
    await sql`drop index pages_scheduled`.execute(t.store.db);
    await sql`alter table pages drop column content_format`.execute(t.store.db);
    await sql`alter table pages drop column date_gmt`.execute(t.store.db);
    // Before 0280 the counters held no tags: what it counts is taken back out with the column.
    await sql`update site_usage set stored_bytes = stored_bytes - (select coalesce(sum(${textBytes(t.store.db, "p.tags_json")}), 0) from pages p where p.site_id = site_usage.site_id)`.execute(
      t.store.db,
    );
    await sql`alter table pages drop column tags_json`.execute(t.store.db);
    await sql`drop table webhook_deliveries`.execute(t.store.db);
    await sql`drop table webhooks`.execute(t.store.db);
    await sql`drop table events`.execute(t.store.db);
    await sql`drop table sessions`.execute(t.store.db);
    await sql`drop table publish_outbox`.execute(t.store.db);
    await sql`drop table media_variants`.execute(t.store.db);
    await sql`alter table site_settings drop column menu_locations_json`.execute(t.store.db);
    await sql`alter table site_settings drop column iframe_hosts_json`.execute(t.store.db);
    await sql`delete from kysely_migration where name in ('0160_media_variants', '0170_publish_outbox', '0180_outbox_wrote', '0190_iframe_hosts', '0200_sessions', '0210_events', '0220_webhooks', '0230_page_content', '0240_markdown', '0250_seo_languages', '0260_menu_locations', '0270_page_feed', '0280_counted_tags', '0290_read_only_tokens', '0300_search', '0310_forms', '0350_domain_https', '0360_page_atom_key')`.execute(
      t.store.db,
    );
  }

  /** As before migration 0150: copies without their weight (published_bytes is the caller's to set back). */
  async function uncountStyleCopies(): Promise<void> {
    await forgetMediaVariants();
    await sql`drop index style_copies_replaced`.execute(t.store.db);
    await sql`alter table style_copies drop column bytes`.execute(t.store.db);
    await sql`delete from kysely_migration where name = '0150_counted_style_copies'`.execute(t.store.db);
  }

  it("migration 0280 counts the tags of the pages that exist when it runs in stored_bytes; page writes keep the counter equal to the recount, tags included", async () => {
    const site = await makeSite(t, "Before counted tags", "before-tags.localhost");
    const S = `/api/site/${site}`;
    const db = t.store.db;
    const tagged = await t.call("POST", `${S}/pages`, { body: { title: "Tagged", tags: ["news", "Größe"] } });
    assert.equal(tagged.status, 201);
    const retag = await t.call("PATCH", `${S}/pages/${tagged.body.page.id}`, { body: { tags: ["news"] } });
    assert.equal(retag.status, 200);
    assert.deepEqual(await usageOf(db, site), await recountUsage(db, site), "the writes moved the counter by the tags");
    // As before the migration: the counters without any page's tags.
    await sql`update site_usage set stored_bytes = stored_bytes - (select coalesce(sum(${textBytes(db, "p.tags_json")}), 0) from pages p where p.site_id = site_usage.site_id)`.execute(
      db,
    );
    // And as before the migrations after it (their own tests rewind them too).
    await sql`alter table tokens drop column read_only`.execute(db);
    await forgetDomainSchemes();
    await forgetSearch();
    await forgetForms();
    await sql`delete from kysely_migration where name in ('0280_counted_tags', '0290_read_only_tokens', '0300_search', '0310_forms', '0350_domain_https', '0360_page_atom_key')`.execute(
      db,
    );
    const uncounted = await counterBefore(db, site, "stored_bytes");
    await migrate(db, t.store.dialect);
    assert.equal((await usageOf(db, site)).stored_bytes, uncounted + Buffer.byteLength('["news"]'));
    for (const row of await db.selectFrom("sites").select("id").execute()) {
      assert.deepEqual(await usageOf(db, row.id), await recountUsage(db, row.id), `site ${row.id}`);
    }
  });

  it("migration 0140 counts the revisions, trash, static copies and frame bakes of the sites that exist when it runs", async () => {
    const site = await makeSite(t, "Before counted history", "before-history.localhost");
    const S = `/api/site/${site}`;
    const layout = (word: string) => `<!DOCTYPE html><html><body><p>${word}</p></body></html>`;
    assert.equal((await t.call("POST", `${S}/frames`, { body: { slug: "layout", html: layout("old") } })).status, 201);
    assert.equal((await t.call("POST", `${S}/pages`, { body: { title: "A", frame: "layout" } })).status, 201);
    assert.equal((await t.call("PUT", `${S}/frames/layout`, { body: { html: layout("new") } })).status, 200);
    assert.equal((await t.call("POST", `${S}/frames`, { body: { slug: "gone", html: "<p>gone</p>" } })).status, 201);
    assert.equal((await t.call("DELETE", `${S}/frames/gone`)).status, 200);
    // A site whose only writes were of menus: no quota counted them, so before 0140 it had no usage row.
    const menusOnly = await makeSite(t, "Menus only", "menus-only.localhost");
    assert.equal((await t.call("POST", `/api/site/${menusOnly}/menus`, { body: { name: "Main" } })).status, 201);
    const expected = await recountUsage(t.store.db, site);
    assert.equal(
      expected.published_bytes,
      2 * Buffer.byteLength(layout("new")),
      "the page's copy and the frame's bake",
    );

    // As before the migration: each site's live content counted only, no published_bytes.
    const db = t.store.db;
    for (const row of await db.selectFrom("site_usage").select("site_id").execute()) {
      const live = (await recountUsage(db, row.site_id)).stored_bytes - (await historyBytes(row.site_id));
      await sql`update site_usage set stored_bytes = ${live} where site_id = ${row.site_id}`.execute(db);
    }
    await sql`delete from site_usage where site_id = ${menusOnly}`.execute(db);
    await sql`alter table site_usage drop column published_bytes`.execute(db);
    await sql`drop index revisions_site_order`.execute(db);
    await sql`delete from kysely_migration where name = '0140_counted_history'`.execute(db);
    // 0150, after it, adds the stylesheet bundles to the published_bytes 0140 counts afresh.
    await uncountStyleCopies();
    await migrate(db, t.store.dialect);

    assert.deepEqual(await usageOf(db, site), expected);
    assert.ok((await usageOf(db, menusOnly)).stored_bytes > 0, "the menu's revision counts");
    for (const row of await db.selectFrom("sites").select("id").execute()) {
      assert.deepEqual(await usageOf(db, row.id), await recountUsage(db, row.id), `site ${row.id}`);
    }
  });

  it("migration 0150 weighs the stylesheet bundles kept (CSS, brotli and gzip) and counts them in published_bytes of the sites that exist when it runs", async () => {
    const site = await makeSite(t, "Before counted bundles", "before-bundles.localhost");
    const S = `/api/site/${site}`;
    for (const css of ["a{color:red}", "a{color:green}"])
      assert.ok((await t.call("PUT", `${S}/styles/main`, { body: { css } })).status < 300);
    assert.equal(
      (await t.call("PUT", `${S}/styles/print`, { body: { css: '@import "main";b{color:red}' } })).status,
      201,
    );
    const expected = await recountUsage(t.store.db, site);
    const db = t.store.db;
    const weighed = async (siteId: number) => {
      const rows = await db
        .selectFrom("style_copies")
        .select(["css", "br", "gzip"])
        .where("site_id", "=", siteId)
        .execute();
      return rows.reduce((sum, row) => sum + Buffer.byteLength(row.css) + row.br.length + row.gzip.length, 0);
    };
    assert.ok(
      (await weighed(site)) > 0 && expected.published_bytes === (await weighed(site)),
      "three copies, nothing else published",
    );
    // A site holding nothing but the copy of a stylesheet deleted for good, which still answers for a day.
    const copiesOnly = await makeSite(t, "Copies only", "copies-only.localhost");
    assert.equal(
      (await t.call("PUT", `/api/site/${copiesOnly}/styles/gone`, { body: { css: "a{color:red}" } })).status,
      201,
    );
    assert.equal((await t.call("DELETE", `/api/site/${copiesOnly}/styles/gone`)).status, 200);
    const [trashed] = (await t.call("GET", `/api/site/${copiesOnly}/trash`)).body.items as Array<{
      kind: string;
      id: string;
    }>;
    assert.equal((await t.call("DELETE", `/api/site/${copiesOnly}/trash/${trashed!.kind}/${trashed!.id}`)).status, 200);
    assert.deepEqual(await recountUsage(db, copiesOnly), {
      pages: 0,
      frames: 0,
      data_items: 0,
      stored_bytes: 0,
      media_bytes: 0,
      form_submissions: 0,
      published_bytes: await weighed(copiesOnly),
    });

    // As before the migration: the copies weigh nothing, and no site counts them.
    for (const row of await db.selectFrom("site_usage").select("site_id").execute()) {
      await sql`update site_usage set published_bytes = published_bytes - ${await weighed(row.site_id)} where site_id = ${row.site_id}`.execute(
        db,
      );
    }
    await sql`delete from site_usage where site_id = ${copiesOnly}`.execute(db);
    await uncountStyleCopies();
    assert.equal(await counterBefore(db, site, "published_bytes"), 0);
    await migrate(db, t.store.dialect);

    assert.deepEqual(await usageOf(db, site), expected);
    assert.ok(
      (await db.selectFrom("site_usage").select("site_id").where("site_id", "=", copiesOnly).executeTakeFirst()) !==
        undefined,
      "the site holding only copies has its row again",
    );
    for (const row of await db.selectFrom("sites").select("id").execute()) {
      assert.deepEqual(await usageOf(db, row.id), await recountUsage(db, row.id), `site ${row.id}`);
    }
  });

  it("the migration counts the sites that exist when it runs", async () => {
    const site = await makeSite(t, "Before quotas", "before-quotas.localhost");
    const S = `/api/site/${site}`;
    await t.call("POST", `${S}/frames`, { body: { slug: "f", html: "<p>Grüße</p>" } });
    await t.call("POST", `${S}/pages`, { body: { title: "Ünïcode", content: "<p>ß</p>", fields: { a: [1, 2] } } });
    await t.call("POST", `${S}/pages`, { body: { title: "Stub", url: "/x/y/z", create_missing_parents: true } });
    await t.call("PUT", `${S}/data/d`, { body: { items: [{ a: "€" }, { b: 2 }] } });
    const expected = await recountUsage(t.store.db, site);
    assert.ok(expected.pages === 4 && expected.frames === 1 && expected.data_items === 2 && expected.stored_bytes > 0);
    // As before the migration: no quota tables; then migrate as a start would.
    const db = t.store.db;
    // The revisions and the trash go with their tables below (made again empty by 0120).
    const history = await historyBytes(site);
    // (Later migrations go too: they run again after it, as on a database that had none of them.)
    await sql`drop table preview_links`.execute(db);
    await sql`drop table trash`.execute(db);
    await sql`drop table revisions`.execute(db);
    await sql`drop table strings`.execute(db);
    await sql`drop table sidebar_trees`.execute(db);
    await sql`drop table sidebars`.execute(db);
    await sql`alter table pages drop column menu_order`.execute(db);
    await sql`drop table redirects`.execute(db);
    await sql`drop table site_seo`.execute(db);
    await sql`alter table pages drop column seo_json`.execute(db);
    await sql`alter table site_settings drop column not_found_page_json`.execute(db);
    await sql`drop table style_copies`.execute(db);
    await sql`drop table styles`.execute(db);
    await forgetMediaVariants();
    await sql`drop table site_domains`.execute(db);
    await sql`drop table media`.execute(db);
    await sql`drop table site_usage`.execute(db);
    await sql`drop table site_quotas`.execute(db);
    await sql`delete from kysely_migration where name in ('0050_quotas', '0060_media', '0070_styles', '0080_domains', '0090_seo', '0100_sidebars', '0110_strings', '0120_revisions', '0130_preview_links', '0140_counted_history', '0150_counted_style_copies')`.execute(
      db,
    );
    await migrate(db, t.store.dialect);
    assert.deepEqual(await usageOf(db, site), { ...expected, stored_bytes: expected.stored_bytes - history });
    for (const row of await db.selectFrom("sites").select("id").execute()) {
      assert.deepEqual(await usageOf(db, row.id), await recountUsage(db, row.id), `site ${row.id}`);
    }
  });
});
