// The deterministic part of the fuzz test (fuzz.test.ts): for every route and method the app
// declares, the same hostile inputs every run: bodies nested 10,000 levels deep, random JSON and
// route-shaped bodies drawn by fast-check from a fixed seed, hostile address parameters and query
// strings, and, where a route takes markup, stylesheets or files, hostile ones of those.
import fc from "fast-check";
import type { FuzzTarget } from "./fuzz-target.ts";
import {
  arrays,
  enc,
  objects,
  payloadArbitrary,
  repeats,
  routeHeaders,
  routeMethods,
  schemaKeys,
  realValues,
  shielded,
  type Ids,
  type Request,
} from "./fuzz-inputs.ts";

/** Bodies nested 10,000 levels deep (once a stack overflow and a 500, on /api/login too). */
export const DEEP_BODIES = [
  arrays(10_000),
  `{"html":"<p>x</p>","slug":"deep","fields":${objects(10_000)},"items":${arrays(10_000)}}`,
];

/** Address parameters that are not ids: long, negative, huge, traversal, bad escapes, prototype names. */
export const HOSTILE_PARAMS = [
  "a".repeat(600),
  "-99999999999999999999",
  enc("../../etc/passwd"),
  enc("😀\uFEFF\u200B"),
  "%ZZ",
  "__proto__",
];

/** Query strings that are not what a route reads: wrong types, repeats, prototype keys, NUL, length. */
const GENERIC_QUERIES = [
  "blog_id=abc&dry_run=maybe&per_page=-1&page=1e999&lang=..&force=2&domain=%F0%9F&__proto__=1&constructor%5Bprototype%5D%5Bx%5D=1",
  "per_page=1&per_page=2&lang=en&lang=fr&blog_id=1&blog_id=2&dry_run=1&dry_run=0",
  `q=${"x".repeat(8_000)}&include_html=1&status=any&parent=-1&type=%5B%5D&x=%00${"%FF".repeat(3)}`,
];
const QUERY_VALUES = ["", "-1", "1e999", "a".repeat(300), enc("😀"), "true", "[]", "%FF", "0x10", enc('{"a":1}')];

/** Frame markup meant to hurt the compiler and the renderer (docs/security.md). */
export const HOSTILE_MARKUPS = [
  repeats(2_000),
  repeats(65, '<!-- svc/partial {"name":"f2"} /-->'),
  `<!-- svc/frame {"name":"f1","a":${arrays(20_000)}} /-->`,
  `<!-- svc/partial {"name":"f1","with":${objects(20_000)}} /-->`,
  `<p data-op-bind='{"text":"site.name","x":${arrays(20_000)}}'>a</p>`,
  "<div>".repeat(100_000) + "</div>".repeat(100_000),
  `<!-- svc/menu {"location":"header","depth":2000} /-->`.repeat(3),
  '<!-- svc/frame {"name":"f2"} /-->'.repeat(10_001),
  '<!-- svc/repeat {"source":"data.d1"} -->'.repeat(5_000),
  "<!-- svc/".repeat(20_000),
  `<svg><p data-op-bind='{"text":"page.content","html":"page.content"}'></svg><script>${"</".repeat(1000)}</script>`,
  "x".repeat(2_097_153),
];

/**
 * Stylesheets meant to hurt the CSS parser and bundler. Not here: rules, selectors or calc()
 * nested hundreds deep, which end the process today (css-depth.test.ts, todo until src/styles
 * bounds the depth); 50 levels stand for them.
 */
const HOSTILE_CSS = [
  "a{".repeat(50) + "}".repeat(50),
  `a{b:${"(".repeat(5_000)}}`,
  "@media (".repeat(5_000),
  '@import "s1";'.repeat(2_000),
  `a{background:url(media:${"x".repeat(5_000)})}`,
  `${"a ".repeat(20_000)}{color:red}`,
  "@media (".repeat(5_000),
  '@import "x1";\n'.repeat(3),
];

/** Files meant to hurt media sniffing: an XML entity bomb, deep SVG, a PNG signature and garbage, nothing. */
const HOSTILE_FILES: Array<[string, string | Buffer]> = [
  [
    "image/svg+xml",
    `<?xml version="1.0"?><!DOCTYPE s [<!ENTITY a "aaaaaaaaaa">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`).join("")}]><svg xmlns="http://www.w3.org/2000/svg">&j;</svg>`,
  ],
  ["image/svg+xml", `<svg xmlns="http://www.w3.org/2000/svg">${"<g>".repeat(100_000)}${"</g>".repeat(100_000)}</svg>`],
  [
    "image/png",
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4096, 0xff)]),
  ],
  ["image/png", Buffer.alloc(0)],
  ["application/octet-stream", Buffer.from(arrays(10_000))],
];

const takesMarkup = (keys: { body: string[] }) =>
  keys.body.some((k) => k === "html" || k === "markup" || k === "content");

/** A stable number for a string, so each route draws its own fixed sample. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The body a markup route takes, with `markup` where it reads markup. */
function markupBody(url: string, markup: string, n: number): string {
  // A replacement keeps the frame's slug: renaming f1 would leave the routes after it nothing to name.
  if (url.includes("/frames/:ref")) return JSON.stringify({ html: markup });
  if (url.includes("/frames")) return JSON.stringify({ slug: `fz${n}`, html: markup });
  if (url.endsWith("/pages/language")) return JSON.stringify({ page: "p1", lang: "fr", content: markup });
  return JSON.stringify({ title: `Fz ${n}`, content: markup, frame: "f1" });
}

/**
 * The requests for one route and method: each of them for every caller. The first uses real ids
 * and nothing else, so the route itself is reached; the rest are hostile.
 */
export function sweepRequests(t: FuzzTarget, ids: Ids, seed: number): Array<{ route: string; requests: Request[] }> {
  const keysOf = schemaKeys(t);
  return routeMethods(t).map(({ method, url }) => {
    const route = `${method} ${url}`;
    const keys = keysOf.get(route) ?? { body: [], query: [] };
    const names = [...url.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);
    const real = (name: string) => shielded(ids, url, name, enc(realValues(ids, url, name)[0] ?? "x1"));
    const path = (hostile?: [string, string]) =>
      url
        .replace(/:([a-z_]+)/g, (_, name: string) => (hostile?.[0] === name ? hostile[1] : real(name)))
        .replace("*", "x.css");
    const json = (payload: string | undefined, query = "", at = path()): Request => ({
      method,
      url: query ? `${at}?${query}` : at,
      payload,
      contentType: "application/json",
      headers: routeHeaders(url),
    });

    const requests: Request[] = [json(undefined)];
    for (const deep of DEEP_BODIES) requests.push(json(deep));
    const own = { seed: (seed + hash(route)) | 0, numRuns: 2 };
    for (const value of fc.sample(fc.jsonValue({ maxDepth: 4 }), own)) requests.push(json(JSON.stringify(value)));
    for (const payload of fc.sample(payloadArbitrary(ids, method, url, keys), own)) requests.push(json(payload));
    for (const name of names)
      for (const value of HOSTILE_PARAMS) requests.push(json(undefined, "", path([name, value])));
    for (const query of GENERIC_QUERIES) requests.push(json(undefined, query));
    if (keys.query.length > 0) {
      requests.push(
        json(undefined, keys.query.map((k, i) => `${enc(k)}=${QUERY_VALUES[i % QUERY_VALUES.length]}`).join("&")),
      );
      requests.push(
        json(
          undefined,
          keys.query.map((k, i) => `${enc(k)}=${QUERY_VALUES[(i + 3) % QUERY_VALUES.length]}&${enc(k)}=1`).join("&"),
        ),
      );
    }
    if (takesMarkup(keys))
      for (const [i, markup] of HOSTILE_MARKUPS.entries()) requests.push(json(markupBody(url, markup, i)));
    if (url.includes("/styles/:name") && method === "PUT")
      for (const css of HOSTILE_CSS) requests.push(json(JSON.stringify({ css })));
    if (url.includes("/media") && url.startsWith("/api/") && (method === "POST" || method === "PUT")) {
      for (const [type, bytes] of HOSTILE_FILES)
        requests.push({
          method,
          url: `${path()}?filename=${enc("fz.svg")}`,
          payload: bytes,
          contentType: type,
          headers: routeHeaders(url),
        });
    }
    return { route, requests };
  });
}
