// Sidebars' revisions, restores and the trash (docs/revisions.md): one object per
// sidebar, by name, through all its languages; every PUT and DELETE leaves one revision; a
// restore writes every language's tree at once and is published; a deleted sidebar comes back
// from the trash with its trees, item ids and history.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { TestApp } from "../support/app.ts";
import { ok, seoSite as newSite, startTestApp, type SeoSite } from "../seo/helpers.ts";

const FRAME = `<!DOCTYPE html><html><body><!-- svc/sidebar {"name": "docs"} /--><main data-op-bind='{"html": "page.content"}'></main></body></html>`;

/** The link texts of the sidebar's nav on a public page. */
function shown(html: string): string[] {
  const nav = /<nav class="sidebar"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? "";
  return [...nav.matchAll(/<a [^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);
}

const codes = (answer: { warnings: Array<{ code: string }> }) => answer.warnings.map((w) => w.code);

describe("sidebars: revisions, restores and the trash", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  async function site(languages = false): Promise<{ site: SeoSite; pages: Record<string, number> }> {
    const s = await newSite(t, { languages });
    await s.frame("doc", FRAME);
    const pages: Record<string, number> = {};
    const lang = languages ? { lang: "en" } : {};
    for (const title of ["Intro", "Install", "Usage"]) pages[title.toLowerCase()] = await s.page(title, "doc", lang);
    return { site: s, pages };
  }

  const revisions = async (s: SeoSite, name = "docs") =>
    ok(await s.api("GET", `/sidebars/${name}/revisions`), "revisions") as {
      total: number;
      revisions: Array<{ revision: number; summary: string[] }>;
    };
  const onPage = async (s: SeoSite) => {
    const page = await s.visit("/intro/");
    assert.equal(page.status, 200);
    return shown(page.text);
  };

  it("each PUT leaves exactly one revision of the sidebar, kept by name through its languages; the summary names the changed fields (items, root, trees)", async () => {
    const { site: s, pages } = await site(true);
    ok(await s.api("PUT", "/sidebars/docs", { items: [{ page: pages.intro }] }), "create", 201);
    assert.deepEqual(
      (await revisions(s)).revisions.map((r) => r.summary),
      [["items", "name", "root", "trees"]],
    );
    ok(
      await s.api("PUT", "/sidebars/docs", {
        items: [{ page: pages.intro }, { url: "https://example.com", label: "Elsewhere" }],
      }),
      "items",
    );
    ok(await s.api("PUT", "/sidebars/docs", { items: [{ label: "Start", items: [] }], lang: "de" }), "de");
    ok(await s.api("PUT", "/sidebars/docs", { root: pages.intro }), "generated");
    const listed = await revisions(s);
    assert.equal(listed.total, 4);
    assert.deepEqual(
      listed.revisions.map((r) => r.summary),
      [["items", "root"], ["trees"], ["items"], ["items", "name", "root", "trees"]],
    );
    const content = JSON.parse(ok(await s.api("GET", "/sidebars/docs/revisions/3"), "third").revision.content);
    assert.deepEqual(Object.keys(content.trees), ["de"]);
    assert.equal(content.items[1].label, "Elsewhere");
  });

  it("a restore writes every language's tree of the revision as a new revision, with the item ids it had; the public page shows the old sidebar; the diff has @@ hunks", async () => {
    const { site: s, pages } = await site();
    const first = ok(
      await s.api("PUT", "/sidebars/docs", {
        items: [{ page: pages.intro }, { label: "Guide", items: [{ page: pages.install }] }],
      }),
      "first",
      201,
    ).sidebar.items;
    ok(await s.api("PUT", "/sidebars/docs", { items: [{ page: pages.usage }] }), "second");
    assert.deepEqual(await onPage(s), ["Usage"]);
    const diff = ok(await s.api("GET", "/sidebars/docs/revisions/1/diff?to=2"), "diff");
    assert.match(diff.diff, /^@@ /m);
    const restored = ok(await s.api("POST", "/sidebars/docs/revisions/1/restore"), "restore");
    assert.deepEqual(restored.restored, { kind: "sidebars", id: "docs", from_revision: 1, revision: 3 });
    assert.equal(restored.rebaked.status, "ok");
    assert.deepEqual(restored.sidebar.items, first, "the same tree, the same ids");
    assert.deepEqual(await onPage(s), ["Intro", "Install"]);
    assert.equal((await revisions(s)).total, 3);
    // New items after a restore never take an id the sidebar issued.
    const more = ok(await s.api("PUT", "/sidebars/docs", { items: [...first, { page: pages.usage }] }), "more").sidebar
      .items;
    assert.ok(more[2].id > Math.max(...first.flatMap((i: any) => [i.id, ...i.items.map((c: any) => c.id)])));
  });

  it("a deleted sidebar is in the trash; restoring it brings back its trees (every language), item ids and history, and the public page shows it again", async () => {
    const { site: s, pages } = await site(true);
    const made = ok(
      await s.api("PUT", "/sidebars/docs", { items: [{ page: pages.intro }, { page: pages.install }] }),
      "create",
      201,
    ).sidebar;
    ok(await s.api("PUT", "/sidebars/docs", { items: [{ label: "Nur Deutsch", items: [] }], lang: "de" }), "de");
    const deleted = ok(await s.api("DELETE", "/sidebars/docs"), "delete");
    assert.deepEqual(deleted.deleted, { name: "docs" });
    assert.deepEqual(await onPage(s), []);
    assert.deepEqual(
      ok(await s.api("GET", "/trash"), "trash").items.map((e: any) => [e.kind, e.id, e.slug, e.last_revision]),
      [["sidebars", "docs", "docs", 2]],
    );
    const back = ok(await s.api("POST", "/trash/sidebars/docs/restore"), "undelete");
    assert.deepEqual(back.restored, { kind: "sidebars", id: "docs", from_revision: 2, revision: 2 });
    assert.deepEqual(ok(await s.api("GET", "/sidebars/docs"), "en").sidebar, made);
    assert.deepEqual(
      ok(await s.api("GET", "/sidebars/docs?lang=de"), "de").sidebar.items.map((i: any) => i.label),
      ["Nur Deutsch"],
    );
    assert.deepEqual(await onPage(s), ["Intro", "Install"]);
    assert.deepEqual(ok(await s.api("GET", "/trash"), "trash").items, []);
    ok(await s.api("PUT", "/sidebars/docs", { items: [{ page: pages.usage }] }), "write on");
    assert.equal((await revisions(s)).total, 3, "its history continues");
  });

  it("a sidebar made again by PUT under a deleted one's name takes its history over and leaves the trash; one made otherwise meanwhile makes the restore 409 slug_taken with the name, nothing changed", async () => {
    const { site: s, pages } = await site();
    ok(await s.api("PUT", "/sidebars/docs", { items: [{ page: pages.intro }] }), "create", 201);
    ok(await s.api("DELETE", "/sidebars/docs"), "delete");
    ok(await s.api("PUT", "/sidebars/docs", { items: [{ page: pages.usage }] }), "again", 201);
    assert.deepEqual(ok(await s.api("GET", "/trash"), "trash").items, []);
    assert.deepEqual(
      (await revisions(s)).revisions.map((r) => r.revision),
      [2, 1],
    );

    ok(await s.api("PUT", "/sidebars/guide", { items: [{ page: pages.intro }] }), "guide", 201);
    ok(await s.api("DELETE", "/sidebars/guide"), "delete guide");
    const now = new Date().toISOString().replace("T", " ").slice(0, 19);
    await t.store.db
      .insertInto("sidebars")
      .values({ site_id: s.id, name: "guide", next_item_id: 1, created_at_gmt: now, updated_at_gmt: now })
      .execute();
    const refused = await s.api("POST", "/trash/sidebars/guide/restore");
    assert.equal(refused.status, 409, refused.text);
    assert.deepEqual([refused.body.error, refused.body.id], ["slug_taken", "guide"]);
    assert.equal(ok(await s.api("GET", "/trash"), "trash").items.length, 1, "still in the trash");
    assert.equal((await revisions(s, "guide")).total, 1, "nothing written");
  });

  it("DELETE /sidebars/{name}?dry_run=1 answers what the delete would and writes nothing", async () => {
    const { site: s, pages } = await site();
    ok(await s.api("PUT", "/sidebars/docs", { items: [{ page: pages.intro }] }), "create", 201);
    const dry = ok(await s.api("DELETE", "/sidebars/docs?dry_run=1"), "dry");
    assert.deepEqual([dry.deleted, dry.dry_run, dry.applied, codes(dry)], [{ name: "docs" }, true, false, []]);
    assert.deepEqual(ok(await s.api("GET", "/trash"), "trash").items, []);
    assert.equal((await revisions(s)).total, 1);
    assert.deepEqual(await onPage(s), ["Intro"]);
    assert.equal(
      (await s.api("DELETE", "/sidebars/nothing?dry_run=true")).status,
      404,
      "a dry run of a missing sidebar is its 404",
    );
  });

  it("another site's sidebar is not found (404) through the history calls, and its trash is its own", async () => {
    const { site: s, pages } = await site();
    const { site: other } = await site();
    ok(await s.api("PUT", "/sidebars/docs", { items: [{ page: pages.intro }] }), "create", 201);
    assert.equal((await other.api("GET", "/sidebars/docs/revisions")).status, 404);
    assert.equal((await other.api("POST", "/sidebars/docs/revisions/1/restore")).status, 404);
    ok(await s.api("DELETE", "/sidebars/docs"), "delete");
    assert.equal((await other.api("POST", "/trash/sidebars/docs/restore")).status, 404);
    assert.equal(ok(await s.api("GET", "/trash"), "trash").items.length, 1);
  });
});
