// The allowlist sanitiser of what editors write (src/markup/sanitize.ts, docs/roles.md): for any
// string mixing the pieces script is made of, what comes out holds no `<script`, no `<style`, no
// iframe of a host not allowed, no attribute whose name starts with `on`, and no URL attribute a
// browser would read as `javascript:` or `vbscript:` — read back with the same parser, with
// entities decoded. Then what each kind of removal reports, and the iframe hosts.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Parser } from "htmlparser2";
import { holdsMarkup, htmlSanitizer, isScriptUrl } from "../../src/markup/sanitize.ts";

const PIECES = [
  "<script>",
  "</script>",
  "<SCRIPT src=x>",
  "<scr",
  "ipt>",
  "<a ",
  "href=",
  '"javascript:alert(1)"',
  "java\tscript:",
  "javascript:",
  "JaVaScRiPt:",
  "&#106;avascript:",
  "&#x6A;",
  "vbscript:",
  " onclick=",
  " ONerror=",
  "onload",
  "<img src=x ",
  "<iframe src=",
  "https://evil.example/",
  "https://video.example/embed",
  "<svg>",
  "<math>",
  "<style>",
  "</style>",
  "<!--",
  "-->",
  "<p>",
  "</p>",
  "<",
  ">",
  '"',
  "'",
  "=",
  "/",
  " ",
  "\n",
  "\u0000",
  "x",
];

const mixed = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.string() }), {
    maxLength: 40,
  })
  .map((pieces) => pieces.join(""));

/** A URL a browser runs as script: its ASCII white space and control characters ignored, in any case. */
function runsScript(value: string): boolean {
  return /^(javascript|vbscript):/.test(value.replace(/[\x00-\x20]/g, "").toLowerCase());
}

/** Every element and attribute of `html`, as the parser reads it (entities decoded). */
function parsed(html: string): Array<{ tag: string; attributes: Record<string, string> }> {
  const out: Array<{ tag: string; attributes: Record<string, string> }> = [];
  const parser = new Parser({ onopentag: (tag, attributes) => out.push({ tag, attributes }) });
  parser.write(html);
  parser.end();
  return out;
}

describe("the sanitiser of what editors write", () => {
  it("for any string mixing script's pieces: no <script, <style, foreign iframe, on… attribute or script URL comes out", async () => {
    const sanitize = await htmlSanitizer({ iframeHosts: ["video.example"] });
    fc.assert(
      fc.property(mixed, (input) => {
        const { html } = sanitize(input);
        assert.ok(!/<script/i.test(html), html);
        assert.ok(!/<style/i.test(html), html);
        for (const { tag, attributes } of parsed(html)) {
          assert.ok(!["script", "style", "svg", "math"].includes(tag), `${tag} in ${html}`);
          for (const [name, value] of Object.entries(attributes)) {
            assert.ok(!/^on/i.test(name), `${name} in ${html}`);
            assert.ok(!runsScript(value), `${name}="${value}" in ${html}`);
          }
          if (tag === "iframe") assert.equal(new URL(attributes.src).hostname, "video.example", html);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("what it gives back passes it again with nothing removed (the HTML may be re-nested, `<p><p>` closed)", async () => {
    const sanitize = await htmlSanitizer({ iframeHosts: [] });
    fc.assert(
      fc.property(mixed, (input) => {
        const once = sanitize(input).html;
        assert.deepEqual(sanitize(once).removed, [], `${input} → ${once}`);
      }),
      { numRuns: 1000 },
    );
  });

  it("reports each kind it removed", async () => {
    const sanitize = await htmlSanitizer({ iframeHosts: ["www.youtube-nocookie.com"] });
    const cases: Array<[string, string, string[]]> = [
      [
        "<p>plain <b>bold</b> &amp; <a href='/x' title='t'>link</a></p>",
        '<p>plain <b>bold</b> &amp; <a href="/x" title="t">link</a></p>',
        [],
      ],
      ['<p onclick="x()">a</p><script>alert(1)</script>', "<p>a</p>", ["event_handler", "script"]],
      ['<a href=" jav&#x09;ascript:alert(1)">l</a>', "<a>l</a>", ["javascript_url"]],
      ['<a href="data:text/html,x">d</a>', "<a>d</a>", ["url"]],
      ['<p style="color:red">s</p><style>p{}</style>', "<p>s</p>", ["attribute", "style"]],
      ['<iframe src="https://evil.example/"></iframe>', "", ["iframe"]],
      [
        '<iframe src="https://www.youtube-nocookie.com/embed/1" title="Video"></iframe>',
        '<iframe src="https://www.youtube-nocookie.com/embed/1" title="Video"></iframe>',
        [],
      ],
      ["<object data='x.swf'>fallback</object>", "fallback", ["element"]],
      ["<!-- note --><p>x</p>", "<p>x</p>", ["comment"]],
    ];
    for (const [input, html, removed] of cases) assert.deepEqual(sanitize(input), { html, removed }, input);
  });

  it("counts as HTML a string with a tag, a comment or a doctype; a script URL is one in any spelling a browser runs", () => {
    for (const text of ["<b>x</b>", "a</p>", "<!-- c -->", "<!doctype html>", "<?xml?>"]) assert.ok(holdsMarkup(text));
    for (const text of ["a < b", "1<2", "<3 you", "plain", "x > y"]) assert.ok(!holdsMarkup(text), text);
    for (const url of ["javascript:x", " JavaScript:x", "java\nscript:x", "\u0001vbscript:x"])
      assert.ok(isScriptUrl(url));
    for (const url of ["https://x/javascript:", "/javascript:x", "mailto:a@b", "data:image/png;base64,AA"])
      assert.ok(!isScriptUrl(url), url);
  });
});
