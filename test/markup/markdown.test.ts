// The Markdown renderer (src/markup/markdown.ts): the references a source makes, `media:` images
// printed as svc/image prints them (srcset, sizes, width, height), and, for any source, a render
// that never throws and, through the sanitiser as an editor's is printed, never carries script.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Parser } from "htmlparser2";
import { markdown, type MarkdownLinks } from "../../src/markup/markdown.ts";
import { htmlSanitizer } from "../../src/markup/sanitize.ts";
import type { MediaView } from "../../src/markup/types.ts";

const PHOTO: MediaView = {
  url: "/media/ab/photo.jpg",
  alt: "A photo",
  width: 1800,
  height: 1200,
  image: true,
  variants: [
    { url: "/media/ab/photo-320.webp", width: 320 },
    { url: "/media/ab/photo-1600.webp", width: 1600 },
  ],
};
const PDF: MediaView = { url: "/media/cd/report.pdf", alt: "", width: null, height: null, image: false, variants: [] };

const LINKS: MarkdownLinks = {
  page: (ref) => (ref === "about" || ref === "/company/team" ? `https://site.test/${ref.replace(/^\//, "")}/` : null),
  media: (ref) => (ref === "photo" || ref === "7" ? PHOTO : ref === "report" ? PDF : null),
};

describe("Markdown: references and what they print", () => {
  it("lists each page: and media: reference once, inline, by reference definition and as an image", async () => {
    const md = await markdown();
    const refs = md.refs(
      "[a](page:about) [b](page:about) [c][team] ![p](media:photo) [r](media:report) [w](https://x.test/)\n\n[team]: page:/company/team",
    );
    assert.deepEqual(refs, { pages: ["about", "/company/team"], media: ["photo", "report"] });
  });

  it("a media: image prints as svc/image: src, srcset of the variants and the original, sizes, width, height, alt", async () => {
    const md = await markdown();
    assert.equal(
      md.html("![](media:photo)", LINKS),
      '<p><img src="/media/ab/photo.jpg" srcset="/media/ab/photo-320.webp 320w, /media/ab/photo-1600.webp 1600w, /media/ab/photo.jpg 1800w" sizes="(max-width: 1800px) 100vw, 1800px" width="1800" height="1200" alt="A photo" decoding="async"></p>\n',
    );
    assert.match(md.html('![Our "team" & us](media:7)', LINKS), /alt="Our &quot;team&quot; &amp; us"/);
  });

  it("what names nothing printable: a link's text alone, an image nothing; a media: link goes to the file", async () => {
    const md = await markdown();
    assert.equal(
      md.html(
        "[gone](page:gone) [team](page:/company/team) ![x](media:none) ![pdf](media:report) [pdf](media:report)",
        LINKS,
      ),
      '<p>gone <a href="https://site.test/company/team/">team</a>   <a href="/media/cd/report.pdf">pdf</a></p>\n',
    );
  });
});

/** Pieces Markdown and script are made of. */
const PIECES = [
  "<script>",
  "</script>",
  "<img src=x onerror=alert(1)>",
  "<a href='javascript:alert(1)'>",
  "[x](javascript:alert(1))",
  "<javascript:alert(1)>",
  "![i](data:text/html,<script>)",
  "<![CDATA[",
  "]]>",
  "<!--",
  "-->",
  "<style>",
  "<svg onload=alert(1)>",
  "<iframe src=https://evil.example/>",
  "[p](page:about)",
  "![m](media:photo)",
  "| a | b |\n|---|---|\n",
  "- [x] ",
  "~~",
  "**",
  "`",
  "```\n",
  "# ",
  "> ",
  "\n\n",
  "\n",
  "    ",
  "<",
  ">",
  '"',
  "'",
  "=",
  "www.example.com ",
  "https://x.test/a?b=<c> ",
];

const source = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.string() }), {
    maxLength: 40,
  })
  .map((pieces) => pieces.join(""));

/** Every element and attribute as a parser reads the HTML (entities decoded). */
function parsed(html: string): Array<{ tag: string; attributes: Record<string, string> }> {
  const out: Array<{ tag: string; attributes: Record<string, string> }> = [];
  const parser = new Parser({ onopentag: (tag, attributes) => out.push({ tag, attributes }) });
  parser.write(html);
  parser.end();
  return out;
}

describe("Markdown: any source", () => {
  it("renders without throwing, and printed as an editor's holds no script, event handler or script URL", async () => {
    const md = await markdown();
    const sanitize = await htmlSanitizer({ iframeHosts: [] });
    fc.assert(
      fc.property(source, (text) => {
        const printed = sanitize(md.html(text, LINKS)).html;
        assert.ok(!/<script|<style|<iframe/i.test(printed), printed);
        for (const { tag, attributes } of parsed(printed)) {
          assert.notEqual(tag, "script");
          for (const [name, value] of Object.entries(attributes)) {
            assert.ok(!/^on/i.test(name), `${tag} ${name}: ${printed}`);
            assert.ok(!/^\s*(javascript|vbscript|data):/i.test(value), `${tag} ${name}=${value}: ${printed}`);
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});
