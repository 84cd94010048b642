// Issue 16, point 4: random and hostile JSON and markup thrown at every route the app declares
// (t.app.routesIndex.list()), with a valid admin token. Whatever comes in, the answer is never a
// 5xx, and a GET /healthz right after it is answered within 1 s.
//
// Reproduce a failure with the seed fast-check prints: FUZZ_SEED=<seed> npm test -- test/security/fuzz.test.ts
// (FUZZ_RUNS=<n> runs more). The app is stateful (a request may delete what a later one names),
// so failures are reported as they happen (endOnFailure), with method, address and answer, not shrunk.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { startTestApp, type TestApp } from "../support/app.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

/** JSON text `n` arrays deep, `n` objects deep (built as text: JSON.stringify itself recurses). */
const arrays = (n: number, inner = "") => "[".repeat(n) + inner + "]".repeat(n);
const objects = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
/** Repeat blocks over `site` (one item), so nesting costs no more than its depth. */
const repeats = (n: number, inner = "x") => '<!-- svc/repeat {"source":"site"} -->'.repeat(n) + inner + "<!-- /svc/repeat -->".repeat(n);

interface Ids {
  sites: string[];
  users: string[];
  /** Tokens of the fuzz user: never the admin's, which the run needs to the end. */
  tokens: string[];
  adminTokenId: string;
  frames: string[];
  pages: string[];
  menus: string[];
  items: string[];
  datasets: string[];
}

/** A site, a user, frames, pages, a menu and a data set for the ids in addresses. */
async function seed(t: TestApp): Promise<Ids> {
  const ok = async (method: string, url: string, body: unknown): Promise<any> => {
    const r = await t.call(method, url, { body });
    assert.ok(r.status < 300, `seed ${method} ${url}: ${r.status} ${r.text.slice(0, 300)}`);
    return r.body;
  };
  const site = (await ok("POST", "/api/sites", { name: "Fuzz", domain: "fuzz.test" })).site.id;
  const user = (await ok("POST", "/api/users", { login: "fuzzer" })).user.id;
  const token = (await ok("POST", `/api/users/${user}/tokens`, { label: "fuzz" })).token_id;
  const adminTokens = (await ok("GET", "/api/users/1/tokens", undefined)).tokens;
  const f1 = (await ok("POST", "/api/site/1/frames", { slug: "f1", html: '<p data-op-bind=\'{"text":"page.title"}\'>t</p>' })).frame;
  await ok("POST", "/api/site/1/frames", { slug: "f2", html: '<!-- svc/repeat {"source":"data.d1"} --><!-- svc/partial {"name":"f1","with":{"a":1}} /--><!-- /svc/repeat -->' });
  const p1 = (await ok("POST", "/api/site/1/pages", { title: "P1", frame: "f1", fields: { a: { b: [1, 2] } } })).page;
  const p2 = (await ok("POST", "/api/site/1/pages", { title: "P2", parent: p1.id })).page;
  const menu = (await ok("POST", "/api/site/1/menus", { name: "M1", location: "header", items: [{ page: p1.id }, { url: "/x", title: "X", children: [{ url: "/y", title: "Y" }] }] })).menu;
  const items = (await ok("GET", `/api/site/1/menus/${menu.id}`, undefined)).items.map((item: { id: number }) => String(item.id));
  await ok("PUT", "/api/site/1/data/d1", { items: [{ n: 1, tags: ["a", "b"] }] });
  return {
    // The main site cannot be deleted; the other may be, early in a run, so it is drawn less.
    sites: ["1", "1", "1", String(site)],
    users: ["1", String(user)],
    tokens: [String(token)],
    adminTokenId: String(adminTokens[0].token_id),
    frames: ["f1", "f2", String(f1.id)],
    pages: [String(p1.id), String(p2.id), "p1", "/p1/p2"],
    menus: [String(menu.id), "m1", "M1"],
    items,
    datasets: ["d1", "pages", "menu.header", "languages", "site", "breadcrumbs", "data.d1"],
  };
}

// ---- hostile values ----

const ODD_STRINGS = [
  "", " ", "\u0000", "a\u0000b", "\uD800", "\uDFFF", "x\uDC00y", "\uFEFF", "__proto__", "constructor", "prototype",
  "../../etc/passwd", "%00", "😀", "<script>alert(1)</script>", "1e999", "-0", "0x10", " 42 ", "null", "true", "NaN",
  "a".repeat(300), "en", "header", "administrator", "publish", "draft", "trash", "f1", "d1", "p1", "/p1/", "http://x/", "javascript:x",
];

/** Frame markup meant to hurt: deep blocks, deep JSON in inserts and binds, deep elements, soup. */
const hostileMarkup: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(63, 64, 65, 2000).map((n) => repeats(n)),
  fc.constantFrom(63, 64, 100, 20_000).map((n) => `<!-- svc/frame {"name":"f1","a":${arrays(n)}} /-->`),
  fc.constantFrom(62, 63, 64, 20_000).map((n) => `<!-- svc/partial {"name":"f1","with":${objects(n)}} /-->`),
  fc.constantFrom(63, 64, 20_000).map((n) => `<p data-op-bind='{"text":"site.name","x":${arrays(n)}}'>a</p>`),
  fc.constantFrom(100, 100_000).map((n) => "<div>".repeat(n) + "</div>".repeat(n)),
  fc.constantFrom(10, 64, 2000).map((n) => `<!-- svc/menu {"location":"header","depth":${n}} /-->`.repeat(3)),
  fc.constantFrom(repeats(64, '<!-- svc/partial {"name":"f2"} /-->'), '<!-- svc/frame {"name":"f2"} /-->'.repeat(50)),
  fc
    .array(
      fc.constantFrom(
        '<!-- svc/repeat {"source":"site"} -->', '<!-- svc/repeat {"source":"item.children"} -->', "<!-- /svc/repeat -->",
        '<!-- svc/frame {"name":"f1"} /-->', '<!-- svc/partial {"name":"f2","with":{"x":[1]}} /-->', '<!-- svc/menu {"location":"header"} /-->',
        "<!-- op/lang-switcher /-->", "<!-- svc/", "-->", "/-->", "<!--", "{", "}", "[", "]", '"', "'", "<div>", "</div>", "<p ",
        "data-op-bind='", `<b data-op-bind='{"text":"item.name","title":"page.title"}'>`, "</b>", "<script>", "</script>", "<svg>",
        "\u0000", "\uD800", "😀", "&amp;", "<!DOCTYPE html>",
      ),
      { maxLength: 40 },
    )
    .map((parts) => parts.join("")),
);

const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 3, arbitrary: hostileMarkup },
  { weight: 1, arbitrary: fc.constantFrom(70_000, 2_100_000).map((n) => "x".repeat(n)) },
);

/** A JSON value as text: deep ones are built as text, so nothing here recurses either. */
const hostileValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  { weight: 4, arbitrary: hostileString.map((s) => JSON.stringify(s)) },
  { weight: 2, arbitrary: fc.constantFrom("null", "true", "false", "0", "-0", "1e308", "-1e308", "9007199254740993", "0.5", "-1", "2147483648", "[]", "{}", '""', "1e-400") },
  { weight: 1, arbitrary: fc.constantFrom(61, 62, 63, 64, 100, 10_000).map((n) => arrays(n)) },
  { weight: 1, arbitrary: fc.constantFrom(61, 62, 63, 100_000).map((n) => objects(n)) },
  { weight: 1, arbitrary: fc.constantFrom(`[${'{"a":1},'.repeat(5000)}{}]`, `{${Array.from({ length: 3000 }, (_, i) => `"k${i}":${i}`).join(",")}}`, `[${"1,".repeat(20_000)}1]`) },
  { weight: 1, arbitrary: fc.constantFrom('{"__proto__":{"polluted":1,"super_admin":true}}', '{"constructor":{"prototype":{"polluted":1}}}', '[{"__proto__":[]}]', '{"toString":1,"valueOf":"x","hasOwnProperty":null}') },
  { weight: 1, arbitrary: fc.array(fc.record({ page: fc.constantFrom(1, 2, "p1", "nope", -1), url: fc.constantFrom("/a", "x", 5), title: hostileString, children: fc.constant([]) }, { requiredKeys: [] }), { maxLength: 4 }).map((v) => JSON.stringify(v)) },
);

/** Raw bodies that are not what a JSON object should be. */
const rawBody: fc.Arbitrary<string> = fc.constantFrom(
  "", "   ", "{", '{"a":', "[1,2]", "null", "42", '"s"', "NaN", "\uFEFF{}", '{"a":1}garbage', '{"a":"\uD800"}', '{"a":"\\ud800"}',
  '{"a":"\\u0000"}', arrays(65), arrays(10_000), objects(64), objects(100_000), `{"x":${arrays(63)}}`, `{"x":${arrays(64)}}`,
  '{"__proto__":{"super_admin":true}}', "[".repeat(1_000_000),
);

/**
 * A JSON object as text. Members given as [arbitrary, "often"] are present 4 times in 5, as
 * [arbitrary, "rarely"] 1 time in 5, so most bodies are well formed where they need to be and
 * hostile where the route reads values.
 */
function objectOf(members: Record<string, [fc.Arbitrary<string>, "often" | "rarely"]>): fc.Arbitrary<string> {
  const entries = Object.entries(members).map(([key, [value, how]]) => {
    const member = value.map((text): string | null => `${JSON.stringify(key)}:${text}`);
    return how === "often" ? fc.oneof({ weight: 4, arbitrary: member }, { weight: 1, arbitrary: fc.constant(null) }) : fc.oneof({ weight: 1, arbitrary: member }, { weight: 4, arbitrary: fc.constant(null) });
  });
  return fc.tuple(...entries).map((parts) => `{${parts.filter((p) => p !== null).join(",")}}`);
}

const text = (arbitrary: fc.Arbitrary<string>) => arbitrary.map((s) => JSON.stringify(s));
const often = (arbitrary: fc.Arbitrary<string>): [fc.Arbitrary<string>, "often"] => [arbitrary, "often"];
const rarely = (arbitrary: fc.Arbitrary<string>): [fc.Arbitrary<string>, "rarely"] => [arbitrary, "rarely"];
const bool = fc.constantFrom("true", "false");
const slug = text(fc.oneof({ weight: 4, arbitrary: fc.stringMatching(/^[a-z][a-z0-9]{0,8}(-[a-z0-9]{1,4})?$/) }, { weight: 1, arbitrary: fc.constantFrom("f1", "f2", "F1", "a--b", "-x", "") }));
/** Mostly a value of the right kind, sometimes anything. */
const mostly = (good: fc.Arbitrary<string>) => fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: hostileValue });
/** An object of one to three members with hostile values (page fields, data items, match). */
const hostileObject = (keys: string[]) =>
  fc.array(fc.tuple(fc.constantFrom(...keys), hostileValue), { minLength: 1, maxLength: 3 }).map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`);

/** A menu tree `levels` deep (as text), each level with hostile titles and targets. */
const menuTree: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(1, 3, 8, 9, 20), hostileString.filter((s) => s.length < 100), fc.constantFrom('"page":1', '"page":"p1"', '"url":"/x"', '"url":"javascript:x"', '"page":-5', '"url":null'))
  .map(([levels, title, target]) => {
    let tree = "[]";
    for (let i = 0; i < levels; i++) tree = `[{"title":${JSON.stringify(title)},${target},"children":${tree}}]`;
    return tree;
  });

/**
 * Bodies shaped like what a route takes, with hostile values where it reads them, so requests
 * get past the first check and reach the services, the compiler, the store and the renderer.
 */
function shapedBody(method: string, url: string, ids: Ids): fc.Arbitrary<string> | null {
  const page = mostly(fc.constantFrom(...ids.pages).map((p) => (/^\d+$/.test(p) ? p : JSON.stringify(p))));
  const markup = text(fc.oneof({ weight: 3, arbitrary: hostileMarkup }, { weight: 1, arbitrary: hostileString }));
  if (/\/frames(\/:ref)?$/.test(url) && (method === "POST" || method === "PUT")) {
    return objectOf({ slug: often(slug), html: often(markup), bake: rarely(bool), dry_run: rarely(bool) });
  }
  if (url.endsWith("/assign")) return objectOf({ page: often(page), clear: rarely(bool), bake: rarely(bool) });
  if (/\/pages(\/:ref)?$/.test(url) && (method === "POST" || method === "PATCH")) {
    return objectOf({
      title: often(text(fc.oneof(fc.string({ minLength: 1, maxLength: 10 }), hostileString))),
      fields: often(mostly(hostileObject(["a", "__proto__", "x.y", "constructor"]))),
      content: often(markup),
      parent: rarely(page),
      frame: rarely(fc.constantFrom('"f1"', '"f2"', '""', "null", "7")),
      status: rarely(fc.constantFrom('"publish"', '"draft"', '"trash"', '"x"')),
      slug: rarely(slug),
    });
  }
  if (url.endsWith("/data/:name") && method === "PUT") {
    return objectOf({ items: often(fc.array(hostileObject(["n", "title", "children", "__proto__", "tags"]), { maxLength: 4 }).map((items) => `[${items.join(",")}]`)) });
  }
  if (url.endsWith("/data/resolve")) {
    return objectOf({ source: often(fc.constantFrom(...ids.datasets).map((d) => JSON.stringify(d))), match: often(hostileObject(["n", "tags", "title", "a.b"])), page: rarely(page), limit: rarely(fc.constantFrom("1", "-1", "1e9", '"2"')) });
  }
  if (/\/menus$/.test(url) && method === "POST") return objectOf({ name: often(text(hostileString)), location: rarely(fc.constantFrom('"header"', '"footer_1"', '"x"')), items: often(menuTree) });
  if (url.endsWith("/items") && method === "PUT") return objectOf({ items: often(menuTree), allow_invalid: rarely(bool) });
  if (url.endsWith("/items") && method === "POST") {
    return objectOf({ item: often(menuTree.map((tree) => tree.slice(1, -1) || "{}")), page: rarely(page), url: rarely(text(hostileString)), parent: rarely(fc.constantFrom(...ids.items, "0", "-1")) });
  }
  if (url.endsWith("/settings")) return objectOf({ name: often(text(hostileString)), tagline: often(text(hostileString)), home_page: rarely(page), theme: rarely(text(hostileString)) });
  if (url === "/api/sites" || url === "/api/sites/:id") return objectOf({ name: often(text(hostileString)), domain: often(text(fc.oneof(fc.domain(), hostileString))) });
  if (url === "/api/users") return objectOf({ login: often(text(fc.oneof(fc.stringMatching(/^[a-z]{1,10}$/), hostileString))), password: rarely(text(hostileString)), email: rarely(text(fc.oneof(fc.emailAddress(), hostileString))) });
  if (url === "/api/login") return objectOf({ login: often(fc.constantFrom('"admin"', '"fuzzer"', "null")), password: often(hostileValue) });
  if (url.endsWith("/languages")) return objectOf({ code: often(fc.constantFrom('"en"', '"fr"', '"pt-br"', '"xx-yy"', '"EN"')), name: rarely(text(hostileString)), default: rarely(bool) });
  return null;
}

interface Request {
  method: string;
  url: string;
  payload?: string;
  contentType?: string;
  headers: Record<string, string>;
}

/** Percent-encodes; a lone surrogate (which a URL cannot carry) becomes U+FFFD first. */
const enc = (text: string) => encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD"));

function requestArbitrary(t: TestApp, ids: Ids): fc.Arbitrary<Request> {
  const routes = t.app.routesIndex.list().flatMap(([url, methods]) => methods.map((method) => ({ url, method })));
  const keysOf = new Map<string, { body: string[]; query: string[] }>();
  for (const { route, part, schema } of t.app.routesIndex.schemas()) {
    const [methods, url] = route.split(" ");
    for (const method of methods!.split(",")) {
      const key = `${method} ${url}`;
      const entry = keysOf.get(key) ?? { body: [], query: [] };
      const names = Object.keys((schema as { properties?: object }).properties ?? {});
      if (part === "body") entry.body.push(...names);
      if (part === "querystring") entry.query.push(...names);
      keysOf.set(key, entry);
    }
  }
  const randomPart = fc.oneof(
    fc.string({ maxLength: 12 }).map(enc),
    fc.nat({ max: 10_000_000 }).map(String),
    fc.constantFrom("0", "-1", "1e3", "9999999999999999999", "..", "%2e%2e", "%ZZ", "%00", "a".repeat(600), enc("😀"), enc("\uFEFF"), "%F0%9F"),
  );
  const param = (url: string, name: string): fc.Arbitrary<string> => {
    let real: string[] = [];
    if (name === "site_id") real = ids.sites;
    else if (name === "user_id") real = ids.users;
    else if (name === "token_id") real = ids.tokens;
    else if (name === "code") real = ["en", "fr", "pt-br"];
    else if (name === "source" || name === "name") real = ids.datasets;
    else if (name === "id" && url.includes("/items/")) real = ids.items;
    else if (name === "id" && url.startsWith("/api/sites")) real = ids.sites;
    else if (name === "id") real = ids.users;
    else if (name === "ref" && url.includes("/frames")) real = ids.frames;
    else if (name === "ref" && url.includes("/pages")) real = ids.pages;
    else if (name === "ref") real = ids.menus;
    const value = real.length > 0 ? fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...real).map(enc) }, { weight: 1, arbitrary: randomPart }) : randomPart;
    // The admin's own token stays: revoking or reissuing it would end the run, not find a bug.
    return name === "token_id" ? value.map((v) => (v === ids.adminTokenId ? "999999" : v)) : value;
  };
  const generic = ["html", "markup", "content", "fields", "items", "title", "slug", "name", "page", "url", "children", "location", "lang", "parent", "id", "match", "source", "with", "blog_id"];

  // Routes whose bodies are shaped (writes that reach services, the compiler and the renderer)
  // are drawn four times as often as the others.
  return fc.oneof(...routes.map(({ url, method }) => ({ weight: shapedBody(method, url, ids) === null ? 1 : 4, arbitrary: fc.constant({ url, method }) }))).chain(({ url, method }) => {
    const names = [...url.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);
    const keys = keysOf.get(`${method} ${url}`) ?? { body: [], query: [] };
    const bodyKeys = [...new Set([...keys.body, ...generic])];
    const queryKey = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...(keys.query.length > 0 ? keys.query : ["dry_run"])) },
      { weight: 1, arbitrary: fc.constantFrom("blog_id", "dry_run", "lang", "per_page", "page", "__proto__") },
    );
    const objectBody = fc
      .array(fc.tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...bodyKeys) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_STRINGS) }), hostileValue), { maxLength: 6 })
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`);
    const shaped = shapedBody(method, url, ids);
    const payload = fc.oneof(
      { weight: shaped === null ? 0 : 8, arbitrary: shaped ?? objectBody },
      { weight: 6, arbitrary: objectBody },
      { weight: 2, arbitrary: rawBody },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
    const query = fc.oneof(
      { weight: 3, arbitrary: fc.constant([] as Array<[string, string]>) },
      { weight: 2, arbitrary: fc.array(fc.tuple(queryKey, fc.oneof(hostileString.filter((s) => s.length < 200), randomPart)), { minLength: 1, maxLength: 3 }) },
    );
    return fc.record({
      params: fc.tuple(...names.map((name) => param(url, name))),
      payload: method === "GET" || method === "HEAD" || method === "DELETE" ? fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, payload) : payload,
      query,
      contentType: fc.oneof({ weight: 12, arbitrary: fc.constant("application/json") }, { weight: 1, arbitrary: fc.constantFrom("application/vnd.api+json", "text/plain", "application/json; charset=latin1") }),
      headers: fc.oneof(
        { weight: 6, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: fc.record({ "x-svc-blog-id": fc.constantFrom("1", "2", "999", "x"), "if-match": fc.constantFrom('"x"', "*") }, { requiredKeys: [] }) },
      ),
    }).map(({ params, payload, query, contentType, headers }): Request => {
      let i = 0;
      const path = url.replace(/:([a-z_]+)/g, () => params[i++]!);
      const search = query.map(([k, v]) => `${enc(k)}=${enc(v)}`).join("&");
      return { method, url: search ? `${path}?${search}` : path, payload, contentType, headers };
    });
  });
}

/** Public addresses too: the public site is a route of its own (`*`). */
const publicRequest: fc.Arbitrary<Request> = fc
  .oneof(fc.constantFrom("/", "/p1/", "/P1/", "//p1/", "/%70%31/", "/p1/p2/", "/%00/", "/%ZZ/", "/a/../p1/", `/${"a/".repeat(500)}`), fc.string({ maxLength: 30 }).map((s) => `/${enc(s)}/`))
  .map((url) => ({ method: "GET", url, headers: { host: "localhost" } }));

describe("fuzz: hostile JSON and markup at every route", () => {
  let t: TestApp;
  let ids: Ids;
  before(async () => {
    // Failed logins would otherwise lock the test's one address out after 20 a minute.
    t = await startTestApp({ env: { SVC_AUTH_FAILURES_PER_MIN: "10000000" } });
    ids = await seed(t);
  });
  after(() => t.close());

  it(`never answers 5xx, and answers GET /healthz within 1 s after each request (${RUNS} runs)`, async (test) => {
    const requests = fc.oneof({ weight: 12, arbitrary: requestArbitrary(t, ids) }, { weight: 1, arbitrary: publicRequest });
    let seen = 0;
    const statuses = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        const headers: Record<string, string> = { authorization: `Bearer ${t.adminToken}`, ...request.headers };
        if (request.payload !== undefined) headers["content-type"] = request.contentType ?? "application/json";
        const answer = await t.app.inject({ method: request.method as "GET", url: request.url, headers, payload: request.payload });
        const shown = `${request.method} ${request.url.slice(0, 200)} ${request.payload === undefined ? "" : request.payload.slice(0, 300)}`;
        assert.ok(answer.statusCode < 500, `${shown}\n→ ${answer.statusCode} ${answer.body.slice(0, 500)}`);
        const started = performance.now();
        const health = await t.app.inject({ method: "GET", url: "/healthz" });
        const took = performance.now() - started;
        assert.equal(health.statusCode, 200, `GET /healthz after ${shown}: ${health.statusCode}`);
        assert.ok(took < 1000, `GET /healthz after ${shown} took ${Math.round(took)} ms`);
        seen++;
        const code = /"(?:error|code)":"([a-z_]+)"/.exec(answer.body.slice(0, 200))?.[1] ?? "";
        const key = `${answer.statusCode} ${code}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    assert.equal(seen, RUNS);
    test.diagnostic(`answers: ${[...statuses].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k.trim()} ×${n}`).join(", ")}`);
    // The admin token still works: the run exercised routes, not a locked-out caller.
    assert.equal((await t.call("GET", "/api/profile")).status, 200);
  });
});
