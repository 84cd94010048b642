// Many redirects at once (docs/seo.md, "Many redirects at once" and "Redirects as CSV"):
// POST /seo/redirects `{redirects: […]}` or a text/csv body writes up to 1,000 in one write, all or
// nothing, each refused one named by its index with its code; GET /seo/redirects answers CSV to
// `Accept: text/csv`. Each redirect written appends its event.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Answer, TestApp } from "../support/app.ts";
import { ok, seoSite, startTestApp, type SeoSite } from "./helpers.ts";

const CSV = { "content-type": "text/csv" };

describe("SEO: many redirects at once, as JSON or CSV", () => {
  let t: TestApp;
  let site: SeoSite;
  before(async () => {
    t = await startTestApp();
    site = await seoSite(t);
    await site.frame("plain", "<p>plain</p>");
    await site.page("Team", "plain");
  });
  after(() => t.close());

  const postCsv = (text: string, headers: Record<string, string> = CSV): Promise<Answer> =>
    t.call("POST", `/api/site/${site.id}/seo/redirects`, { payload: text, headers });
  const froms = async () =>
    ok(await site.api("GET", "/seo/redirects"), "GET").redirects.map((r: { from: string }) => r.from);

  it("a JSON list is written in order, as posted one by one (201); one replacing a redirect counts as replaced; every address answers; each appends its event", async () => {
    ok(await site.api("POST", "/seo/redirects", { from: "/a/", to: "/team/" }), "first", 201);
    const since = ok(await site.api("GET", "/events"), "events").events.at(-1)?.id ?? 0;
    const done = ok(
      await site.api("POST", "/seo/redirects", {
        redirects: [
          { from: "/a/", to: "/b/", status: 302 },
          { from: "/B", to: "/team/" },
          { from: "/?page_id=3", to: "https://elsewhere.example/x", status: null },
        ],
      }),
      "list",
      201,
    );
    assert.deepEqual([done.created, done.replaced], [2, 1]);
    assert.deepEqual(
      done.redirects.map((r: { from: string; to: string; status: number }) => [r.from, r.to, r.status]),
      [
        ["/a/", "/team/", 302],
        ["/b/", "/team/", 301],
        ["/?page_id=3", "https://elsewhere.example/x", 301],
      ],
      "the first points further once the second is written (no chain), answered as it stands",
    );
    for (const [path, location, status] of [
      ["/a/", "/team/", 302],
      ["/b/", "/team/", 301],
      ["/?page_id=3", "https://elsewhere.example/x", 301],
    ] as const) {
      const answer = await site.visit(path);
      assert.deepEqual([answer.status, answer.headers.location], [status, location], path);
    }
    const events = ok(await site.api("GET", `/events?since=${since}&type=redirect`), "events").events;
    assert.deepEqual(events.map((e: { type: string; object: { id: string } }) => [e.type, e.object.id]).sort(), [
      ["redirect.created", "/?page_id=3"],
      ["redirect.created", "/b/"],
      ["redirect.updated", "/a/"],
    ]);
  });

  it("refused: every refused redirect is named by its index with its code (400 bad_items), and nothing is written", async () => {
    const before = await froms();
    const refused = await site.api("POST", "/seo/redirects", {
      redirects: [
        { from: "/fine/", to: "/team/" },
        { from: "/x/", to: "/team/", status: 303 },
        { from: "/team/", to: "/b/" },
        { from: "nowhere", to: "/team/" },
        { from: "/Fine", to: "/b/" },
        "not an object",
        { from: "/y/", to: "javascript:alert(1)" },
      ],
    });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.error, "bad_items");
    assert.equal(refused.body.total_errors, 6);
    assert.deepEqual(
      refused.body.errors.map((e: { at: number; code: string; field?: string }) => [e.at, e.code, e.field]),
      [
        [1, "invalid_redirect_status", "status"],
        [2, "redirect_shadows_page", undefined],
        [3, "invalid_field", "from"],
        [4, "invalid_field", "from"],
        [5, "invalid_field", "redirects"],
        [6, "invalid_field", "to"],
      ],
    );
    assert.equal(refused.body.errors[3].first_at, 0, "the same from twice names the first");
    assert.equal(typeof refused.body.errors[1].page, "number");
    assert.deepEqual(await froms(), before, "nothing was written");
  });

  it("limits: over 1,000 (400 too_many_items), an empty list, a list beside from and to (400 invalid_field)", async () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({ from: `/m-${i}/`, to: "/team/" }));
    const tooMany = await site.api("POST", "/seo/redirects", { redirects: many });
    assert.deepEqual([tooMany.status, tooMany.body.error, tooMany.body.max_items], [400, "too_many_items", 1000]);
    const empty = await site.api("POST", "/seo/redirects", { redirects: [] });
    assert.deepEqual([empty.status, empty.body.error], [400, "invalid_field"]);
    const both = await site.api("POST", "/seo/redirects", { from: "/c/", to: "/team/", redirects: [] });
    assert.deepEqual([both.status, both.body.error, both.body.field], [400, "invalid_field", "redirects"]);
    const thousand = ok(
      await site.api("POST", "/seo/redirects", { redirects: many.slice(0, 1000) }),
      "1,000 at once",
      201,
    );
    assert.equal(thousand.created, 1000);
    assert.equal((await site.visit("/m-999/")).headers.location, "/team/");
  });

  it("CSV: GET with Accept: text/csv answers from,to,status (RFC 4180: CRLF, quoted where needed); a text/csv body is read as a list", async () => {
    const other = await seoSite(t);
    const posted = await t.call("POST", `/api/site/${other.id}/seo/redirects`, {
      payload:
        '\uFEFFfrom,to,status\r\n/old,/new/,\r\n"/q""uote/","/a,b/?c=%2C",308\r\n\r\n/?p=1,https://x.example/?a=1&b=2,302\r\n',
      headers: CSV,
    });
    assert.equal(posted.status, 201, posted.text);
    assert.deepEqual([posted.body.created, posted.body.replaced], [3, 0]);
    const csv = await t.call("GET", `/api/site/${other.id}/seo/redirects`, { headers: { accept: "text/csv" } });
    assert.equal(csv.status, 200);
    assert.equal(csv.headers["content-type"], "text/csv; charset=utf-8");
    assert.equal(
      csv.text,
      'from,to,status\r\n/?p=1,https://x.example/?a=1&b=2,302\r\n/old/,/new/,301\r\n"/q""uote/","/a,b/?c=%2C",308\r\n',
    );
    const json = await t.call("GET", `/api/site/${other.id}/seo/redirects`, {
      headers: { accept: "application/json" },
    });
    assert.equal(json.body.redirects.length, 3, "JSON otherwise");
    // Read back what it wrote: the same redirects, each replaced by itself.
    const again = await t.call("POST", `/api/site/${other.id}/seo/redirects`, { payload: csv.text, headers: CSV });
    assert.deepEqual([again.status, again.body.created, again.body.replaced], [200, 0, 3]);
  });

  it("CSV refusals: not CSV, or no from or to column (400 invalid_csv with line); a refused row is named by its index (400 bad_items); columns in any order, others ignored", async () => {
    const unclosed = await postCsv('from,to\n/a/,"/b/\n');
    assert.deepEqual([unclosed.status, unclosed.body.error], [400, "invalid_csv"]);
    assert.equal(typeof unclosed.body.line, "number");
    const ragged = await postCsv("from,to\n/a/,/b/,301\n");
    assert.deepEqual([ragged.status, ragged.body.error, ragged.body.line], [400, "invalid_csv", 2]);
    const missing = await postCsv("from,status\n/a/,301\n");
    assert.deepEqual([missing.status, missing.body.error, missing.body.missing], [400, "invalid_csv", ["to"]]);
    const row = await postCsv("from,to,status\n/r1/,/team/,301\n/r2/,/team/,abc\n");
    assert.deepEqual([row.status, row.body.error], [400, "bad_items"]);
    assert.deepEqual(
      row.body.errors.map((e: { at: number; code: string }) => [e.at, e.code]),
      [[1, "invalid_redirect_status"]],
    );
    const reordered = await postCsv("Status , TO,note,From\n307,/team/,ignored,/r3/\n", {
      "content-type": "text/csv; charset=utf-8",
    });
    assert.equal(reordered.status, 201, reordered.text);
    assert.deepEqual(
      reordered.body.redirects.map((r: { from: string; status: number }) => [r.from, r.status]),
      [["/r3/", 307]],
    );
  });

  it("text/csv is read by this route alone (415 elsewhere); the body limit holds", async () => {
    const elsewhere = await t.call("PATCH", `/api/site/${site.id}/seo`, { payload: "description\nx\n", headers: CSV });
    assert.equal(elsewhere.status, 415);
    const large = await postCsv(`from,to\n${"/a/,/b/\n".repeat(Math.ceil((12 * 1024 * 1024) / 8) + 1)}`);
    assert.deepEqual([large.status, large.body.code], [413, "body_too_large"]);
  });
});
