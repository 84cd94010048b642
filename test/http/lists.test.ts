// Paged lists (docs/lists.md), driven through the real server: GET /pages, /frames, /data,
// /api/users, /api/sites and /api/users/{id}/tokens take ?per_page (default 100, 1 to 500) and
// ?page (from 1), keep `total`, and send Link (prev/next), X-WP-Total and X-WP-TotalPages.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";
import { makeSite, makeUser, startTestApp, type Answer, type TestApp } from "../support/app.ts";
import { listPages } from "../../src/pages/read-service.ts";
import { listFrames } from "../../src/frames/read-service.ts";
import { listSites } from "../../src/network/sites-service.ts";
import { listUsers } from "../../src/network/users-service.ts";
import { listTokens } from "../../src/network/tokens-service.ts";
import { listDatasets } from "../../src/data/datasets.ts";
import { siteById } from "../../src/site/sites.ts";
import type { ServiceContext } from "../../src/write/context.ts";

/** `{prev, next}` of a Link header. */
function links(answer: Answer): { prev?: string; next?: string } {
  const header = answer.headers.link;
  if (header === undefined) return {};
  const out: Record<string, string> = {};
  for (const part of String(header).split(", ")) {
    if (part === '</api/openapi.json>; rel="service-desc"') continue;
    const match = /^<([^>]+)>; rel="(prev|next)"$/.exec(part);
    assert.ok(match, `malformed Link part: ${part}`);
    out[match[2]] = match[1];
  }
  return out;
}

/** The path and query of an absolute link, to call it again. */
const pathOf = (href: string) => {
  const url = new URL(href);
  return url.pathname + url.search;
};

function ok200(answer: Answer, what: string): Answer {
  assert.equal(answer.status, 200, `${what}: ${answer.status} ${answer.text}`);
  return answer;
}

describe("paged lists", () => {
  let t: TestApp;
  let site: number;
  const P = () => `/api/site/${site}/pages`;
  /** Page ids of site `site` in list order (path, then id), set up in `before`. */
  let allIds: number[] = [];
  /** A user with five tokens, made by the tokens test. */
  let tokenUser = 0;

  before(async () => {
    // Links start with the configured API address (docs/security.md), here the address inject calls.
    t = await startTestApp({ env: { SVC_API_URL: "http://localhost" } });
    site = await makeSite(t, "Paged", "paged.localhost");
    // 105 pages: past the default of 100, so the default shows. Parents first, then children.
    for (let i = 0; i < 100; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, k) => {
          const n = String(i + k).padStart(3, "0");
          return t.call("POST", P(), {
            body: { title: `Page ${n}`, slug: `p${n}`, status: (i + k) % 7 === 0 ? "draft" : "publish" },
          });
        }),
      );
    }
    for (let k = 0; k < 5; k++)
      assert.equal(
        (await t.call("POST", P(), { body: { title: `Child ${k}`, slug: `c${k}`, parent: "p001" } })).status,
        201,
      );
    const all = ok200(await t.call("GET", P(), { query: { per_page: "500" } }), "all pages");
    allIds = all.body.pages.map((p: any) => p.id);
  });
  after(() => t.close());

  it("GET /pages answers 100 per page by default, total counts every matching page, and Link next leads to the rest", async () => {
    assert.equal(allIds.length, 105);
    const first = ok200(await t.call("GET", P()), "page 1");
    assert.equal(first.body.pages.length, 100);
    assert.equal(first.body.total, 105);
    assert.equal(first.headers["x-wp-total"], "105");
    assert.equal(first.headers["x-wp-totalpages"], "2");
    assert.deepEqual(links(first), { next: `http://localhost/api/site/${site}/pages?page=2` });
    const second = ok200(await t.call("GET", pathOf(links(first).next!)), "page 2");
    assert.equal(second.body.pages.length, 5);
    assert.equal(second.body.total, 105);
    assert.deepEqual(links(second), { prev: `http://localhost/api/site/${site}/pages?page=1` });
    // Every page once, in the list's one order (path, then id).
    assert.deepEqual(
      [...first.body.pages, ...second.body.pages].map((p: any) => p.id),
      allIds,
    );
    const paths = [...first.body.pages, ...second.body.pages].map((p: any) => p.path);
    assert.deepEqual(paths, [...paths].sort());
  });

  it("per_page takes 1 and 500; the pages of any size put together are the whole list, each page once", async () => {
    const one = ok200(await t.call("GET", P(), { query: { per_page: "1" } }), "per_page 1");
    assert.equal(one.body.pages.length, 1);
    assert.equal(one.headers["x-wp-totalpages"], "105");
    const most = ok200(await t.call("GET", P(), { query: { per_page: "500" } }), "per_page 500");
    assert.equal(most.body.pages.length, 105);
    assert.deepEqual(links(most), {}, "one page: no prev or next Link");
    const walked: number[] = [];
    for (let next: string | undefined = `${P()}?per_page=17`; next; ) {
      const answer = ok200(await t.call("GET", next), next);
      walked.push(...answer.body.pages.map((p: any) => p.id));
      next = links(answer).next && pathOf(links(answer).next!);
    }
    assert.deepEqual(walked, allIds);
  });

  it("total and the links follow the filters; Link keeps every other parameter of the query", async () => {
    const drafts =
      allIds.length -
      ok200(await t.call("GET", P(), { query: { status: "publish", per_page: "500" } }), "published").body.total;
    const answer = ok200(await t.call("GET", `${P()}?status=draft&parent=0&per_page=3&page=2`), "drafts page 2");
    assert.equal(answer.body.total, drafts);
    assert.ok(answer.body.pages.every((p: any) => p.status === "draft" && p.parent === 0));
    assert.deepEqual(links(answer), {
      prev: `http://localhost/api/site/${site}/pages?status=draft&parent=0&per_page=3&page=1`,
      next: `http://localhost/api/site/${site}/pages?status=draft&parent=0&per_page=3&page=3`,
    });
    const children = ok200(await t.call("GET", P(), { query: { parent: "p001", per_page: "2" } }), "children");
    assert.equal(children.body.total, 5);
    assert.equal(children.body.pages.length, 2);
    assert.equal(links(children).next, `http://localhost/api/site/${site}/pages?parent=p001&per_page=2&page=2`);
  });

  it("past the last page the list is empty: total stays, prev points to the last page, no next", async () => {
    const answer = ok200(await t.call("GET", P(), { query: { per_page: "50", page: "9" } }), "page 9");
    assert.deepEqual(answer.body.pages, []);
    assert.equal(answer.body.total, 105);
    assert.equal(answer.headers["x-wp-totalpages"], "3");
    assert.deepEqual(links(answer), { prev: `http://localhost/api/site/${site}/pages?per_page=50&page=3` });
    const none = ok200(await t.call("GET", P(), { query: { status: "trash", page: "2" } }), "empty list, page 2");
    assert.deepEqual([none.body.total, none.body.pages, none.headers["x-wp-totalpages"]], [0, [], "0"]);
    assert.deepEqual(links(none), { prev: `http://localhost/api/site/${site}/pages?status=trash&page=1` });
  });

  it("the legacy address keeps its form in the links: /api/pages with blog_id or domain, at the configured API address whatever the caller's Host (test/security/host.test.ts)", async () => {
    const byId = ok200(
      await t.call("GET", `/api/pages?blog_id=${site}&per_page=40&page=2`, {
        headers: { host: "api.example.test:8080" },
      }),
      "legacy",
    );
    assert.equal(byId.body.total, 105);
    assert.deepEqual(links(byId), {
      prev: `http://localhost/api/pages?blog_id=${site}&per_page=40&page=1`,
      next: `http://localhost/api/pages?blog_id=${site}&per_page=40&page=3`,
    });
    const byDomain = ok200(await t.call("GET", "/api/pages?domain=paged.localhost&per_page=100"), "legacy by domain");
    assert.equal(links(byDomain).next, "http://localhost/api/pages?domain=paged.localhost&per_page=100&page=2");
    // Chosen by header: the link is the same address, and the client sends its header again.
    const byHeader = ok200(
      await t.call("GET", "/api/pages", { headers: { "x-svc-blog-id": String(site) } }),
      "legacy by header",
    );
    assert.equal(links(byHeader).next, "http://localhost/api/pages?page=2");
    assert.deepEqual(
      byHeader.body.pages.map((p: any) => p.id),
      allIds.slice(0, 100),
    );
  });

  it("per_page or page out of range, not a number, or given twice is 400 invalid_parameter naming it, on every paged list", async () => {
    const lists = [
      P(),
      `/api/pages?blog_id=${site}`,
      `/api/site/${site}/frames`,
      `/api/site/${site}/data`,
      "/api/users",
      "/api/sites",
      "/api/users/me/tokens",
    ];
    const bad: Array<[string, string]> = [
      ["per_page=0", "per_page"],
      ["per_page=501", "per_page"],
      ["per_page=abc", "per_page"],
      ["per_page=1.5", "per_page"],
      ["per_page=", "per_page"],
      ["per_page=-1", "per_page"],
      ["per_page=2&per_page=3", "per_page"],
      ["page=0", "page"],
      ["page=-2", "page"],
      ["page=two", "page"],
      ["page=1e3", "page"],
      ["page=1000000001", "page"],
    ];
    for (const list of lists) {
      for (const [query, parameter] of bad) {
        const url = `${list}${list.includes("?") ? "&" : "?"}${query}`;
        const answer = await t.call("GET", url);
        assert.equal(answer.status, 400, `${url}: ${answer.status} ${answer.text}`);
        assert.equal(answer.body.success, false, url);
        assert.equal(answer.body.error, "invalid_parameter", url);
        assert.equal(answer.body.parameter, parameter, url);
        assert.match(answer.body.message, new RegExp(`^${parameter} must be an integer from 1 to `), url);
      }
      for (const query of ["per_page=1", "per_page=500", "page=1", "per_page=500&page=1000000000"]) {
        ok200(await t.call("GET", `${list}${list.includes("?") ? "&" : "?"}${query}`), `${list} ${query}`);
      }
    }
  });

  it("GET /frames pages in code-unit order of slugs; block and q filter in the database (q takes _ literally) and total follows them", async () => {
    const F = `/api/site/${site}/frames`;
    const slugs = ["news", "article__faq--simple", "article", "article__faq", "article--wide", "articles", "zeta__a"];
    for (const slug of slugs)
      assert.equal((await t.call("POST", F, { body: { slug, html: `<p>${slug}</p>` } })).status, 201, slug);
    const walked: string[] = [];
    for (let next: string | undefined = `${F}?per_page=3`; next; ) {
      const answer = ok200(await t.call("GET", next), next);
      assert.equal(answer.body.total, slugs.length);
      walked.push(...answer.body.frames.map((f: any) => f.slug));
      next = links(answer).next && pathOf(links(answer).next!);
    }
    assert.deepEqual(walked, [
      "article",
      "article--wide",
      "article__faq",
      "article__faq--simple",
      "articles",
      "news",
      "zeta__a",
    ]);

    const block = ok200(await t.call("GET", F, { query: { block: "article", per_page: "2", page: "2" } }), "block");
    assert.equal(block.body.total, 4);
    assert.deepEqual(
      block.body.frames.map((f: any) => f.slug),
      ["article__faq", "article__faq--simple"],
    );
    assert.deepEqual(links(block), { prev: `http://localhost${F}?block=article&per_page=2&page=1` });

    const underscores = ok200(await t.call("GET", F, { query: { q: "__" } }), "q=__");
    assert.deepEqual(
      underscores.body.frames.map((f: any) => f.slug),
      ["article__faq", "article__faq--simple", "zeta__a"],
    );
    assert.equal(underscores.body.total, 3);
    assert.equal(ok200(await t.call("GET", F, { query: { q: "%" } }), "q=%").body.total, 0);
    const html = ok200(await t.call("GET", F, { query: { q: "NEWS", include_html: "1" } }), "q=NEWS");
    assert.deepEqual(
      html.body.frames.map((f: any) => [f.slug, f.html]),
      [["news", "<p>news</p>"]],
    );
  });

  it("GET /data pages the data sets by name, shared set first, with total and links", async () => {
    const D = `/api/site/${site}/data`;
    for (const name of ["delta", "alpha", "charlie", "bravo", "echo"]) {
      assert.equal((await t.call("PUT", `${D}/${name}`, { body: { items: [{ name }] } })).status < 300, true, name);
    }
    const second = ok200(await t.call("GET", D, { query: { per_page: "2", page: "2" } }), "data page 2");
    assert.equal(second.body.total, 5);
    assert.deepEqual(
      second.body.datasets.map((d: any) => d.name),
      ["charlie", "delta"],
    );
    assert.deepEqual(links(second), {
      prev: `http://localhost${D}?per_page=2&page=1`,
      next: `http://localhost${D}?per_page=2&page=3`,
    });
  });

  it("GET /api/users pages every user by id; total counts them all", async () => {
    const users = [];
    for (const login of ["pager-a", "pager-b", "pager-c"]) users.push(await makeUser(t, login));
    // Arguments are checked before the role, as WordPress checks them before permissions.
    assert.equal(
      (await t.call("GET", "/api/users?per_page=0", { token: users[0].token })).body.error,
      "invalid_parameter",
    );
    assert.equal((await t.call("GET", "/api/users?per_page=5", { token: users[0].token })).status, 403);
    const all = ok200(await t.call("GET", "/api/users", { query: { per_page: "500" } }), "users");
    const ids = all.body.users.map((u: any) => u.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a: number, b: number) => a - b),
    );
    const second = ok200(await t.call("GET", "/api/users?per_page=2&page=2"), "users page 2");
    assert.equal(second.body.total, ids.length);
    assert.deepEqual(
      second.body.users.map((u: any) => u.id),
      ids.slice(2, 4),
    );
    assert.equal(second.headers["x-wp-total"], String(ids.length));
    assert.equal(links(second).prev, "http://localhost/api/users?per_page=2&page=1");
  });

  it("GET /api/sites pages the sites the caller administers; total counts only those", async () => {
    const user = await makeUser(t, "site-pager");
    const mine: number[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await makeSite(t, `Mine ${i}`, `mine-${i}.paged.localhost`);
      await makeSite(t, `Theirs ${i}`, `theirs-${i}.paged.localhost`);
      assert.equal(
        (await t.call("PUT", `/api/site/${id}/users/${user.id}`, { body: { role: "administrator" } })).status,
        200,
      );
      mine.push(id);
    }
    const first = ok200(
      await t.call("GET", "/api/sites", { token: user.token, query: { per_page: "2" } }),
      "sites page 1",
    );
    assert.equal(first.body.total, 3);
    assert.deepEqual(
      first.body.sites.map((s: any) => s.id),
      mine.slice(0, 2),
    );
    const second = ok200(await t.call("GET", pathOf(links(first).next!), { token: user.token }), "sites page 2");
    assert.deepEqual(
      second.body.sites.map((s: any) => s.id),
      mine.slice(2),
    );
    assert.equal(links(second).next, undefined);
    const everyone = ok200(await t.call("GET", "/api/sites", { query: { per_page: "1" } }), "all sites");
    assert.ok(everyone.body.total >= 8);
    assert.equal(everyone.headers["x-wp-totalpages"], String(everyone.body.total));
  });

  it("GET /api/users/{id}/tokens pages a user's tokens (every login adds one)", async () => {
    const user = await makeUser(t, "token-pager", { password: "long enough secret" });
    tokenUser = user.id;
    for (let i = 0; i < 4; i++)
      ok200(
        await t.call("POST", "/api/login", {
          token: null,
          body: { login: "token-pager", password: "long enough secret" },
        }),
        "login",
      );
    const page = ok200(
      await t.call("GET", `/api/users/${user.id}/tokens`, { query: { per_page: "2", page: "3" } }),
      "tokens page 3",
    );
    assert.equal(page.body.total, 5);
    assert.equal(page.body.tokens.length, 1);
    assert.deepEqual(links(page), { prev: `http://localhost/api/users/${user.id}/tokens?per_page=2&page=2` });
  });

  it("a list reads only its page from the database: its select carries LIMIT and OFFSET, and a count gives the total", async () => {
    const selects: Array<{ table: string; limited: boolean; counted: boolean }> = [];
    const watcher: KyselyPlugin = {
      transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
        const node = args.node as any;
        if (node.kind === "SelectQueryNode") {
          const table = node.from?.froms?.[0]?.table?.identifier?.name ?? "";
          selects.push({
            table,
            limited: node.limit !== undefined && node.offset !== undefined,
            counted: JSON.stringify(node.selections ?? []).includes("count("),
          });
        }
        return args.node;
      },
      async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
        return args.result;
      },
    };
    const db = t.store.db.withPlugin(watcher);
    const ctx: ServiceContext = { db, clock: t.deps.clock, publicFront: t.config, publisher: t.deps.publisher };
    const admin = { userId: 1, login: "admin", superAdmin: true, tokenId: 1, sessionId: null, readOnly: false };
    const window = { limit: 2, offset: 2 };
    const row = (await siteById(t.store.db, site))!;
    const cases: Array<[string, () => Promise<{ total: number } & Record<string, unknown>>]> = [
      ["pages", async () => listPages(ctx, row, {}, window)],
      ["frames", () => listFrames(db, site, {}, window)],
      ["datasets", () => listDatasets(db, site, window)],
      ["sites", () => listSites(ctx, admin, window)],
      ["users", () => listUsers(ctx, admin, window)],
      ["tokens", () => listTokens(ctx, admin, String(tokenUser), window)],
    ];
    for (const [table, list] of cases) {
      selects.splice(0);
      const answer = await list();
      const own = selects.filter((s) => s.table === table);
      assert.ok(
        own.some((s) => s.limited && !s.counted),
        `${table}: no select with LIMIT and OFFSET (${JSON.stringify(own)})`,
      );
      assert.ok(
        own.some((s) => s.counted && !s.limited),
        `${table}: no count`,
      );
      assert.ok(answer.total > window.limit + window.offset, `${table}: total ${answer.total}`);
      const items = Object.values(answer).find(Array.isArray) as unknown[];
      assert.equal(items.length, window.limit, `${table}: the page holds ${items.length}`);
    }
  });
});
