// Quotas (docs/security.md): one site could fill the disk (no limit on its pages, frames, data or
// bytes). Now every site has quotas: a write that would raise a use past its quota is refused before
// anything is written (409 quota_exceeded for a count, 413 for bytes, with quota, limit and used),
// a write that raises nothing is never refused, and super-administrators set the quotas.
// stored_bytes also counts revisions and the trash, and published_bytes what publishing keeps
// (test/security/quota-history.test.ts, quota-published.test.ts): the use asserted here is the live
// content plus what the site's revisions and trash weigh, summed from their rows.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, makeUser, startTestApp, type Answer, type TestApp } from "../support/app.ts";

const GiB = 1024 ** 3;
const DEFAULTS = {
  pages: 50_000,
  frames: 5_000,
  data_items: 100_000,
  stored_bytes: GiB,
  media_bytes: 5 * GiB,
  published_bytes: 5 * GiB,
  form_submissions: 100_000,
};
const utf8 = (text: string) => Buffer.byteLength(text, "utf8");
/** What a page weighs: title, content, and its fields and tags as stored JSON. */
const pageWeight = (title: string, content = "", fields: Record<string, unknown> = {}, tags: string[] = []) =>
  utf8(title) + utf8(content) + utf8(JSON.stringify(fields)) + utf8(JSON.stringify(tags));

describe("quotas", () => {
  let t: TestApp;
  let n = 0;
  const newSite = () => makeSite(t, `Quota ${++n}`, `quota${n}.localhost`);
  const usage = async (site: number) => {
    const r = await t.call("GET", `/api/site/${site}/usage`);
    assert.equal(r.status, 200, r.text);
    return r.body.usage as Record<string, { used: number; limit: number }>;
  };
  const used = async (site: number) =>
    Object.fromEntries(Object.entries(await usage(site)).map(([key, value]) => [key, value.used]));
  /** What the site's revisions and trash weigh, summed from their rows. */
  const history = async (site: number) => {
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
  };
  /** What the publish engine keeps of the site: static copies and frame bakes. */
  const kept = async (site: number) => {
    const rows = [
      ...(await t.store.db.selectFrom("static_copies").select("bytes").where("site_id", "=", site).execute()),
      ...(await t.store.db.selectFrom("frame_bakes").select("bytes").where("site_id", "=", site).execute()),
    ];
    return rows.reduce((sum, row) => sum + Number(row.bytes), 0);
  };
  const setQuotas = async (site: number, body: Record<string, unknown>) => {
    const r = await t.call("PATCH", `/api/sites/${site}/quotas`, { body });
    assert.equal(r.status, 200, r.text);
    return r.body.quotas;
  };
  const refused = (r: Answer, status: number, quota: string, limit: number, usedBefore: number) => {
    assert.equal(r.status, status, r.text);
    assert.equal(r.body.success, false);
    assert.equal(r.body.error, "quota_exceeded");
    assert.deepEqual(
      { quota: r.body.quota, limit: r.body.limit, used: r.body.used },
      { quota, limit, used: usedBefore },
    );
  };

  before(async () => (t = await startTestApp()));
  after(() => t.close());

  describe("GET and PATCH /api/sites/{id}/quotas", () => {
    it("a site starts with the defaults: pages 50,000, frames 5,000, data_items 100,000, stored_bytes 1 GiB, media_bytes and published_bytes 5 GiB", async () => {
      const site = await newSite();
      const r = await t.call("GET", `/api/sites/${site}/quotas`);
      assert.equal(r.status, 200);
      assert.deepEqual(
        { success: r.body.success, site_id: r.body.site_id, quotas: r.body.quotas },
        { success: true, site_id: site, quotas: DEFAULTS },
      );
    });

    it("PATCH sets any of them; null restores the default; the answer and a later GET agree", async () => {
      const site = await newSite();
      const r = await t.call("PATCH", `/api/sites/${site}/quotas`, { body: { pages: 10, stored_bytes: 0 } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.quotas, { ...DEFAULTS, pages: 10, stored_bytes: 0 });
      assert.equal(r.body.site_id, site);
      assert.deepEqual((await t.call("GET", `/api/sites/${site}/quotas`)).body.quotas, r.body.quotas);
      const restored = await setQuotas(site, { pages: null, frames: 3 });
      assert.deepEqual(restored, { ...DEFAULTS, stored_bytes: 0, frames: 3 });
      assert.deepEqual(await setQuotas(site, { stored_bytes: null, frames: null }), DEFAULTS);
      // Another site keeps its own.
      assert.deepEqual((await t.call("GET", `/api/sites/1/quotas`)).body.quotas, DEFAULTS);
    });

    it("anything but a whole number >= 0 or null is 400 invalid_quota naming the key; unknown keys too; nothing is set", async () => {
      const site = await newSite();
      const bad: Array<[string, unknown]> = [
        ["pages", -1],
        ["frames", 1.5],
        ["data_items", "10"],
        ["stored_bytes", true],
        ["pages", { n: 1 }],
        ["frames", [3]],
        ["pages", 2 ** 60],
        ["colour", 1],
        ["media_bytes", -5],
      ];
      for (const [quota, value] of bad) {
        const r = await t.call("PATCH", `/api/sites/${site}/quotas`, { body: { frames: 7, [quota]: value } });
        assert.equal(r.status, 400, `${quota}: ${JSON.stringify(value)} → ${r.text}`);
        assert.equal(r.body.error, "invalid_quota");
        assert.equal(r.body.quota, quota);
      }
      assert.deepEqual(
        (await t.call("GET", `/api/sites/${site}/quotas`)).body.quotas,
        DEFAULTS,
        "a refused PATCH sets nothing, the valid keys beside it included",
      );
      const empty = await t.call("PATCH", `/api/sites/${site}/quotas`, { body: {} });
      assert.equal(empty.status, 400);
      assert.equal(empty.body.error, "nothing_to_update");
      assert.equal(
        (await t.call("PATCH", `/api/sites/${site}/quotas`, { body: { pages: 0 } })).status,
        200,
        "0 is a quota (nothing more may be added)",
      );
    });

    it("only super-administrators: a site's own administrator and anyone else get 403 insufficient_role, even for a site that does not exist", async () => {
      const site = await newSite();
      const admin = await makeUser(t, "quota-site-admin");
      await t.call("PUT", `/api/site/${site}/users/${admin.id}`, { body: { role: "administrator" } });
      const stranger = await makeUser(t, "quota-stranger");
      for (const token of [admin.token, stranger.token]) {
        for (const target of [site, 999_999, "x"]) {
          const get = await t.call("GET", `/api/sites/${target}/quotas`, { token });
          assert.equal(get.status, 403, get.text);
          assert.equal(get.body.error, "insufficient_role");
          const patch = await t.call("PATCH", `/api/sites/${target}/quotas`, { token, body: { pages: 1_000_000 } });
          assert.equal(patch.status, 403);
          assert.equal(patch.body.error, "insufficient_role");
        }
      }
      assert.equal((await t.call("GET", `/api/sites/${site}/quotas`)).body.quotas.pages, DEFAULTS.pages);
      const none = await t.call("GET", `/api/sites/${site}/quotas`, { token: null });
      assert.equal(none.status, 401);
    });

    it("a super-administrator asking of a site that does not exist gets 404 site_not_found", async () => {
      for (const target of ["999999", "0", "abc"]) {
        const get = await t.call("GET", `/api/sites/${target}/quotas`);
        assert.equal(get.status, 404, get.text);
        assert.equal(get.body.error, "site_not_found");
        const patch = await t.call("PATCH", `/api/sites/${target}/quotas`, { body: { pages: 5 } });
        assert.equal(patch.status, 404);
        assert.equal(patch.body.error, "site_not_found");
      }
    });

    it("a deleted site's quotas go with it", async () => {
      const site = await newSite();
      await setQuotas(site, { pages: 3 });
      assert.equal((await t.call("DELETE", `/api/sites/${site}`)).status, 200);
      assert.equal((await t.call("GET", `/api/sites/${site}/quotas`)).status, 404);
    });
  });

  describe("GET /api/site/{site_id}/usage", () => {
    it("answers each quota's use and limit, for the site's administrators, at both addresses", async () => {
      const site = await newSite();
      await setQuotas(site, { frames: 12 });
      const admin = await makeUser(t, "usage-admin");
      await t.call("PUT", `/api/site/${site}/users/${admin.id}`, { body: { role: "administrator" } });
      const r = await t.call("GET", `/api/site/${site}/usage`, { token: admin.token });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        { success: r.body.success, site_id: r.body.site_id, usage: r.body.usage },
        {
          success: true,
          site_id: site,
          usage: {
            pages: { used: 0, limit: 50_000 },
            frames: { used: 0, limit: 12 },
            data_items: { used: 0, limit: 100_000 },
            stored_bytes: { used: 0, limit: GiB },
            media_bytes: { used: 0, limit: 5 * GiB },
            published_bytes: { used: 0, limit: 5 * GiB },
            form_submissions: { used: 0, limit: 100_000 },
          },
        },
      );
      const legacy = await t.call("GET", `/api/usage?blog_id=${site}`, { token: admin.token });
      assert.equal(legacy.status, 200, legacy.text);
      assert.deepEqual(legacy.body.usage, r.body.usage);
    });

    it("is site-scoped: an editor reads it at /api/site/{id} (docs/roles.md), a stranger gets what any other site-scoped call answers", async () => {
      const site = await newSite();
      const editor = await makeUser(t, "usage-editor");
      await t.call("PUT", `/api/site/${site}/users/${editor.id}`, { body: { role: "editor" } });
      const stranger = await makeUser(t, "usage-stranger");
      const read = await t.call("GET", `/api/site/${site}/usage`, { token: editor.token });
      assert.equal(read.status, 200, read.text);
      const path = await t.call("GET", `/api/site/${site}/usage`, { token: stranger.token });
      assert.equal(path.status, 404);
      assert.equal(path.body.code, "site_not_found");
      for (const token of [editor.token, stranger.token]) {
        const legacy = await t.call("GET", `/api/usage?blog_id=${site}`, { token });
        assert.equal(legacy.status, 403);
      }
    });

    it("counts right after create, update, trash and delete for good: the live content, its revisions and the trash", async () => {
      const site = await newSite();
      const S = `/api/site/${site}`;
      const expect = async (counts: { pages: number; frames: number; data_items: number }, live: number) =>
        assert.deepEqual(await used(site), {
          ...counts,
          stored_bytes: live + (await history(site)),
          media_bytes: 0,
          published_bytes: await kept(site),
          form_submissions: 0,
        });
      const html = "<main>héllo</main>";
      assert.equal((await t.call("POST", `${S}/frames`, { body: { slug: "f", html } })).status, 201);
      const created = await t.call("POST", `${S}/pages`, {
        body: { title: "Über", content: "abc", fields: { a: 1 }, frame: "f" },
      });
      assert.equal(created.status, 201, created.text);
      const id = created.body.page.id;
      assert.equal(
        (await t.call("PUT", `${S}/data/team`, { body: { items: [{ n: "Ann" }, { n: "Bo" }] } })).status,
        201,
      );
      const items = JSON.stringify([{ n: "Ann" }, { n: "Bo" }]);
      let bytes = utf8(html) + pageWeight("Über", "abc", { a: 1 }) + utf8(items);
      await expect({ pages: 1, frames: 1, data_items: 2 }, bytes);
      assert.ok((await history(site)) > bytes, "each object's first revision holds its state again");
      assert.ok((await kept(site)) > 0, "the page's static copy and the frame's bake count in published_bytes");

      // Update: counted as the write leaves it.
      assert.equal(
        (await t.call("PATCH", `${S}/pages/${id}`, { body: { content: "abcdef", fields: { b: "ü" } } })).status,
        200,
      );
      bytes += pageWeight("Über", "abcdef", { a: 1, b: "ü" }) - pageWeight("Über", "abc", { a: 1 });
      const html2 = "<main>hi</main>";
      assert.equal((await t.call("PUT", `${S}/frames/f`, { body: { html: html2 } })).status, 200);
      bytes += utf8(html2) - utf8(html);
      const items2 = JSON.stringify([{ n: "Ann" }, { n: "Bo" }, { n: "Cy" }]);
      assert.equal((await t.call("PUT", `${S}/data/team`, { body: { items: JSON.parse(items2) } })).status, 200);
      bytes += utf8(items2) - utf8(items);
      await expect({ pages: 1, frames: 1, data_items: 3 }, bytes);

      // Trash keeps the page's place; deleting it for good frees its place and live bytes, not its history.
      assert.equal((await t.call("DELETE", `${S}/pages/${id}`)).status, 200);
      await expect({ pages: 1, frames: 1, data_items: 3 }, bytes);
      assert.equal((await t.call("DELETE", `${S}/pages/${id}?force=true`)).status, 200);
      bytes -= pageWeight("Über", "abcdef", { a: 1, b: "ü" });
      assert.equal(bytes, utf8(items2) + utf8(html2));
      assert.equal((await t.call("DELETE", `${S}/frames/f`)).status, 200);
      assert.equal((await t.call("DELETE", `${S}/data/team`)).status, 200);
      await expect({ pages: 0, frames: 0, data_items: 0 }, 0);
      assert.ok((await used(site)).stored_bytes > 0, "the trash still counts");
      // Purged from the trash, nothing is left.
      for (const item of (await t.call("GET", `${S}/trash`)).body.items as Array<{ kind: string; id: string }>) {
        assert.equal((await t.call("DELETE", `${S}/trash/${item.kind}/${item.id}`)).status, 200);
      }
      assert.deepEqual(await used(site), {
        pages: 0,
        frames: 0,
        data_items: 0,
        stored_bytes: 0,
        media_bytes: 0,
        published_bytes: 0,
        form_submissions: 0,
      });
    });
  });

  describe("refusals at the limit: the right status, code and details, and nothing written", () => {
    it("pages: POST /pages is 409 quota_exceeded past the quota; nothing is created", async () => {
      const site = await newSite();
      const S = `/api/site/${site}`;
      await setQuotas(site, { pages: 2 });
      assert.equal((await t.call("POST", `${S}/pages`, { body: { title: "One" } })).status, 201);
      assert.equal((await t.call("POST", `${S}/pages`, { body: { title: "Two", status: "draft" } })).status, 201);
      const r = await t.call("POST", `${S}/pages`, { body: { title: "Three" } });
      refused(r, 409, "pages", 2, 2);
      assert.match(r.body.message, /pages/);
      assert.equal((await t.call("GET", `${S}/pages/three`)).status, 404);
      assert.equal((await t.call("GET", `${S}/pages?status=any`)).body.total, 2);
      assert.equal((await used(site)).pages, 2);
      // Updating an existing page by upsert adds no page: accepted at the limit.
      const again = await t.call("POST", `${S}/pages`, { body: { title: "One", content: "more" } });
      assert.equal(again.status, 200, again.text);
    });

    it("pages: stubs made on the way count; a write whose stubs would pass the quota writes none of them", async () => {
      const site = await newSite();
      const S = `/api/site/${site}`;
      await setQuotas(site, { pages: 2 });
      const r = await t.call("POST", `${S}/pages`, {
        body: { title: "Leaf", url: "/a/b/leaf", create_missing_parents: true },
      });
      refused(r, 409, "pages", 2, 0);
      assert.equal((await t.call("GET", `${S}/pages?status=any`)).body.total, 0, "the stubs /a and /a/b were not kept");
      assert.equal((await used(site)).pages, 0);
      await setQuotas(site, { pages: 3 });
      const ok = await t.call("POST", `${S}/pages`, {
        body: { title: "Leaf", url: "/a/b/leaf", create_missing_parents: true },
      });
      assert.equal(ok.status, 201, ok.text);
      assert.equal(ok.body.created_stubs.length, 2);
      assert.equal((await used(site)).pages, 3);
    });

    it("pages: a translation (POST /pages/language) counts as a page", async () => {
      const site = await newSite();
      const S = `/api/site/${site}`;
      for (const code of ["en", "de"])
        assert.ok([200, 201].includes((await t.call("POST", `${S}/languages`, { body: { code } })).status));
      const origin = await t.call("POST", `${S}/pages`, { body: { title: "About" } });
      await setQuotas(site, { pages: 1 });
      const r = await t.call("POST", `${S}/pages/language`, {
        body: { page: origin.body.page.id, lang: "de", title: "Über uns" },
      });
      refused(r, 409, "pages", 1, 1);
      const back = await t.call("GET", `${S}/pages/${origin.body.page.id}`);
      assert.deepEqual(
        back.body.page.translations,
        { en: origin.body.page.id },
        "the origin was not linked to a translation either",
      );
      await setQuotas(site, { pages: null });
      assert.equal(
        (
          await t.call("POST", `${S}/pages/language`, {
            body: { page: origin.body.page.id, lang: "de", title: "Über uns" },
          })
        ).status,
        201,
      );
      assert.equal((await used(site)).pages, 2);
    });

    it("frames: POST /frames is 409 quota_exceeded past the quota; the frame does not exist", async () => {
      const site = await newSite();
      const S = `/api/site/${site}`;
      await setQuotas(site, { frames: 1 });
      assert.equal((await t.call("POST", `${S}/frames`, { body: { slug: "one", html: "<p>1</p>" } })).status, 201);
      const r = await t.call("POST", `${S}/frames`, { body: { slug: "two", html: "<p>2</p>" } });
      refused(r, 409, "frames", 1, 1);
      assert.equal((await t.call("GET", `${S}/frames/two`)).status, 404);
      assert.equal((await t.call("GET", `${S}/frames`)).body.total, 1);
      // Replacing the one frame adds no frame.
      assert.equal((await t.call("PUT", `${S}/frames/one`, { body: { html: "<p>one</p>" } })).status, 200);
    });

    it("data_items: replacing 3 items by 5 adds 2 and is refused when 2 do not fit; a language variant counts too", async () => {
      const site = await newSite();
      const S = `/api/site/${site}`;
      const items = (k: number) => Array.from({ length: k }, (_, i) => ({ i }));
      assert.equal((await t.call("PUT", `${S}/data/list`, { body: { items: items(3) } })).status, 201);
      await setQuotas(site, { data_items: 4 });
      const r = await t.call("PUT", `${S}/data/list`, { body: { items: items(5) } });
      refused(r, 409, "data_items", 4, 3);
      assert.equal((await t.call("GET", `${S}/data/list`)).body.items.length, 3, "the set keeps its 3 items");
      assert.equal(
        (await t.call("PUT", `${S}/data/list`, { body: { items: items(4) } })).status,
        200,
        "4 fit: the write adds 1",
      );
      assert.ok([200, 201].includes((await t.call("POST", `${S}/languages`, { body: { code: "en" } })).status));
      const variant = await t.call("PUT", `${S}/data/list`, { body: { items: items(1), lang: "en" } });
      refused(variant, 409, "data_items", 4, 4);
      const back = await t.call("GET", `${S}/data/list`, { query: { lang: "en" } });
      assert.equal(back.body.items.length, 4, "no en variant was stored: the shared set answers");
    });

    it("stored_bytes: a frame, a page or a data set that would pass it is 413 quota_exceeded; nothing is written", async () => {
      const site = await newSite();
      const S = `/api/site/${site}`;
      assert.equal((await t.call("POST", `${S}/frames`, { body: { slug: "f", html: "<p>12345</p>" } })).status, 201);
      const page = await t.call("POST", `${S}/pages`, { body: { title: "T", content: "c" } });
      assert.equal((await t.call("PUT", `${S}/data/d`, { body: { items: [{ a: 1 }] } })).status, 201);
      const before = (await used(site)).stored_bytes;
      assert.equal(before, utf8("<p>12345</p>") + pageWeight("T", "c") + utf8('[{"a":1}]') + (await history(site)));
      await setQuotas(site, { stored_bytes: before + 3 });

      const frame = await t.call("POST", `${S}/frames`, { body: { slug: "g", html: "<p>x</p>" } });
      refused(frame, 413, "stored_bytes", before + 3, before);
      assert.equal((await t.call("GET", `${S}/frames/g`)).status, 404);
      const replace = await t.call("PUT", `${S}/frames/f`, { body: { html: "<p>123456789</p>" } });
      refused(replace, 413, "stored_bytes", before + 3, before);
      assert.equal((await t.call("GET", `${S}/frames/f`)).body.frame.html, "<p>12345</p>");
      const content = await t.call("PATCH", `${S}/pages/${page.body.page.id}`, {
        body: { content: "c and much more" },
      });
      refused(content, 413, "stored_bytes", before + 3, before);
      assert.equal((await t.call("GET", `${S}/pages/${page.body.page.id}`)).body.page.content, "c");
      const dryRun = await t.call("PATCH", `${S}/pages/${page.body.page.id}?dry_run=1`, {
        body: { content: "c and much more" },
      });
      refused(dryRun, 413, "stored_bytes", before + 3, before);
      const fields = await t.call("PATCH", `${S}/pages/${page.body.page.id}`, {
        body: { fields: { long: "x".repeat(10) } },
      });
      refused(fields, 413, "stored_bytes", before + 3, before);
      const data = await t.call("PUT", `${S}/data/d`, { body: { items: [{ a: 1 }, { b: 2 }] } });
      refused(data, 413, "stored_bytes", before + 3, before);
      assert.deepEqual((await t.call("GET", `${S}/data/d`)).body.items, [{ a: 1 }]);
      const newPage = await t.call("POST", `${S}/pages`, { body: { title: "Longer title" } });
      refused(newPage, 413, "stored_bytes", before + 3, before);
      assert.equal((await used(site)).stored_bytes, before);
      // A write fits exactly when the quota leaves room for it and its revision: measured on the
      // write and its undo, then the same write (the same revision) once more.
      const id = page.body.page.id;
      await setQuotas(site, { stored_bytes: null });
      assert.equal((await t.call("PATCH", `${S}/pages/${id}`, { body: { content: "cdef" } })).status, 200);
      const grown = (await used(site)).stored_bytes - before;
      assert.equal((await t.call("PATCH", `${S}/pages/${id}`, { body: { content: "c" } })).status, 200);
      const now = (await used(site)).stored_bytes;
      await setQuotas(site, { stored_bytes: now + grown - 1 });
      refused(
        await t.call("PATCH", `${S}/pages/${id}`, { body: { content: "cdef" } }),
        413,
        "stored_bytes",
        now + grown - 1,
        now,
      );
      await setQuotas(site, { stored_bytes: now + grown });
      assert.equal((await t.call("PATCH", `${S}/pages/${id}`, { body: { content: "cdef" } })).status, 200);
      assert.deepEqual(await usage(site).then((u) => u.stored_bytes), { used: now + grown, limit: now + grown });
    });

    it("stored_bytes: renaming a frame to a longer slug grows the frames that name it, and is refused when that does not fit", async () => {
      const site = await newSite();
      const S = `/api/site/${site}`;
      assert.equal((await t.call("POST", `${S}/frames`, { body: { slug: "nav", html: "<nav></nav>" } })).status, 201);
      const outer = '<main><!-- svc/frame {"name": "nav"} /--></main>';
      assert.equal((await t.call("POST", `${S}/frames`, { body: { slug: "page", html: outer } })).status, 201);
      const before = (await used(site)).stored_bytes;
      await setQuotas(site, { stored_bytes: before });
      const r = await t.call("PATCH", `${S}/frames/nav`, { body: { slug: "navigation" } });
      refused(r, 413, "stored_bytes", before, before);
      assert.equal((await t.call("GET", `${S}/frames/nav`)).status, 200, "not renamed");
      assert.equal((await t.call("GET", `${S}/frames/page`)).body.frame.html, outer);
      // A shorter slug frees 2 bytes of the markup naming it; both frames keep a new revision.
      await setQuotas(site, { stored_bytes: null });
      const revised = await history(site);
      const shorter = await t.call("PATCH", `${S}/frames/nav`, { body: { slug: "n" } });
      assert.equal(shorter.status, 200, shorter.text);
      assert.equal((await used(site)).stored_bytes, before - 2 + (await history(site)) - revised);
    });
  });

  describe("a write that raises no use is never refused, even over a lowered quota", () => {
    it("updates, replacements, trash and deletes add no page, frame or data item: they go through at those quotas 0", async () => {
      const site = await newSite();
      const S = `/api/site/${site}`;
      assert.equal(
        (await t.call("POST", `${S}/frames`, { body: { slug: "f", html: "<p>long markup</p>" } })).status,
        201,
      );
      const page = await t.call("POST", `${S}/pages`, { body: { title: "Title", content: "content", frame: "f" } });
      const id = page.body.page.id;
      assert.equal(
        (await t.call("PUT", `${S}/data/d`, { body: { items: [{ a: 1 }, { a: 2 }, { a: 3 }] } })).status,
        201,
      );
      const quotas = await setQuotas(site, { pages: 0, frames: 0, data_items: 0 });
      assert.deepEqual(quotas, { ...DEFAULTS, pages: 0, frames: 0, data_items: 0 });

      const u = await usage(site);
      assert.ok(u.pages.used > u.pages.limit && u.frames.used > u.frames.limit, "the site is over those quotas");
      const writes: Array<[string, string, Record<string, unknown>]> = [
        ["PATCH", `${S}/pages/${id}`, { title: "Tithe", status: "draft" }],
        ["PATCH", `${S}/pages/${id}`, { content: "short" }],
        ["POST", `${S}/pages`, { id, title: "T" }],
        ["PUT", `${S}/frames/f`, { html: "<p>short</p>" }],
        ["PUT", `${S}/frames/f`, { html: "<p>short</p>" }],
        ["PATCH", `${S}/frames/f`, { slug: "g" }],
        ["PUT", `${S}/data/d`, { items: [{ a: 9 }, { a: 8 }, { a: 7 }] }],
        ["PUT", `${S}/data/d`, { items: [{ a: 1 }] }],
      ];
      for (const [method, url, body] of writes) {
        const r = await t.call(method, url, { body });
        assert.equal(r.status, 200, `${method} ${url} ${JSON.stringify(body)}: ${r.text}`);
      }
      assert.equal((await t.call("DELETE", `${S}/pages/${id}`)).status, 200, "trash");
      assert.equal((await t.call("DELETE", `${S}/pages/${id}?force=true`)).status, 200, "delete for good");
      assert.equal((await t.call("DELETE", `${S}/frames/g`)).status, 200);
      assert.equal((await t.call("DELETE", `${S}/data/d`)).status, 200);
      assert.deepEqual(await used(site), {
        pages: 0,
        frames: 0,
        data_items: 0,
        stored_bytes: await history(site),
        media_bytes: 0,
        published_bytes: 0,
        form_submissions: 0,
      });
      // And at 0, nothing new fits.
      refused(await t.call("POST", `${S}/pages`, { body: { title: "New" } }), 409, "pages", 0, 0);
    });

    it("stored_bytes at 0: a rewrite that stores nothing new, a delete and a purge go through; a write that keeps a new revision does not", async () => {
      const site = await newSite();
      const S = `/api/site/${site}`;
      const made = await t.call("POST", `${S}/frames`, { body: { slug: "f", html: "<p>long markup</p>" } });
      const page = await t.call("POST", `${S}/pages`, { body: { title: "Title", content: "content" } });
      assert.equal((await t.call("PUT", `${S}/data/d`, { body: { items: [{ a: 1 }, { a: 2 }] } })).status, 201);
      await setQuotas(site, { stored_bytes: 0 });
      const over = (await used(site)).stored_bytes;

      assert.equal(
        (await t.call("PUT", `${S}/frames/f`, { body: { html: "<p>long markup</p>" } })).status,
        200,
        "the same markup again: no revision",
      );
      refused(await t.call("PUT", `${S}/frames/f`, { body: { html: "<p>short</p>" } }), 413, "stored_bytes", 0, over);
      refused(
        await t.call("PATCH", `${S}/pages/${page.body.page.id}`, { body: { status: "draft" } }),
        413,
        "stored_bytes",
        0,
        over,
      );
      assert.equal((await used(site)).stored_bytes, over);

      for (const path of [`/pages/${page.body.page.id}?force=true`, "/frames/f", "/data/d"]) {
        assert.equal((await t.call("DELETE", `${S}${path}`)).status, 200, path);
      }
      assert.ok((await used(site)).stored_bytes < over, "each delete freed more than its trash entry adds");
      assert.equal((await t.call("DELETE", `${S}/trash/frames/${made.body.frame.id}`)).status, 200);
      assert.equal((await used(site)).stored_bytes, await history(site));
    });

    it("after a quota is lowered under the use, the site may still shrink, and grows again only once back under it", async () => {
      const site = await newSite();
      const S = `/api/site/${site}`;
      for (const slug of ["a", "b", "c"])
        assert.equal((await t.call("POST", `${S}/frames`, { body: { slug, html: "<p></p>" } })).status, 201);
      await setQuotas(site, { frames: 2 });
      refused(await t.call("POST", `${S}/frames`, { body: { slug: "d", html: "<p></p>" } }), 409, "frames", 2, 3);
      assert.equal((await t.call("DELETE", `${S}/frames/a`)).status, 200);
      refused(await t.call("POST", `${S}/frames`, { body: { slug: "d", html: "<p></p>" } }), 409, "frames", 2, 2);
      assert.equal((await t.call("DELETE", `${S}/frames/b`)).status, 200);
      assert.equal((await t.call("POST", `${S}/frames`, { body: { slug: "d", html: "<p></p>" } })).status, 201);
      // null restores the default: room again.
      await setQuotas(site, { frames: null });
      assert.equal((await t.call("POST", `${S}/frames`, { body: { slug: "e", html: "<p></p>" } })).status, 201);
    });
  });

  it("two writes racing for the last place: exactly one gets it", async () => {
    const site = await newSite();
    const S = `/api/site/${site}`;
    await setQuotas(site, { frames: 1, pages: 1 });
    const frames = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.call("POST", `${S}/frames`, { body: { slug: `race-${i}`, html: "<p></p>" } }),
      ),
    );
    assert.deepEqual(frames.map((r) => r.status).sort(), [201, 409, 409, 409, 409, 409]);
    const pages = await Promise.all(
      Array.from({ length: 6 }, (_, i) => t.call("POST", `${S}/pages`, { body: { title: `Race ${i}` } })),
    );
    assert.deepEqual(pages.map((r) => r.status).sort(), [201, 409, 409, 409, 409, 409]);
    assert.deepEqual(await used(site).then((u) => [u.frames, u.pages]), [1, 1]);
  });
});
