// Templating (docs/markup.md) in the pure markup module: layouts with slots and blocks (nested,
// the block nearest the page winning, default content), conditions, bind templates with filters,
// the active menu state (at once for a page, by markers for a bake), and the warnings that say
// what prints nothing, each with its line and column. Property: any nesting of layouts, blocks,
// ifs and repeats compiles and renders or warns, and never throws.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { applyMarks, compileFrame, renderFrame } from "../../src/markup/index.ts";
import { fixtureContext, type FixtureContext } from "./fixture-context.ts";

const render = (markup: string, data: FixtureContext = {}) => renderFrame(compileFrame(markup), fixtureContext(data));
const codes = (markup: string) => compileFrame(markup).analysis.warnings.map((w) => `${w.code}@${w.line}:${w.column}`);

describe("layouts", () => {
  const frames = {
    base: `<html><head><!-- svc/slot {"name": "head"} --><title>Default</title><!-- /svc/slot --></head><body><!-- svc/slot /--><footer><!-- svc/slot {"name": "footer"} -->© base<!-- /svc/slot --></footer></body></html>`,
    docs: `<!-- svc/layout {"name": "base"} /--><!-- svc/block {"name": "footer"} -->© docs<!-- /svc/block --><nav>docs nav</nav><article><!-- svc/slot /--></article>`,
  };

  it("a frame on a layout is printed at the layout's main slot, its blocks at the named slots; slots nothing fills print their default content", () => {
    const out = render(
      `<!-- svc/layout {"name": "base"} /--><!-- svc/block {"name": "head"} --><title>Page</title><!-- /svc/block --><p>page body</p>`,
      { frames },
    );
    assert.equal(
      out.html,
      `<html><head><title>Page</title></head><body><p>page body</p><footer>© base</footer></body></html>`,
    );
    assert.deepEqual(out.frames, ["base"]);
  });

  it("layouts nest: blocks fill named slots all up the chain, the block nearest the page's frame winning; the main slots nest inside one another", () => {
    const mid = render(`<!-- svc/layout {"name": "docs"} /--><p>intro</p>`, { frames });
    assert.equal(
      mid.html,
      `<html><head><title>Default</title></head><body><nav>docs nav</nav><article><p>intro</p></article><footer>© docs</footer></body></html>`,
    );
    const near = render(
      `<!-- svc/layout {"name": "docs"} /--><!-- svc/block {"name": "footer"} -->© page<!-- /svc/block --><!-- svc/block {"name": "head"} --><title>Deep</title><!-- /svc/block -->x`,
      { frames },
    );
    assert.equal(
      near.html,
      `<html><head><title>Deep</title></head><body><nav>docs nav</nav><article>x</article><footer>© page</footer></body></html>`,
    );
    assert.deepEqual(near.frames, ["base", "docs"]);
  });

  it("the layout is a frame reference of the frame: frame_refs and analysis.layout name it; slots and blocks are listed; a missing layout prints the frame's own markup and is missing", () => {
    const a = compileFrame(
      `<!-- svc/layout {"name": "base"} /--><!-- svc/block {"name": "head"} -->h<!-- /svc/block -->body`,
    ).analysis;
    assert.deepEqual(
      a.frame_refs.map((r) => [r.insert, r.keys]),
      [["svc/layout", [["name", "base"]]]],
    );
    assert.equal(a.layout, "base");
    assert.deepEqual(
      a.blocks.map((b) => b.name),
      ["head"],
    );
    assert.deepEqual(
      compileFrame(frames.base).analysis.slots.map((s) => [s.name, s.defaults]),
      [
        ["head", true],
        ["", false],
        ["footer", true],
      ],
    );
    const missing = render(`<!-- svc/layout {"name": "gone"} /--><p>own</p>`, {});
    assert.equal(missing.html, "<p>own</p>");
    assert.deepEqual(missing.frames_missing, ["gone"]);
  });

  it("a layout chain that leads back to the frame is cut with a warning, never a loop", () => {
    const out = render(`<!-- svc/layout {"name": "a"} /-->x`, {
      frames: {
        a: `<!-- svc/layout {"name": "b"} /-->A<!-- svc/slot /-->`,
        b: `<!-- svc/layout {"name": "a"} /-->B<!-- svc/slot /-->`,
      },
    });
    assert.ok(
      out.warnings.some((w) => w.code === "frame_cycle"),
      JSON.stringify(out.warnings),
    );
    assert.equal(out.html, "BAx");
  });
});

describe("conditions", () => {
  it("svc/if prints its first branch when the token has a non-empty value, else the branch after svc/else; equals compares string forms; not inverts", () => {
    const markup =
      `<!-- svc/if {"when": "page.fields.hero"} -->[hero]<!-- svc/else /-->[plain]<!-- /svc/if -->` +
      `<!-- svc/if {"when": "page.fields.n", "equals": 3} -->[three]<!-- /svc/if -->` +
      `<!-- svc/if {"when": "page.fields.hero", "not": true} -->[no hero]<!-- /svc/if -->`;
    assert.equal(render(markup, { values: { "page.fields.hero": "Big", "page.fields.n": "3" } }).html, "[hero][three]");
    assert.equal(render(markup, { values: { "page.fields.hero": "", "page.fields.n": 4 } }).html, "[plain][no hero]");
    assert.equal(render(markup, {}).unresolved.length, 0, "a condition on a missing value is no unresolved token");
  });

  it("ifs and repeats nest either way; item tokens work inside", () => {
    const markup =
      `<ul><!-- svc/repeat {"source": "data.team"} --><!-- svc/if {"when": "item.email"} --><li data-op-bind='{"text": "item.name"}'></li><!-- /svc/if --><!-- /svc/repeat --></ul>` +
      `<!-- svc/if {"when": "site.name"} --><!-- svc/repeat {"source": "data.team", "limit": 1} -->[<!-- svc/if {"when": "item.email", "not": true} -->no mail<!-- svc/else /-->mail<!-- /svc/if -->]<!-- /svc/repeat --><!-- /svc/if -->`;
    const out = render(markup, {
      items: { "data.team": [{ name: "Ann", email: "a@x" }, { name: "Bo" }] },
      values: { "site.name": "S" },
    });
    assert.equal(
      out.html,
      `<ul><!-- op/repeat {"source": "data.team"} --><li>Ann</li><!-- /op/repeat --></ul><!-- op/repeat {"source": "data.team", "limit": 1} -->[mail]<!-- /op/repeat -->`,
    );
  });
});

describe("bind templates", () => {
  const values = {
    "page.title": "Über uns",
    "site.name": "Acme",
    "site.lang": "de",
    "page.updated_at": "2024-03-05 10:00:00",
    "page.fields.price": 1234.5,
    "page.fields.tags": ["a", "b"],
  };

  it("text and tokens: mailto:{item.email}, {page.title} — {site.name}; text around kept, each value escaped where it lands", () => {
    const out = render(
      `<ul><!-- svc/repeat {"source": "data.team"} --><a data-op-bind='{"href": "mailto:{item.email}", "text": "{item.name} <{item.email}>"}'></a><!-- /svc/repeat --></ul><title data-op-bind='{"text": "{page.title} — {site.name}"}'></title>`,
      { values, items: { "data.team": [{ name: "Ann & Bo", email: "ann@x.org" }] } },
    );
    assert.match(out.html, /<a href="mailto:ann@x\.org">Ann &amp; Bo &lt;ann@x\.org&gt;<\/a>/);
    assert.match(out.html, /<title>Über uns — Acme<\/title>/);
  });

  it("date in the page's language, in UTC: 2024-03-05 long is 5. März 2024 in German and March 5, 2024 in English; medium 05.03.2024 and Mar 5, 2024", () => {
    const markup = `<i data-op-bind='{"text": "{page.updated_at | date:\\"long\\"}"}'></i><b data-op-bind='{"text": "{page.updated_at | date}"}'></b>`;
    assert.equal(render(markup, { values }).html, "<i>5. März 2024</i><b>05.03.2024</b>");
    assert.equal(
      render(markup, { values: { ...values, "site.lang": "en" } }).html,
      "<i>March 5, 2024</i><b>Mar 5, 2024</b>",
    );
    assert.equal(
      render(markup, { values: { ...values, "site.lang": null } }).html,
      "<i>March 5, 2024</i><b>Mar 5, 2024</b>",
      "no language: English",
    );
  });

  it("number (number:n exact decimals), upper, lower, truncate:n, default, url, json; filters apply left to right", () => {
    const t = (expr: string, lang = "de") =>
      render(`<i data-op-bind='{"text": "${expr.replace(/"/g, '\\"')}"}'></i>`, {
        values: { ...values, "site.lang": lang },
      }).html.slice(3, -4);
    assert.equal(t("{page.fields.price | number}", "en"), "1,234.5");
    assert.equal(t("{page.fields.price | number}"), "1.234,5");
    assert.equal(t("{page.fields.price | number:2}", "en"), "1,234.50");
    assert.equal(t("{page.fields.price | number:2}"), "1.234,50");
    assert.equal(t("{site.name | upper}"), "ACME");
    assert.equal(t("{page.title | lower | truncate:3}"), "übe…");
    assert.equal(t('{page.fields.nothing | default:"n/a"}'), "n/a");
    assert.equal(t("{page.title | url}"), "%C3%9Cber%20uns");
    assert.equal(t("{page.fields.tags | json}"), `[&quot;a&quot;,&quot;b&quot;]`);
  });

  it("a token with no value prints nothing in its place and is unresolved; an unknown filter is a warning and left out", () => {
    const out = render(`<a data-op-bind='{"href": "mailto:{item.email}"}'></a>`, {});
    assert.equal(out.html, `<a href="mailto:"></a>`);
    assert.deepEqual(out.unresolved, ["item.email"]);
    assert.deepEqual(
      compileFrame(`<i data-op-bind='{"text": "{site.name | shout}"}'></i>`).analysis.warnings.map((w) => w.code),
      ["unknown_filter"],
    );
  });
});

describe("active menu state", () => {
  const menus = {
    header: [
      { title: "Home", url: "http://x/", page: 1, valid: true, children: [] },
      {
        title: "Docs",
        url: "http://x/docs/",
        page: 2,
        valid: true,
        children: [{ title: "Intro", url: "http://x/docs/intro/", page: 3, valid: true, children: [] }],
      },
    ],
  };
  const markup = `<!-- svc/menu {"location": "header"} /-->`;

  it("for a page: aria-current and is-current on its item, is-ancestor on each item above it", () => {
    const out = render(markup, { menus, current: { id: 3, urls: ["http://x/docs/intro/"] } }).html;
    assert.match(
      out,
      /<li><a href="http:\/\/x\/">Home<\/a><\/li><li class="is-ancestor"><a href="http:\/\/x\/docs\/">Docs<\/a><ul><li class="is-current"><a href="http:\/\/x\/docs\/intro\/" aria-current="page">Intro<\/a><\/li><\/ul><\/li>/,
    );
    assert.match(
      render(markup, { menus, current: { id: 99, urls: ["http://x/"] } }).html,
      /<li class="is-current"><a href="http:\/\/x\/" aria-current="page">Home/,
      "a link to the page's address marks it too",
    );
  });

  it("for a bake: markers that each page's copy turns into its own marks, the same output a page render gives; none left without a page", () => {
    const baked = renderFrame(compileFrame(markup), fixtureContext({ menus, current: null }));
    assert.ok(baked.marks.length === 3);
    for (const current of [
      { id: 3, urls: ["http://x/docs/intro/"] },
      { id: 1, urls: ["http://x/"] },
      { id: 7, urls: ["http://x/other/"] },
    ]) {
      assert.equal(applyMarks(baked.html, baked.marks, current), render(markup, { menus, current }).html);
    }
    assert.equal(
      applyMarks(baked.html, baked.marks, null),
      render(markup, { menus, current: { id: null, urls: [] } }).html,
    );
    assert.doesNotMatch(applyMarks(baked.html, baked.marks, null), /[\uE000\uE001]/);
  });
});

describe("current-ancestor: the items of the page's ancestors in the page tree", () => {
  // A news article (id 5, under News, id 2, under Company, id 9) that the menu does not list.
  const menus = {
    header: [
      { title: "Home", url: "http://x/", page: 1, valid: true, children: [] },
      { title: "News", url: "http://x/company/news/", page: 2, valid: true, children: [] },
      { title: "Company", url: "http://x/company/", page: null, valid: true, children: [] },
      {
        title: "More",
        url: "http://x/more/",
        page: 4,
        valid: true,
        classes: "extra",
        children: [{ title: "Article", url: "http://x/company/news/a/", page: 5, valid: true, children: [] }],
      },
    ],
  };
  const article = {
    id: 5,
    urls: ["http://x/company/news/a/"],
    ancestors: [
      { id: 2, urls: ["http://x/company/news/"] },
      { id: 9, urls: ["http://x/company/"] },
    ],
  };
  const markup = `<!-- svc/menu {"location": "header"} /-->`;

  it("an item for an ancestor (by page, or a link to its address) gets current-ancestor; is-current and is-ancestor stay as they were, beside the item's own classes", () => {
    const out = render(markup, { menus, current: article }).html;
    assert.equal(
      out,
      '<!-- op/menu {"location": "header"} --><ul><li><a href="http://x/">Home</a></li>' +
        '<li class="current-ancestor"><a href="http://x/company/news/">News</a></li>' +
        '<li class="current-ancestor"><a href="http://x/company/">Company</a></li>' +
        '<li class="extra is-ancestor"><a href="http://x/more/">More</a>' +
        '<ul><li class="is-current"><a href="http://x/company/news/a/" aria-current="page">Article</a></li></ul></li></ul>' +
        "<!-- /op/menu -->",
    );
    // News itself shown: its own item is current, not its own ancestor; Company stays an ancestor.
    const news = { id: 2, urls: ["http://x/company/news/"], ancestors: [{ id: 9, urls: ["http://x/company/"] }] };
    assert.match(
      render(markup, { menus, current: news }).html,
      /<li class="is-current"><a href="http:\/\/x\/company\/news\/" aria-current="page">News/,
    );
    assert.match(
      render(markup, { menus, current: news }).html,
      /<li class="current-ancestor"><a href="http:\/\/x\/company\/">Company/,
    );
    // Without ancestors (a page at the top), nothing is an ancestor.
    assert.doesNotMatch(
      render(markup, { menus, current: { id: 4, urls: ["http://x/more/"] } }).html,
      /current-ancestor/,
    );
  });

  it("a bake's markers give each page's copy the same marks as a page render, ancestors included", () => {
    const baked = renderFrame(compileFrame(markup), fixtureContext({ menus, current: null }));
    for (const current of [article, { id: 2, urls: ["http://x/company/news/"], ancestors: [{ id: 9, urls: [] }] }])
      assert.equal(applyMarks(baked.html, baked.marks, current), render(markup, { menus, current }).html);
  });

  it("svc/sidebar: the item of an ancestor of the page shown carries class current-ancestor on its <li>", () => {
    const sidebars = {
      docs: {
        nodes: [
          {
            label: "Guide",
            url: "http://x/guide/",
            current: false,
            ancestor: true,
            open: true,
            items: [{ label: "Install", url: "http://x/guide/install/", current: true, open: false, items: [] }],
          },
          { label: "API", url: "http://x/api/", current: false, open: false, items: [] },
        ],
        pager: { prev: null, next: null },
      },
    };
    assert.equal(
      render(`<!-- svc/sidebar {"name": "docs"} /-->`, { sidebars, current: article }).html,
      '<!-- op/sidebar {"name": "docs"} --><nav class="sidebar"><ul><li class="current-ancestor"><details open><summary><a href="http://x/guide/">Guide</a></summary>' +
        '<ul><li><a href="http://x/guide/install/" aria-current="page">Install</a></li></ul></details></li>' +
        '<li><a href="http://x/api/">API</a></li></ul></nav><!-- /op/sidebar -->',
    );
  });
});

describe("warnings say what prints nothing, with line and column", () => {
  it("unclosed_block and stray_block_close name the insert; crossing blocks are unbalanced; svc/repeat keeps its own codes", () => {
    assert.deepEqual(codes(`a\n  <!-- svc/if {"when": "site.name"} -->x`), ["unclosed_block@2:3"]);
    assert.deepEqual(codes(`<!-- /svc/if -->`), ["stray_block_close@1:1"]);
    assert.deepEqual(
      codes(
        `<!-- svc/if {"when": "site.name"} -->\n<!-- svc/repeat {"source": "pages"} -->\n<!-- /svc/if --><!-- /svc/repeat -->`,
      ),
      ["unclosed_block@1:1", "stray_block_close@3:1"],
    );
    assert.deepEqual(codes(`<!-- /svc/repeat -->`), ["stray_repeat_close@1:1"]);
    const stray = compileFrame(`<!-- /svc/block -->`).analysis.warnings[0]!;
    assert.deepEqual(stray.details, { name: "svc/block" });
  });

  it("unknown_insert names the insert and the closest known one; a bind's warnings stand at its data-op-bind attribute", () => {
    const [unknown] = compileFrame(`\n\n   <!-- svc/imge {"media": 1} /-->`).analysis.warnings;
    assert.deepEqual(
      { code: unknown!.code, line: unknown!.line, column: unknown!.column, details: unknown!.details },
      { code: "unknown_insert", line: 3, column: 4, details: { name: "svc/imge", suggestion: "svc/image" } },
    );
    const [bind] = compileFrame(`<p>\n  <b data-op-bind='{"text": "nope"}'></b></p>`).analysis.warnings;
    assert.deepEqual([bind!.code, bind!.line, bind!.column], ["unknown_token", 2, 6]);
  });

  it("property: any nesting of layouts, slots, blocks, ifs, elses and repeats compiles and renders or warns, never throws", () => {
    const pieces = [
      `<!-- svc/layout {"name": "l"} /-->`,
      `<!-- svc/slot /-->`,
      `<!-- svc/slot {"name": "a"} -->`,
      `<!-- /svc/slot -->`,
      `<!-- svc/block {"name": "a"} -->`,
      `<!-- /svc/block -->`,
      `<!-- svc/if {"when": "item.x"} -->`,
      `<!-- svc/else /-->`,
      `<!-- /svc/if -->`,
      `<!-- svc/repeat {"source": "data.d"} -->`,
      `<!-- /svc/repeat -->`,
      `<!-- svc/if {} -->`,
      `<!-- svc/block -->`,
      "x",
      "<p>",
      `<b data-op-bind='{"text": "{item.x | upper}"}'></b>`,
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 40 }),
        fc.array(fc.constantFrom(...pieces), { maxLength: 20 }),
        (page, layout) => {
          const compiled = compileFrame(page.join(""));
          for (const w of compiled.analysis.warnings) assert.ok(w.line! >= 1 && w.column! >= 1);
          renderFrame(
            compiled,
            fixtureContext({ frames: { l: layout.join("") }, items: { "data.d": [{ x: "y" }, {}] } }),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
