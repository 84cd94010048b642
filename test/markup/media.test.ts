// Properties of the media grammar (docs/markup.md, "Media"): svc/image and the media.<ref>.*
// tokens, for any reference, parameter values and file. The output is read back with a real
// HTML parser (htmlparser2, entities decoded as a browser does), so an escaping mistake shows up
// as an attribute that differs from what was given, or as a second element.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Parser } from "htmlparser2";
import { classifyToken, compileFrame, mediaToken, renderFrame } from "../../src/markup/index.ts";
import type { MediaView } from "../../src/markup/index.ts";
import { fixtureContext } from "./fixture-context.ts";

/** Text that cannot end the insert's comment early (`-->`, `--!>`): an HTML comment rule, not ours. */
const commentSafe = (max: number) => fc.string({ unit: "grapheme", maxLength: max }).filter((s) => !s.includes("--"));
const awkward = fc.oneof(
  commentSafe(24),
  fc.constantFrom(`"`, `'`, "<b>", "&amp;", "a&b", "&#0;", " ", "\u00a0", "日本", "😀"),
);
/** A ref: an id, a slug, or anything else a person may write (dots, spaces, quotes). */
const ref = fc.oneof(
  fc.integer({ min: 1, max: 1e6 }).map(String),
  fc.stringMatching(/^[a-z0-9-]{1,12}$/),
  fc.stringMatching(/^[a-z]{1,4}\.[a-z]{1,4}$/),
  awkward,
);
const url = fc.oneof(
  fc.constantFrom("/media/0123456789abcdef/a.png", '/m/"q".png', "/m/a b&c<d>.png"),
  commentSafe(20).map((s) => `/m/${s}`),
);
const media: fc.Arbitrary<MediaView> = fc
  .record({
    url,
    alt: awkward,
    width: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: null }),
    height: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: null }),
    variants: fc.uniqueArray(fc.record({ url, width: fc.integer({ min: 1, max: 4000 }) }), {
      selector: (v) => v.width,
      maxLength: 5,
    }),
  })
  .map((m) => ({ ...m, image: true, variants: [...m.variants].sort((a, b) => a.width - b.width) }));
const params = fc.record(
  {
    sizes: awkward,
    width: fc.integer({ min: 1, max: 5000 }),
    class: awkward,
    loading: fc.oneof(fc.constantFrom("lazy", "eager"), awkward),
  },
  { requiredKeys: [] },
);

/** Every element of the output with its attributes, entities decoded. */
function elements(html: string): Array<{ name: string; attrs: Record<string, string> }> {
  const found: Array<{ name: string; attrs: Record<string, string> }> = [];
  const parser = new Parser({ onopentag: (name, attrs) => found.push({ name, attrs }) }, { decodeEntities: true });
  parser.end(html);
  return found;
}

test("svc/image prints one <img> whose attributes read back as the file and params given, whatever they hold, sizes always beside srcset", () => {
  fc.assert(
    fc.property(ref, media, params, (r, file, p) => {
      const written = r.trim();
      fc.pre(written !== "");
      const markup = `<p><!-- svc/image ${JSON.stringify({ media: r, ...p })} /--></p>`;
      const compiled = compileFrame(markup);
      const sized = (p.sizes !== undefined && p.sizes.trim() !== "") || p.width !== undefined;
      assert.deepEqual(
        compiled.analysis.warnings.map((w) => w.code),
        sized ? [] : ["image_sizes_missing"],
      );
      assert.deepEqual(compiled.analysis.sources, [`media.${written}`]);
      const result = renderFrame(compiled, fixtureContext({ media: { [written]: file } }));
      assert.deepEqual(result.warnings, []);
      const els = elements(result.html);
      assert.deepEqual(
        els.map((e) => e.name),
        ["p", "img"],
      );
      const img = els[1]!.attrs;
      const widest = file.variants.at(-1)?.width ?? 0;
      const candidates = file.variants.map((v) => `${v.url} ${v.width}w`);
      if (file.width !== null && file.variants.length > 0 && file.width > widest)
        candidates.push(`${file.url} ${file.width}w`);
      const expected: Record<string, string> = { src: file.url };
      if (candidates.length > 0) {
        expected.srcset = candidates.join(", ");
        // The sizes given, else the width shown's, else the whole window (warned above).
        expected.sizes =
          p.sizes !== undefined && p.sizes.trim() !== ""
            ? p.sizes
            : p.width !== undefined
              ? `(max-width: ${p.width}px) 100vw, ${p.width}px`
              : "100vw";
      }
      if (p.width !== undefined) {
        // Shown at that width, the height at the original's ratio (when both are known).
        expected.width = String(p.width);
        if (file.width !== null && file.height !== null)
          expected.height = String(Math.max(1, Math.round((file.height * p.width) / file.width)));
      } else {
        if (file.width !== null) expected.width = String(file.width);
        if (file.height !== null) expected.height = String(file.height);
      }
      expected.alt = file.alt;
      if (p.class !== undefined) expected.class = p.class;
      if (p.loading !== undefined) expected.loading = p.loading;
      expected.decoding = "async";
      assert.deepEqual(img, expected);
      assert.deepEqual(Object.keys(img), Object.keys(expected), "attributes in their one order");
    }),
    { numRuns: 1500 },
  );
});

test("svc/image of a ref the site has no file for prints only its markers, with media_not_found at the insert", () => {
  fc.assert(
    fc.property(ref, fc.string({ maxLength: 10 }), (r, before) => {
      const written = r.trim();
      fc.pre(written !== "" && !before.includes("<"));
      const markup = `${before}<!-- svc/image ${JSON.stringify({ media: r })} /-->`;
      const result = renderFrame(compileFrame(markup), fixtureContext({ media: {} }));
      assert.equal(result.html, `${before}<!-- op/image ${JSON.stringify({ media: r })} --><!-- /op/image -->`);
      assert.deepEqual(
        result.warnings.map((w) => [w.code, w.at]),
        [["media_not_found", before.length]],
      );
    }),
    { numRuns: 500 },
  );
});

test("media.<ref>.<field> is a token of source media.<ref> for every ref and the four fields, the ref being everything before the last dot; nothing else under media. is", () => {
  const field = fc.constantFrom("url", "alt", "width", "height");
  // Not `{`: a bind value holding one is a template (docs/markup.md, "Templates and filters").
  const segment = fc.stringMatching(/^[^.{]{1,8}$/);
  fc.assert(
    fc.property(fc.array(segment, { minLength: 1, maxLength: 3 }), field, (segments, f) => {
      const r = segments.join(".");
      const token = `media.${r}.${f}`;
      assert.deepEqual(classifyToken(token), { source: `media.${r}`, valid: true });
      assert.deepEqual(mediaToken(token), { ref: r, field: f });
      const markup = `<b data-op-bind='${JSON.stringify({ title: token }).replace(/&/g, "&amp;").replace(/'/g, "&#39;")}'></b>`;
      assert.deepEqual(compileFrame(markup).analysis.sources, [`media.${r}`]);
    }),
    { numRuns: 1000 },
  );
  fc.assert(
    fc.property(fc.string({ maxLength: 20 }), (tail) => {
      const token = `media.${tail}`;
      const parts = mediaToken(token);
      const info = classifyToken(token);
      assert.equal(info.valid, parts !== undefined);
      if (parts === undefined) assert.equal(info.source, null);
      else
        assert.ok(
          ["url", "alt", "width", "height"].includes(parts.field) &&
            parts.ref !== "" &&
            `media.${parts.ref}.${parts.field}` === token,
        );
    }),
    { numRuns: 1000 },
  );
});
