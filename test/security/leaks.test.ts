// Nothing learned from outside (docs/security.md). Before: a public 404 said why in X-Svc-Reason
// (`draft`, `trash`…), telling anyone that an unpublished page sits at an address; a site
// administrator could add any user of the network to their site, learning that the user exists;
// on the legacy address an unknown site was 404 and a foreign one 403, so anyone with a token could
// list which sites exist. Each case below compares the answers byte for byte.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rawRequest, type Raw } from "../support/raw-http.ts";
import { makeSite, makeUser, startTestApp, type TestApp } from "../support/app.ts";
import { assign, frame, page, S } from "../support/site.ts";

let port = 0;

const get = (path: string, headers: Record<string, string> = {}, host = "localhost:8080"): Promise<Raw> =>
  rawRequest(port, path, { headers, host });

const reason = (raw: Raw) => raw.headers.find(([key]) => key === "x-svc-reason")?.[1];
/** The answer save what differs on every request: the request id and the date. */
const comparable = (raw: Raw) => ({
  status: raw.status,
  headers: raw.headers.filter(([key]) => key !== "x-request-id" && key !== "date"),
  body: raw.body,
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("security: public 404s tell nothing", () => {
  let t: TestApp;
  let blog: number;
  let mainAdmin: { id: number; token: string };
  let mainEditor: { id: number; token: string };
  let blogAdmin: { id: number; token: string };
  /** Each unpublished address and the reason its 404 gives an administrator. */
  const hidden: Array<[string, string]> = [];

  before(async () => {
    t = await startTestApp();
    blog = await makeSite(t, "Blog", "blog.localhost");
    mainAdmin = await makeUser(t, "main-admin");
    mainEditor = await makeUser(t, "main-editor");
    blogAdmin = await makeUser(t, "blog-admin");
    await t.call("PUT", `${S}/users/${mainAdmin.id}`, { body: { role: "administrator" } });
    await t.call("PUT", `${S}/users/${mainEditor.id}`, { body: { role: "editor" } });
    await t.call("PUT", `/api/site/${blog}/users/${blogAdmin.id}`, { body: { role: "administrator" } });

    await frame(t, "plain", "<p>a page</p>");
    const draft = await page(t, { title: "Secret draft", status: "draft" });
    await assign(t, "plain", draft.id);
    const trashed = await page(t, { title: "Binned" });
    await assign(t, "plain", trashed.id);
    await t.call("PATCH", `${S}/pages/${trashed.id}`, { body: { status: "trash" } });
    await page(t, { title: "No frame yet" });
    const parent = await page(t, { title: "Unpublished parent", status: "draft" });
    const child = await page(t, { title: "Published child", parent: parent.id });
    await assign(t, "plain", child.id);
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as { port: number }).port;

    // What each address answered before the fix, to anyone (the reasons are the service's own).
    for (const path of ["/secret-draft/", "/binned/", "/no-frame-yet/", "/unpublished-parent/published-child/"]) {
      const withToken = await get(path, bearer(t.adminToken));
      assert.equal(withToken.status, 404, path);
      hidden.push([path, reason(withToken)!]);
    }
    // A trashed page's address answers as no page at all (`no_page`), or `trash`.
    assert.deepEqual(
      hidden.map(([, why]) => (why === "no_page" ? "trash" : why)),
      ["draft", "trash", "no_frame", "parent_unpublished"],
    );
  });
  after(() => t.close());

  it("a draft, a trashed page, a page without a frame and one under an unpublished parent answer exactly as an address that never held a page", async () => {
    const never = comparable(await get("/never-held-a-page/"));
    assert.equal(never.status, 404);
    assert.ok(!never.headers.some(([key]) => key === "x-svc-reason"), "no reason header");
    for (const [path] of hidden) assert.deepEqual(comparable(await get(path)), never, path);
  });

  it("tokens of anyone but an administrator of that site (an editor, another site's administrator, a bad token) change nothing", async () => {
    const never = comparable(await get("/never-held-a-page/"));
    const tokens = {
      editor: mainEditor.token,
      "another site's administrator": blogAdmin.token,
      "a bad token": `op_${"x".repeat(64)}`,
      "not a token": "hello",
    };
    for (const [who, token] of Object.entries(tokens)) {
      for (const [path] of hidden) {
        assert.deepEqual(comparable(await get(path, bearer(token))), never, `${who}, Bearer, ${path}`);
        assert.deepEqual(comparable(await get(path, { "x-svc-key": token })), never, `${who}, X-Svc-Key, ${path}`);
      }
    }
  });

  it("an administrator of the site (Bearer or X-Svc-Key) and a super-administrator see the reason", async () => {
    for (const [path, why] of hidden) {
      assert.equal(reason(await get(path, bearer(mainAdmin.token))), why, path);
      assert.equal(reason(await get(path, { "x-svc-key": mainAdmin.token })), why, path);
      assert.equal(reason(await get(path, bearer(t.adminToken))), why, path);
    }
    assert.equal(reason(await get("/never-held-a-page/", bearer(mainAdmin.token))), "no_page");
  });

  it("on another site's host, that site's administrators see its reasons and the main site's do not", async () => {
    await page(t, { title: "Blog draft", status: "draft" }, `/api/site/${blog}`);
    const host = "blog.localhost:8080";
    assert.equal(reason(await get("/blog-draft/", bearer(blogAdmin.token), host)), "draft");
    const asMainAdmin = comparable(await get("/blog-draft/", bearer(mainAdmin.token), host));
    assert.deepEqual(asMainAdmin, comparable(await get("/never-on-the-blog/", {}, host)));
  });
});

describe("security: a site administrator cannot probe for users", () => {
  let t: TestApp;
  let blog: number;
  let shop: number;
  let blogAdmin: { id: number; token: string };
  before(async () => {
    t = await startTestApp();
    blog = await makeSite(t, "Blog", "blog.localhost");
    shop = await makeSite(t, "Shop", "shop.localhost");
    blogAdmin = await makeUser(t, "probing-admin");
    await t.call("PUT", `/api/site/${blog}/users/${blogAdmin.id}`, { body: { role: "administrator" } });
  });
  after(() => t.close());

  const memberships = async () =>
    (await t.store.db.selectFrom("memberships").selectAll().orderBy("site_id").orderBy("user_id").execute()).map(
      (m) => `${m.site_id}/${m.user_id}/${m.role}`,
    );

  it("giving a role to a user with no role on any site they administer is 404 user_not_found, the same answer as an unknown id, and writes nothing", async () => {
    const stranger = await makeUser(t, "stranger");
    const shopEditor = await makeUser(t, "shop-editor");
    await t.call("PUT", `/api/site/${shop}/users/${shopEditor.id}`, { body: { role: "editor" } });
    // The admin only edits the shop: its members stay unknown to them.
    await t.call("PUT", `/api/site/${shop}/users/${blogAdmin.id}`, { body: { role: "editor" } });
    const written = await memberships();

    const unknown = await t.call("PUT", `/api/site/${blog}/users/987654`, {
      token: blogAdmin.token,
      body: { role: "editor" },
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, "user_not_found");
    for (const [who, id] of [
      ["a user of no site", stranger.id],
      ["an editor of a site they only edit", shopEditor.id],
      ["the network's super-administrator", 1],
    ] as const) {
      const probed = await t.call("PUT", `/api/site/${blog}/users/${id}`, {
        token: blogAdmin.token,
        body: { role: "editor" },
      });
      assert.deepEqual([probed.status, probed.body], [unknown.status, unknown.body], who);
    }
    assert.deepEqual(await memberships(), written, "nothing written");
  });

  it("a member of a site they administer may be given a role; a member's role changes as before; a super-administrator adds anyone", async () => {
    const colleague = await makeUser(t, "colleague");
    const other = await makeSite(t, "Other", "other.localhost");
    await t.call("PUT", `/api/site/${other}/users/${blogAdmin.id}`, { body: { role: "administrator" } });
    await t.call("PUT", `/api/site/${other}/users/${colleague.id}`, { body: { role: "editor" } });
    const added = await t.call("PUT", `/api/site/${blog}/users/${colleague.id}`, {
      token: blogAdmin.token,
      body: { role: "editor" },
    });
    assert.equal(added.status, 200, added.text);
    const promoted = await t.call("PUT", `/api/site/${blog}/users/${colleague.id}`, {
      token: blogAdmin.token,
      body: { role: "administrator" },
    });
    assert.deepEqual(
      { ...promoted.body, warnings: undefined },
      { success: true, site_id: blog, user_id: colleague.id, role: "administrator", warnings: undefined },
    );

    const newcomer = await makeUser(t, "newcomer");
    assert.equal(
      (await t.call("PUT", `/api/site/${blog}/users/${newcomer.id}`, { body: { role: "editor" } })).status,
      200,
      "by the super-administrator",
    );
  });
});

describe("security: the legacy address does not tell which sites exist", () => {
  let t: TestApp;
  let blog: number;
  let blogAdmin: { id: number; token: string };
  before(async () => {
    t = await startTestApp();
    blog = await makeSite(t, "Blog", "blog.localhost");
    await makeSite(t, "Foreign", "foreign.localhost");
    blogAdmin = await makeUser(t, "legacy-admin");
    await t.call("PUT", `/api/site/${blog}/users/${blogAdmin.id}`, { body: { role: "administrator" } });
  });
  after(() => t.close());

  /** What a caller sees of a legacy call: status, body and the source header. */
  const seen = async (token: string, query: Record<string, string>, headers: Record<string, string> = {}) => {
    const r = await t.call("GET", "/api/settings", { token, query, headers });
    return { status: r.status, body: r.body, source: r.headers["x-svc-blog-source"] };
  };

  it("to a caller who is not a super-administrator, an unknown site is 403 insufficient_role exactly as a foreign one, by blog_id, X-Svc-Blog-Id and domain", async () => {
    const foreignId = String(blog + 1);
    const pairs: Array<
      [
        string,
        Parameters<typeof seen>[1],
        Parameters<typeof seen>[2],
        Parameters<typeof seen>[1],
        Parameters<typeof seen>[2],
      ]
    > = [
      ["blog_id", { blog_id: "987654" }, {}, { blog_id: foreignId }, {}],
      ["blog_id, not a number", { blog_id: "abc" }, {}, { blog_id: "1" }, {}],
      ["header", {}, { "x-svc-blog-id": "987654" }, {}, { "x-svc-blog-id": foreignId }],
      ["domain", { domain: "nowhere.localhost" }, {}, { domain: "foreign.localhost" }, {}],
    ];
    for (const [how, unknownQuery, unknownHeaders, foreignQuery, foreignHeaders] of pairs) {
      const unknown = await seen(blogAdmin.token, unknownQuery, unknownHeaders);
      const foreign = await seen(blogAdmin.token, foreignQuery, foreignHeaders);
      assert.equal(unknown.status, 403, how);
      assert.deepEqual(unknown, foreign, how);
      assert.deepEqual(
        unknown.body,
        { code: "insufficient_role", message: unknown.body.message, data: { status: 403 } },
        how,
      );
    }
    assert.equal((await seen(blogAdmin.token, { blog_id: String(blog) })).status, 200, "their own site answers");
  });

  it("a super-administrator, who may see every site, still gets 404 site_not_found for an unknown one", async () => {
    for (const [query, headers] of [
      [{ blog_id: "987654" }, {}],
      [{}, { "x-svc-blog-id": "987654" }],
      [{ domain: "nowhere.localhost" }, {}],
    ] as const) {
      const r = await seen(t.adminToken, { ...query }, { ...headers });
      assert.equal(r.status, 404);
      assert.equal(r.body.code, "site_not_found");
    }
  });
});

describe("security: the legacy address tells an editor and a site administrator nothing of unknown sites, on reads and writes", () => {
  let t: TestApp;
  let blog: number;
  let foreign: number;
  const callers: Record<string, { id: number; token: string }> = {};
  before(async () => {
    t = await startTestApp();
    blog = await makeSite(t, "Blog", "blog.localhost");
    foreign = await makeSite(t, "Foreign", "foreign.localhost");
    callers["an editor of one site"] = await makeUser(t, "legacy-editor");
    callers["an administrator of one site"] = await makeUser(t, "legacy-site-admin");
    await t.call("PUT", `/api/site/${blog}/users/${callers["an editor of one site"]!.id}`, {
      body: { role: "editor" },
    });
    await t.call("PUT", `/api/site/${blog}/users/${callers["an administrator of one site"]!.id}`, {
      body: { role: "administrator" },
    });
  });
  after(() => t.close());

  /** Headers that differ on every call: the request id, the date and the API limit's counters. */
  const PER_REQUEST = new Set(["x-request-id", "date", "x-ratelimit-remaining", "ratelimit", "x-ratelimit-reset"]);
  /** The whole answer: status, body as sent, and every header save the per-request ones. */
  const answer = async (
    token: string,
    method: string,
    url: string,
    body: unknown,
    query: Record<string, string>,
    headers: Record<string, string>,
  ) => {
    const r = await t.call(method, url, { token, query, headers, body });
    const kept = Object.entries(r.headers)
      .filter(([key]) => !PER_REQUEST.has(key))
      .sort(([a], [b]) => a.localeCompare(b));
    return { status: r.status, text: r.text, headers: kept };
  };

  const calls: Array<[string, string, unknown]> = [
    ["GET", "/api/settings", undefined],
    ["GET", "/api/frames", undefined],
    ["POST", "/api/frames", { slug: "probe", html: "<p>probe</p>" }],
    ["PUT", "/api/data/x", { items: [{ n: 1 }] }],
    ["PATCH", "/api/settings", { tagline: "probed" }],
  ];
  type Selector = [Record<string, string>, Record<string, string>];
  const selectors = (): Array<[string, Selector, Selector]> => [
    ["blog_id", [{ blog_id: "987654" }, {}], [{ blog_id: String(foreign) }, {}]],
    ["blog_id, not a number", [{ blog_id: "abc" }, {}], [{ blog_id: String(foreign) }, {}]],
    ["blog_id, past the last site", [{ blog_id: String(foreign + 1) }, {}], [{ blog_id: String(foreign) }, {}]],
    ["X-Svc-Blog-Id", [{}, { "x-svc-blog-id": "987654" }], [{}, { "x-svc-blog-id": String(foreign) }]],
    ["domain", [{ domain: "nowhere.localhost" }, {}], [{ domain: "foreign.localhost" }, {}]],
  ];

  const written = async () => ({
    frames: (await t.store.db.selectFrom("frames").select(["site_id", "slug"]).where("slug", "=", "probe").execute())
      .length,
    data: await t.call("GET", `/api/site/${foreign}/data/x`),
    tagline: (await t.call("GET", `/api/site/${foreign}/settings`)).text,
  });

  it("an unknown site answers exactly as a foreign one (status, body, headers save per-request ones): 403 insufficient_role, on GET, POST /api/frames, PUT /api/data/x and PATCH /api/settings, by blog_id, X-Svc-Blog-Id and domain", async () => {
    const before = await written();
    for (const [who, caller] of Object.entries(callers)) {
      for (const [method, url, body] of calls) {
        for (const [how, [uq, uh], [fq, fh]] of selectors()) {
          const what = `${who}, ${method} ${url}, ${how}`;
          const unknown = await answer(caller.token, method, url, body, uq, uh);
          const foreignAnswer = await answer(caller.token, method, url, body, fq, fh);
          assert.deepEqual(unknown, foreignAnswer, what);
          assert.equal(unknown.status, 403, what);
          assert.deepEqual(
            JSON.parse(unknown.text),
            { code: "insufficient_role", message: JSON.parse(unknown.text).message, data: { status: 403 } },
            what,
          );
        }
      }
    }
    const after = await written();
    assert.equal(after.frames, 0, "no frame written anywhere");
    assert.equal(after.data.status, before.data.status, "no data set written on the foreign site");
    assert.equal(after.tagline, before.tagline, "the foreign site's settings unchanged");
  });

  it("a body the route would refuse does not tell either: an unknown and a foreign site still answer the same", async () => {
    for (const [who, caller] of Object.entries(callers)) {
      for (const [method, url, body] of [
        ["POST", "/api/frames", { html: 5 }],
        ["PUT", "/api/data/x", { items: "no" }],
        ["POST", "/api/frames", {}],
      ] as const) {
        for (const [how, [uq, uh], [fq, fh]] of selectors()) {
          const unknown = await answer(caller.token, method, url, body, uq, uh);
          const foreignAnswer = await answer(caller.token, method, url, body, fq, fh);
          assert.deepEqual(unknown, foreignAnswer, `${who}, ${method} ${url} ${JSON.stringify(body)}, ${how}`);
        }
      }
    }
  });

  it("the site administrator's own site still answers through the same selectors (the refusals above are not a blanket 403)", async () => {
    const admin = callers["an administrator of one site"]!;
    assert.equal(
      (await t.call("GET", "/api/settings", { token: admin.token, query: { blog_id: String(blog) } })).status,
      200,
    );
    assert.equal(
      (await t.call("GET", "/api/settings", { token: admin.token, headers: { "x-svc-blog-id": String(blog) } })).status,
      200,
    );
    assert.equal(
      (await t.call("GET", "/api/settings", { token: admin.token, query: { domain: "blog.localhost" } })).status,
      200,
    );
  });
});
