// Inputs of the fuzz test (fuzz.test.ts): the site it seeds and its callers, hostile values, JSON
// and markup, bodies shaped like what each route takes, and random requests to every route.
import assert from "node:assert/strict";
import fc from "fast-check";
import sharp from "sharp";
import { call, type FuzzTarget } from "./fuzz-target.ts";
import { answersEndlessly } from "../support/sse-client.ts";

/** JSON text `n` arrays deep, `n` objects deep (built as text: JSON.stringify itself recurses). */
export const arrays = (n: number, inner = "") => "[".repeat(n) + inner + "]".repeat(n);
export const objects = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;
/** Repeat blocks over `site` (one item), so nesting costs no more than its depth. */
export const repeats = (n: number, inner = "x") =>
  '<!-- svc/repeat {"source":"site"} -->'.repeat(n) + inner + "<!-- /svc/repeat -->".repeat(n);

export interface Caller {
  name: "super-administrator" | "site administrator" | "editor" | "no token";
  /** The token sent as Bearer, or null for none. */
  token: string | null;
}

export interface Ids {
  sites: string[];
  users: string[];
  /** Tokens of the fuzz user: never the callers', which the run needs to the end. */
  tokens: string[];
  frames: string[];
  pages: string[];
  menus: string[];
  items: string[];
  datasets: string[];
  styles: string[];
  media: string[];
  /** The four callers: the super-administrator, an administrator and an editor of site 1, nobody. */
  callers: Caller[];
  /** Users and tokens of the callers: an address naming one names 999999 instead (see `shielded`). */
  shieldedUsers: Set<string>;
  shieldedTokens: Set<string>;
}

/** A site, users, frames, pages, a menu and a data set for the ids in addresses; the callers. */
export async function seed(t: FuzzTarget): Promise<Ids> {
  const ok = async (method: string, url: string, body: unknown): Promise<any> => {
    const r = await call(t, method, url, { body });
    assert.ok(r.status < 300, `seed ${method} ${url}: ${r.status} ${r.text.slice(0, 300)}`);
    return r.body;
  };
  const makeUser = async (login: string) => {
    const id = (await ok("POST", "/api/users", { login })).user.id as number;
    return { id, token: (await ok("POST", `/api/users/${id}/tokens`, { label: "test" })).token as string };
  };
  const site = (await ok("POST", "/api/sites", { name: "Fuzz", domain: "fuzz.test" })).site.id;
  const user = (await ok("POST", "/api/users", { login: "fuzzer" })).user.id;
  const token = (await ok("POST", `/api/users/${user}/tokens`, { label: "fuzz" })).token_id;
  const adminTokens = (await ok("GET", "/api/users/1/tokens", undefined)).tokens;
  const siteAdmin = await makeUser("fuzz-site-admin");
  const editor = await makeUser("fuzz-editor");
  await ok("PUT", `/api/site/1/users/${siteAdmin.id}`, { role: "administrator" });
  await ok("PUT", `/api/site/1/users/${editor.id}`, { role: "editor" });
  const tokenIds = async (id: number) =>
    (await ok("GET", `/api/users/${id}/tokens`, undefined)).tokens.map((k: { token_id: number }) => String(k.token_id));
  const f1 = (
    await ok("POST", "/api/site/1/frames", { slug: "f1", html: '<p data-op-bind=\'{"text":"page.title"}\'>t</p>' })
  ).frame;
  await ok("POST", "/api/site/1/frames", {
    slug: "f2",
    html: '<!-- svc/repeat {"source":"data.d1"} --><!-- svc/partial {"name":"f1","with":{"a":1}} /--><!-- /svc/repeat -->',
  });
  const p1 = (await ok("POST", "/api/site/1/pages", { title: "P1", frame: "f1", fields: { a: { b: [1, 2] } } })).page;
  const p2 = (await ok("POST", "/api/site/1/pages", { title: "P2", parent: p1.id })).page;
  const menu = (
    await ok("POST", "/api/site/1/menus", {
      name: "M1",
      location: "header",
      items: [{ page: p1.id }, { url: "/x", title: "X", children: [{ url: "/y", title: "Y" }] }],
    })
  ).menu;
  const items = (await ok("GET", `/api/site/1/menus/${menu.id}`, undefined)).items.map((item: { id: number }) =>
    String(item.id),
  );
  await ok("PUT", "/api/site/1/data/d1", { items: [{ n: 1, tags: ["a", "b"] }] });
  await ok("PUT", "/api/site/1/styles/s1", { css: "body { color: red }" });
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#336699" } })
    .png()
    .toBuffer();
  const uploaded = await call(t, "POST", "/api/site/1/media?filename=m1.png", {
    payload: png,
    contentType: "image/png",
  });
  assert.equal(uploaded.status, 201, `seed media: ${uploaded.text.slice(0, 300)}`);
  return {
    // The main site cannot be deleted; the other may be, early in a run, so it is drawn less.
    sites: ["1", "1", "1", String(site)],
    users: ["1", String(user)],
    tokens: [String(token)],
    frames: ["f1", "f2", String(f1.id)],
    pages: [String(p1.id), String(p2.id), "p1", "/p1/p2"],
    menus: [String(menu.id), "m1", "M1"],
    items,
    datasets: ["d1", "pages", "menu.header", "languages", "site", "breadcrumbs", "data.d1"],
    styles: ["s1", "S1", "missing"],
    media: [String(uploaded.body.media.id), uploaded.body.media.slug ?? "m1"],
    callers: [
      { name: "super-administrator", token: t.adminToken },
      { name: "site administrator", token: siteAdmin.token },
      { name: "editor", token: editor.token },
      { name: "no token", token: null },
    ],
    shieldedUsers: new Set([String(siteAdmin.id), String(editor.id)]),
    shieldedTokens: new Set([
      String(adminTokens[0].token_id),
      ...(await tokenIds(siteAdmin.id)),
      ...(await tokenIds(editor.id)),
    ]),
  };
}

/**
 * The callers' users and tokens stay as they are: revoking or reissuing a caller's token, or
 * taking a caller's role, would end the run (every later call a 401 or 403), not find a bug.
 */
export function shielded(ids: Ids, url: string, name: string, value: string): string {
  const n = /^0*(\d{1,9})$/.exec(value)?.[1];
  const id = n === undefined ? value : String(Number(n));
  if (name === "token_id" && ids.shieldedTokens.has(id)) return "999999";
  const user = name === "user_id" || (name === "id" && url.startsWith("/api/users/"));
  if (user && ids.shieldedUsers.has(id)) return "999999";
  return value;
}

/** The ids an address parameter names in the seeded site (empty: none; any value is hostile). */
export function realValues(ids: Ids, url: string, name: string): string[] {
  if (name === "site_id") return ids.sites;
  if (name === "user_id") return ids.users;
  if (name === "token_id") return ids.tokens;
  if (name === "code") return ["en", "fr", "pt-br"];
  if (name === "name" && url.includes("/styles/")) return ids.styles;
  if (name === "source" || name === "name") return ids.datasets;
  if (name === "id" && url.includes("/items/")) return ids.items;
  if (name === "id" && url.startsWith("/api/sites")) return ids.sites;
  if (name === "id") return ids.users;
  if (name === "ref" && url.includes("/frames")) return ids.frames;
  if (name === "ref" && url.includes("/pages")) return ids.pages;
  if (name === "ref" && url.includes("/media")) return ids.media;
  if (name === "ref") return ids.menus;
  return [];
}

// ---- hostile values ----

export const ODD_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\uD800",
  "\uDFFF",
  "x\uDC00y",
  "\uFEFF",
  "__proto__",
  "constructor",
  "prototype",
  "../../etc/passwd",
  "%00",
  "😀",
  "<script>alert(1)</script>",
  "1e999",
  "-0",
  "0x10",
  " 42 ",
  "null",
  "true",
  "NaN",
  "a".repeat(300),
  "en",
  "header",
  "administrator",
  "publish",
  "draft",
  "trash",
  "f1",
  "d1",
  "p1",
  "/p1/",
  "http://x/",
  "javascript:x",
];

/** Frame markup meant to hurt: deep blocks, deep JSON in inserts and binds, deep elements, soup. */
export const hostileMarkup: fc.Arbitrary<string> = fc.oneof(
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
        '<!-- svc/repeat {"source":"site"} -->',
        '<!-- svc/repeat {"source":"item.children"} -->',
        "<!-- /svc/repeat -->",
        '<!-- svc/frame {"name":"f1"} /-->',
        '<!-- svc/partial {"name":"f2","with":{"x":[1]}} /-->',
        '<!-- svc/menu {"location":"header"} /-->',
        "<!-- op/lang-switcher /-->",
        "<!-- svc/",
        "-->",
        "/-->",
        "<!--",
        "{",
        "}",
        "[",
        "]",
        '"',
        "'",
        "<div>",
        "</div>",
        "<p ",
        "data-op-bind='",
        `<b data-op-bind='{"text":"item.name","title":"page.title"}'>`,
        "</b>",
        "<script>",
        "</script>",
        "<svg>",
        "\u0000",
        "\uD800",
        "😀",
        "&amp;",
        "<!DOCTYPE html>",
      ),
      { maxLength: 40 },
    )
    .map((parts) => parts.join("")),
);

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 3, arbitrary: hostileMarkup },
  { weight: 1, arbitrary: fc.constantFrom(70_000, 2_100_000).map((n) => "x".repeat(n)) },
);

/** A JSON value as text: deep ones are built as text, so nothing here recurses either. */
export const hostileValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  { weight: 4, arbitrary: hostileString.map((s) => JSON.stringify(s)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "null",
      "true",
      "false",
      "0",
      "-0",
      "1e308",
      "-1e308",
      "9007199254740993",
      "0.5",
      "-1",
      "2147483648",
      "[]",
      "{}",
      '""',
      "1e-400",
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(61, 62, 63, 64, 100, 10_000).map((n) => arrays(n)) },
  { weight: 1, arbitrary: fc.constantFrom(61, 62, 63, 100_000).map((n) => objects(n)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      `[${'{"a":1},'.repeat(5000)}{}]`,
      `{${Array.from({ length: 3000 }, (_, i) => `"k${i}":${i}`).join(",")}}`,
      `[${"1,".repeat(20_000)}1]`,
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{"__proto__":{"polluted":1,"super_admin":true}}',
      '{"constructor":{"prototype":{"polluted":1}}}',
      '[{"__proto__":[]}]',
      '{"toString":1,"valueOf":"x","hasOwnProperty":null}',
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(
        fc.record(
          {
            page: fc.constantFrom(1, 2, "p1", "nope", -1),
            url: fc.constantFrom("/a", "x", 5),
            title: hostileString,
            children: fc.constant([]),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 4 },
      )
      .map((v) => JSON.stringify(v)),
  },
);

/** Raw bodies that are not what a JSON object should be. */
export const rawBody: fc.Arbitrary<string> = fc.constantFrom(
  "",
  "   ",
  "{",
  '{"a":',
  "[1,2]",
  "null",
  "42",
  '"s"',
  "NaN",
  "\uFEFF{}",
  '{"a":1}garbage',
  '{"a":"\uD800"}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  arrays(65),
  arrays(10_000),
  objects(64),
  objects(100_000),
  `{"x":${arrays(63)}}`,
  `{"x":${arrays(64)}}`,
  '{"__proto__":{"super_admin":true}}',
  "[".repeat(1_000_000),
);

/**
 * A JSON object as text. Members given as [arbitrary, "often"] are present 4 times in 5, as
 * [arbitrary, "rarely"] 1 time in 5, so most bodies are well formed where they need to be and
 * hostile where the route reads values.
 */
function objectOf(members: Record<string, [fc.Arbitrary<string>, "often" | "rarely"]>): fc.Arbitrary<string> {
  const entries = Object.entries(members).map(([key, [value, how]]) => {
    const member = value.map((text): string | null => `${JSON.stringify(key)}:${text}`);
    return how === "often"
      ? fc.oneof({ weight: 4, arbitrary: member }, { weight: 1, arbitrary: fc.constant(null) })
      : fc.oneof({ weight: 1, arbitrary: member }, { weight: 4, arbitrary: fc.constant(null) });
  });
  return fc.tuple(...entries).map((parts) => `{${parts.filter((p) => p !== null).join(",")}}`);
}

const text = (arbitrary: fc.Arbitrary<string>) => arbitrary.map((s) => JSON.stringify(s));
const often = (arbitrary: fc.Arbitrary<string>): [fc.Arbitrary<string>, "often"] => [arbitrary, "often"];
const rarely = (arbitrary: fc.Arbitrary<string>): [fc.Arbitrary<string>, "rarely"] => [arbitrary, "rarely"];
const bool = fc.constantFrom("true", "false");
const slug = text(
  fc.oneof(
    { weight: 4, arbitrary: fc.stringMatching(/^[a-z][a-z0-9]{0,8}(-[a-z0-9]{1,4})?$/) },
    { weight: 1, arbitrary: fc.constantFrom("f1", "f2", "F1", "a--b", "-x", "") },
  ),
);
/** Mostly a value of the right kind, sometimes anything. */
const mostly = (good: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: hostileValue });
/** An object of one to three members with hostile values (page fields, data items, match). */
const hostileObject = (keys: string[]) =>
  fc
    .array(fc.tuple(fc.constantFrom(...keys), hostileValue), { minLength: 1, maxLength: 3 })
    .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`);

/** A menu tree `levels` deep (as text), each level with hostile titles and targets. */
const menuTree: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(1, 3, 8, 9, 20),
    hostileString.filter((s) => s.length < 100),
    fc.constantFrom('"page":1', '"page":"p1"', '"url":"/x"', '"url":"javascript:x"', '"page":-5', '"url":null'),
  )
  .map(([levels, title, target]) => {
    let tree = "[]";
    for (let i = 0; i < levels; i++) tree = `[{"title":${JSON.stringify(title)},${target},"children":${tree}}]`;
    return tree;
  });

/**
 * Bodies shaped like what a route takes, with hostile values where it reads them, so requests
 * get past the first check and reach the services, the compiler, the store and the renderer.
 */
export function shapedBody(method: string, url: string, ids: Ids): fc.Arbitrary<string> | null {
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
    return objectOf({
      items: often(
        fc
          .array(hostileObject(["n", "title", "children", "__proto__", "tags"]), { maxLength: 4 })
          .map((items) => `[${items.join(",")}]`),
      ),
    });
  }
  if (url.endsWith("/data/resolve")) {
    return objectOf({
      source: often(fc.constantFrom(...ids.datasets).map((d) => JSON.stringify(d))),
      match: often(hostileObject(["n", "tags", "title", "a.b"])),
      page: rarely(page),
      limit: rarely(fc.constantFrom("1", "-1", "1e9", '"2"')),
    });
  }
  if (/\/menus$/.test(url) && method === "POST")
    return objectOf({
      name: often(text(hostileString)),
      location: rarely(fc.constantFrom('"header"', '"footer_1"', '"x"')),
      items: often(menuTree),
    });
  if (url.endsWith("/items") && method === "PUT")
    return objectOf({ items: often(menuTree), allow_invalid: rarely(bool) });
  if (url.endsWith("/items") && method === "POST") {
    return objectOf({
      item: often(menuTree.map((tree) => tree.slice(1, -1) || "{}")),
      page: rarely(page),
      url: rarely(text(hostileString)),
      parent: rarely(fc.constantFrom(...ids.items, "0", "-1")),
    });
  }
  if (url.endsWith("/settings"))
    return objectOf({
      name: often(text(hostileString)),
      tagline: often(text(hostileString)),
      home_page: rarely(page),
      theme: rarely(text(hostileString)),
    });
  if (url === "/api/sites" || url === "/api/sites/:id")
    return objectOf({ name: often(text(hostileString)), domain: often(text(fc.oneof(fc.domain(), hostileString))) });
  if (url === "/api/users")
    return objectOf({
      login: often(text(fc.oneof(fc.stringMatching(/^[a-z]{1,10}$/), hostileString))),
      password: rarely(text(hostileString)),
      email: rarely(text(fc.oneof(fc.emailAddress(), hostileString))),
    });
  if (url === "/api/login")
    return objectOf({ login: often(fc.constantFrom('"admin"', '"fuzzer"', "null")), password: often(hostileValue) });
  if (url.endsWith("/languages"))
    return objectOf({
      code: often(fc.constantFrom('"en"', '"fr"', '"pt-br"', '"xx-yy"', '"EN"')),
      name: rarely(text(hostileString)),
      default: rarely(bool),
    });
  return null;
}

export interface Request {
  method: string;
  url: string;
  payload?: string | Buffer;
  contentType?: string;
  headers: Record<string, string>;
}

/**
 * The Host a request for a route bound to a host carries (a Fastify host constraint): the admin's
 * routes answer on the admin's host only (src/admin/routes.ts, the default SVC_ADMIN_HOST); on any
 * other they are the public site's.
 */
const HOST_BOUND: ReadonlyMap<string, string> = new Map(
  ["/", "/admin", "/admin/*"].map((url) => [url, "admin.localhost"]),
);

/** The headers a request for the route `url` starts from: its host where the route is bound to one. */
export function routeHeaders(url: string): Record<string, string> {
  const host = HOST_BOUND.get(url);
  return host === undefined ? {} : { host };
}

/** Percent-encodes; a lone surrogate (which a URL cannot carry) becomes U+FFFD first. */
export const enc = (text: string) =>
  encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD"));

/**
 * Every route and method the app declares, as [method, url pattern]; DELETE and quota writes
 * last. An event stream's GET is left out: its answer never ends (the stream's own tests read it).
 */
export function routeMethods(t: FuzzTarget): Array<{ method: string; url: string }> {
  const all = t.routes
    .list()
    .flatMap(([url, methods]) => methods.map((method) => ({ url, method })))
    .filter(({ method, url }) => !answersEndlessly(method, url));
  // Deletes (and quotas set to 0) empty the seeded site for the routes after them: they go last.
  const late = (r: { method: string; url: string }) =>
    r.method === "DELETE" ? 2 : r.url.endsWith("/quotas") && r.method !== "GET" && r.method !== "HEAD" ? 1 : 0;
  return all
    .map((r, i) => ({ r, i }))
    .sort((a, b) => late(a.r) - late(b.r) || a.i - b.i)
    .map(({ r }) => r);
}

/** The member names of each route's body and query schemas, by `METHOD url`. */
export function schemaKeys(t: FuzzTarget): Map<string, { body: string[]; query: string[] }> {
  const keysOf = new Map<string, { body: string[]; query: string[] }>();
  for (const { route, part, schema } of t.routes.schemas()) {
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
  return keysOf;
}

const GENERIC_KEYS = [
  "html",
  "markup",
  "content",
  "fields",
  "items",
  "title",
  "slug",
  "name",
  "page",
  "url",
  "children",
  "location",
  "lang",
  "parent",
  "id",
  "match",
  "source",
  "with",
  "blog_id",
];

/** A JSON object body for a route: its own keys (and common ones) with hostile values. */
export function objectBody(keys: { body: string[] }): fc.Arbitrary<string> {
  const bodyKeys = [...new Set([...keys.body, ...GENERIC_KEYS])];
  return fc
    .array(
      fc.tuple(
        fc.oneof(
          { weight: 5, arbitrary: fc.constantFrom(...bodyKeys) },
          { weight: 1, arbitrary: fc.constantFrom(...ODD_STRINGS) },
        ),
        hostileValue,
      ),
      { maxLength: 6 },
    )
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`);
}

/** A payload for a route: shaped like what it takes where it has a shape, else an object, raw text or none. */
export function payloadArbitrary(
  ids: Ids,
  method: string,
  url: string,
  keys: { body: string[] },
): fc.Arbitrary<string | undefined> {
  const object = objectBody(keys);
  const shaped = shapedBody(method, url, ids);
  return fc.oneof(
    { weight: shaped === null ? 0 : 8, arbitrary: shaped ?? object },
    { weight: 6, arbitrary: object },
    { weight: 2, arbitrary: rawBody },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** Address parts that are not ids: random text, numbers, and what routers and decoders trip on. */
export const randomPart: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 12 }).map(enc),
  fc.nat({ max: 10_000_000 }).map(String),
  fc.constantFrom(
    "0",
    "-1",
    "1e3",
    "9999999999999999999",
    "..",
    "%2e%2e",
    "%ZZ",
    "%00",
    "a".repeat(600),
    enc("😀"),
    enc("\uFEFF"),
    "%F0%9F",
  ),
);

export function requestArbitrary(t: FuzzTarget, ids: Ids): fc.Arbitrary<Request> {
  const routes = routeMethods(t);
  const keysOf = schemaKeys(t);
  const param = (url: string, name: string): fc.Arbitrary<string> => {
    const real = realValues(ids, url, name);
    const value =
      real.length > 0
        ? fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...real).map(enc) }, { weight: 1, arbitrary: randomPart })
        : randomPart;
    return value.map((v) => shielded(ids, url, name, v));
  };

  // Routes whose bodies are shaped (writes that reach services, the compiler and the renderer)
  // are drawn four times as often as the others.
  return fc
    .oneof(
      ...routes.map(({ url, method }) => ({
        weight: shapedBody(method, url, ids) === null ? 1 : 4,
        arbitrary: fc.constant({ url, method }),
      })),
    )
    .chain(({ url, method }) => {
      const names = [...url.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);
      const keys = keysOf.get(`${method} ${url}`) ?? { body: [], query: [] };
      const queryKey = fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...(keys.query.length > 0 ? keys.query : ["dry_run"])) },
        { weight: 1, arbitrary: fc.constantFrom("blog_id", "dry_run", "lang", "per_page", "page", "__proto__") },
      );
      const payload = payloadArbitrary(ids, method, url, keys);
      const query = fc.oneof(
        { weight: 3, arbitrary: fc.constant([] as Array<[string, string]>) },
        {
          weight: 2,
          arbitrary: fc.array(
            fc.tuple(
              queryKey,
              fc.oneof(
                hostileString.filter((s) => s.length < 200),
                randomPart,
              ),
            ),
            { minLength: 1, maxLength: 3 },
          ),
        },
      );
      return fc
        .record({
          params: fc.tuple(...names.map((name) => param(url, name))),
          payload:
            method === "GET" || method === "HEAD" || method === "DELETE"
              ? fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, payload)
              : payload,
          query,
          contentType: fc.oneof(
            { weight: 12, arbitrary: fc.constant("application/json") },
            {
              weight: 1,
              arbitrary: fc.constantFrom("application/vnd.api+json", "text/plain", "application/json; charset=latin1"),
            },
          ),
          headers: fc.oneof(
            { weight: 6, arbitrary: fc.constant(routeHeaders(url)) },
            {
              weight: 1,
              arbitrary: fc.record(
                { "x-svc-blog-id": fc.constantFrom("1", "2", "999", "x"), "if-match": fc.constantFrom('"x"', "*") },
                { requiredKeys: [] },
              ),
            },
          ),
        })
        .map(({ params, payload, query, contentType, headers }): Request => {
          let i = 0;
          const path = url.replace(/:([a-z_]+)/g, () => params[i++]!);
          const search = query.map(([k, v]) => `${enc(k)}=${enc(v)}`).join("&");
          return { method, url: search ? `${path}?${search}` : path, payload, contentType, headers };
        });
    });
}

/** Public addresses too: the public site is a route of its own (`*`). */
export const PUBLIC_PATHS = [
  "/",
  "/p1/",
  "/P1/",
  "//p1/",
  "/%70%31/",
  "/p1/p2/",
  "/%00/",
  "/%ZZ/",
  "/a/../p1/",
  `/${"a/".repeat(500)}`,
];
export const publicRequest: fc.Arbitrary<Request> = fc
  .oneof(
    fc.constantFrom(...PUBLIC_PATHS),
    fc.string({ maxLength: 30 }).map((s) => `/${enc(s)}/`),
  )
  .map((url) => ({ method: "GET", url, headers: { host: "localhost" } }));
