// Property tests: random and broken markup never makes compile, analysis or render throw;
// markup without inserts and binds renders to exactly its input; rewriteFrameRefs leaves
// markup without matching references exactly as it is.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { compileFrame, renderFrame, rewriteFrameRefs } from "../../src/markup/index.ts";
import type { CompiledFrame, RenderContext } from "../../src/markup/index.ts";

const FRAGMENTS = [
  "<!-- svc/",
  "<!-- op/",
  "<!--",
  "-->",
  "/-->",
  "--!>",
  "<!-->",
  "<!",
  "<?",
  "</",
  "data-op-bind='",
  'data-op-bind="',
  "data-op-bind",
  "=",
  "'",
  '"',
  "<div",
  "<p ",
  "<li>",
  ">",
  "/>",
  "</div>",
  "</p>",
  "</li>",
  '{"',
  '"}',
  "{",
  "}",
  "[",
  "]",
  ":",
  ",",
  " ",
  "\n",
  "\r\n",
  "\t",
  "name",
  "text",
  "html",
  "href",
  "class",
  "page.title",
  "page.content",
  "item.name",
  "item.children",
  "vars.x",
  "data.team.0.name",
  "site.name",
  "menu",
  "frame",
  "partial",
  "repeat",
  "lang-switcher",
  "gallery",
  "/svc/repeat",
  '"location":"header"',
  '"source":"team"',
  '"source":"menu.header"',
  '"source":"item.children"',
  '"name":"a"',
  '"ref":"self"',
  '"match":{"n":"1"}',
  '"limit":1',
  '"depth":1',
  '"with":{"x":1}',
  '"text":"item.name"',
  '"html":"page.content"',
  '<!-- svc/repeat {"source":"team"} -->',
  "<!-- /svc/repeat -->",
  '<!-- svc/frame {"name":"a"} /-->',
  '<!-- svc/partial {"ref":"self"} /-->',
  '<!-- svc/menu {"location":"header"} /-->',
  "<!-- op/lang-switcher /-->",
  '<!-- svc/image {"media":"hero","sizes":"50vw"} /-->',
  '<!-- svc/image {"media":7} /-->',
  "image",
  '"media":"hero"',
  "media.hero.url",
  "media.7.alt",
  '<!-- svc/styles {"name":"main"} /-->',
  '<!-- svc/styles {"names":["gone","main"]} /-->',
  "styles",
  '"names":["main"]',
  "<!-- svc/seo /-->",
  '<!-- svc/seo {"x":1} /-->',
  "seo",
  '<!-- svc/sidebar {"name":"docs","depth":2} /-->',
  '<!-- svc/sidebar {"name":"gone"} /-->',
  '<!-- svc/pager {"name":"docs"} /-->',
  '<!-- svc/toc {"levels":[2,3]} /-->',
  "<!-- svc/toc /-->",
  "sidebar",
  "pager",
  "toc",
  '"levels":[9]',
  `<b data-op-bind='{"text":"item.name","title":"page.title"}'>`,
  "</b>",
  "&amp;",
  "&",
  "&quot;",
  "<script>",
  "</script>",
  "<svg>",
  "</svg>",
  "<title>",
  "</title>",
  "<textarea>",
  "<img ",
  "<br/>",
  "<!DOCTYPE html>",
  "<body>",
  "é",
  "日本",
  "😀",
  "\uFEFF",
  "\uD800",
  "\u0000",
];

const fragmentMarkup = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }).map((parts) => parts.join(""));
const anyMarkup = fc.oneof(
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.string({ unit: "grapheme", maxLength: 200 }),
  fragmentMarkup,
  fc
    .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 5 })), { maxLength: 40 })
    .map((p) => p.join("")),
);

/** A context that answers everything, with awkward values, and frames that embed each other. */
function fuzzContext(extra: Map<string, CompiledFrame>): RenderContext {
  const frames = new Map<string, CompiledFrame>([
    ["a", compileFrame(`A<!-- svc/frame {"name":"b"} /--><i data-op-bind='{"text":"item.name"}'></i>`)],
    ["b", compileFrame(`B<!-- svc/partial {"name":"a","with":{"x":"y"}} /-->`)],
    ...extra,
  ]);
  const tree = [
    {
      title: "<T>",
      url: '/"q"',
      valid: true,
      target: "_blank",
      classes: "c",
      children: [{ title: "x", url: "/x", valid: false, children: [] }],
    },
    { title: "y", url: "/y", valid: true, children: null as unknown as [] },
  ];
  return {
    value: (token) =>
      token.length % 5 === 0
        ? undefined
        : token.length % 5 === 1
          ? { o: 1 }
          : token.length % 5 === 2
            ? 42
            : `<${token}&'">`,
    items: (source) =>
      source === "data.team"
        ? [{ name: "n", n: 1, children: tree }, null, 3, "s", [1]]
        : source.startsWith("menu.")
          ? tree
          : source === "pages"
            ? []
            : undefined,
    menu: () => tree,
    languageLinks: () => [
      { code: "en", name: "E", url: "/", current: true },
      { code: 'd"e', name: "<D>", url: "/de/", current: false },
    ],
    frame: (ref) => {
      const compiled = frames.get(ref);
      return compiled ? { slug: ref, compiled } : undefined;
    },
    media: (ref) =>
      ref === "hero"
        ? {
            url: '/m/"a"&<b>.png',
            alt: "<'\">",
            width: 3000,
            height: 1,
            image: true,
            variants: [{ url: "/m/v 320w", width: 320 }],
          }
        : ref === "7"
          ? { url: "/m/doc.pdf", alt: "", width: null, height: null, image: false, variants: [] }
          : undefined,
    style: (name) => (name === "main" ? '/styles/"main"&<.css' : undefined),
    seo: () => ({
      title: "</title><script>t</script>",
      description: '<d>&"',
      canonical: 'http://x/"<>',
      alternates: [{ hreflang: 'e"n', href: "/<a>" }],
      ogTitle: "<o>",
      ogType: "article",
      image: '/i".png',
      siteName: "<s>",
      locale: "en",
      twitterSite: "@x",
      noindex: true,
      jsonLd: { name: "</script><script>alert(1)</script>\u2028" },
    }),
    sidebar: (name) =>
      name === "docs"
        ? [
            {
              label: "<S>",
              url: null,
              current: false,
              open: true,
              items: [{ label: "P&", url: '/p"', current: true, open: false, items: [] }],
            },
          ]
        : undefined,
    pager: (name) => (name === "docs" ? { prev: { label: "<prev>", url: "/a" }, next: null } : undefined),
    headings: () => [
      { level: 2, id: 'a"b', text: "<A>" },
      { level: 3, id: "c", text: "C" },
      { level: 2, id: "d", text: "D" },
    ],
    current: () => ({ id: 3, urls: ["/y"] }),
  };
}

test("compile, analysis and render never throw on random or broken markup, and the report is well formed", () => {
  fc.assert(
    fc.property(anyMarkup, (markup) => {
      const compiled = compileFrame(markup);
      assert.equal(compiled.html, markup);
      const a = compiled.analysis;
      assert.equal(
        a.inserts_total,
        Object.values(a.inserts).reduce((x, y) => x + y, 0),
      );
      for (const w of a.warnings) {
        assert.equal(typeof w.code, "string");
        assert.ok(w.at >= 0 && w.at <= markup.length, `${w.code} at ${w.at}`);
      }
      // A frame that embeds itself under the slug "self" exercises the cycle guard.
      const result = renderFrame(compiled, fuzzContext(new Map([["self", compiled]])), { slug: "page" });
      assert.equal(typeof result.html, "string");
      assert.deepEqual(result.unresolved, [...new Set(result.unresolved)].sort());
    }),
    { numRuns: 3000 },
  );
});

test("a frame with no inserts and no binds renders to exactly its input (no byte lost)", () => {
  const plain = fc
    .array(
      fc.oneof(
        fc.constantFrom(...FRAGMENTS.filter((f) => !/svc\/|op\/|data-op-bind/.test(f))),
        fc.string({ unit: "binary", maxLength: 8 }),
      ),
      { maxLength: 60 },
    )
    .map((p) => p.join(""));
  fc.assert(
    fc.property(fc.oneof(plain, anyMarkup), (markup) => {
      const compiled = compileFrame(markup);
      if (compiled.analysis.inserts_total !== 0 || compiled.analysis.binds !== 0) return; // only the plain ones
      const result = renderFrame(compiled, fuzzContext(new Map()));
      assert.equal(result.html, markup);
      assert.equal(result.blocks, 0);
    }),
    { numRuns: 3000 },
  );
});

test("rewriteFrameRefs returns markup without matching references unchanged", () => {
  fc.assert(
    fc.property(anyMarkup, (markup) => {
      const none = rewriteFrameRefs(markup, () => false, "new-slug");
      assert.equal(none.html, markup);
      assert.equal(none.replaced, 0);
      const refs = compileFrame(markup).analysis.frame_refs.some((r) => r.keys.length > 0);
      const all = rewriteFrameRefs(markup, () => true, "new-slug");
      if (!refs) {
        assert.equal(all.html, markup);
        assert.equal(all.replaced, 0);
      }
    }),
    { numRuns: 3000 },
  );
});

test("rewriteFrameRefs on random markup points every matched reference at the new slug and changes nothing else", () => {
  const refKey = fc.constantFrom("name", "ref", "frame", "slug", "id", "class");
  const refValue = fc.constantFrom('"old"', '"other"', "12", '"ol\\u0064"');
  const insert = fc
    .tuple(
      fc.constantFrom("svc/frame", "svc/partial", "svc/menu"),
      fc.uniqueArray(fc.tuple(refKey, refValue), { selector: (p) => p[0], maxLength: 4 }),
      fc.constantFrom("", " ", "\n  "),
    )
    .map(
      ([name, members, sp]) =>
        `<!-- ${name} {${sp}${members.map(([k, v]) => `"${k}":${sp}${v}`).join(`,${sp}`)}${sp}} /-->`,
    );
  const doc = fc.array(fc.oneof(insert, fc.constantFrom(...FRAGMENTS)), { maxLength: 20 }).map((p) => p.join(""));
  const isOld = (v: string): boolean => v === "old" || v === "12";
  fc.assert(
    fc.property(doc, (markup) => {
      const before = compileFrame(markup).analysis;
      const { html, replaced } = rewriteFrameRefs(markup, isOld, "new-slug");
      const after = compileFrame(html).analysis;
      assert.equal(after.frame_refs.length, before.frame_refs.length);
      assert.deepEqual(after.inserts, before.inserts);
      let expected = 0;
      before.frame_refs.forEach((ref, i) => {
        const keys = after.frame_refs[i]!.keys;
        assert.equal(keys.length, ref.keys.length);
        const hadName = ref.keys.some(([k]) => k === "name");
        ref.keys.forEach(([key, value], j) => {
          const [newKey, newValue] = keys[j]!;
          if (isOld(value)) {
            expected++;
            assert.equal(newValue, "new-slug");
            if (hadName) assert.equal(newKey, key);
          } else {
            assert.deepEqual([newKey, newValue], [key, value]);
          }
        });
        if (!hadName && ref.keys.some(([, v]) => isOld(v))) assert.ok(keys.some(([k]) => k === "name"));
      });
      assert.equal(replaced, expected);
    }),
    { numRuns: 2000 },
  );
});
