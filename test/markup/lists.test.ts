// Lists in frame markup (docs/markup.md, "Lists"): svc/repeat's order_by, offset, limit and
// page_size, the frame's lists in its analysis (the page's list), svc/pagination and the head links
// of a paged list; the order_by parser and the ordering, property-tested.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { compileFrame, renderFrame, type ListPage } from "../../src/markup/index.ts";
import { ORDER_KEYS, orderByText, orderItems, parseOrderBy } from "../../src/markup/list-order.ts";
import { listed, pageCount, pageSlice } from "../../src/markup/list-window.ts";
import { pageNumbers } from "../../src/markup/pagination-html.ts";
import { seoHeadHtml } from "../../src/markup/seo-html.ts";
import { fixtureContext } from "./fixture-context.ts";

/** Posts as the `pages.children` source gives them (page items). */
const POSTS = [
  {
    id: 1,
    title: "banana",
    date: "2024-10-01T00:00:00Z",
    modified: "2024-12-03T00:00:00Z",
    menu_order: 2,
    fields: { price: 5, rank: "b" },
  },
  {
    id: 2,
    title: "Apple",
    date: "2024-11-20T00:00:00Z",
    modified: "2024-12-01T00:00:00Z",
    menu_order: 1,
    fields: { price: 12 },
  },
  {
    id: 3,
    title: "cherry",
    date: "2024-09-12T00:00:00Z",
    modified: "2024-12-02T00:00:00Z",
    menu_order: 2,
    fields: { price: 5, rank: "a" },
  },
  {
    id: 4,
    title: "Part 10",
    date: "2024-11-20T00:00:00Z",
    modified: "2024-12-04T00:00:00Z",
    menu_order: 0,
    fields: { price: 0.5 },
  },
  { id: 5, title: "Part 2", date: null, modified: "2024-12-05T00:00:00Z", menu_order: 3, fields: {} },
];

/** The ids a repeat over POSTS prints with these parameters (and this page of the page's list). */
function printed(params: Record<string, unknown>, listPage?: ListPage, source = "pages.children"): number[] {
  const markup = `<!-- svc/repeat ${JSON.stringify({ source, ...params })} -->[<b data-op-bind='{"text":"item.id"}'></b>]<!-- /svc/repeat -->`;
  const compiled = compileFrame(markup);
  assert.deepEqual(compiled.analysis.warnings, [], JSON.stringify(params));
  const html = renderFrame(compiled, fixtureContext({ items: { [source]: POSTS }, listPage })).html;
  return [...html.matchAll(/\[<b>(\d+)<\/b>\]/g)].map((m) => Number(m[1]));
}

/** The warnings of a repeat with these parameters. */
const warned = (params: Record<string, unknown>) =>
  compileFrame(
    `<!-- svc/repeat ${JSON.stringify({ source: "pages", ...params })} -->x<!-- /svc/repeat -->`,
  ).analysis.warnings.map((w) => w.code);

describe("svc/repeat order_by", () => {
  it("date, modified, title, menu_order and fields.<name>, ascending and with - descending; ties by id in the same direction", () => {
    assert.deepEqual(printed({ order_by: "date" }), [3, 1, 2, 4, 5], "no date sorts last");
    assert.deepEqual(
      printed({ order_by: "-date" }),
      [4, 2, 1, 3, 5],
      "equal dates: the higher id first; no date still last",
    );
    assert.deepEqual(printed({ order_by: "modified" }), [2, 3, 1, 4, 5]);
    assert.deepEqual(printed({ order_by: "-modified" }), [5, 4, 1, 3, 2]);
    assert.deepEqual(printed({ order_by: "title" }), [2, 1, 3, 5, 4], "case aside, Part 2 before Part 10");
    assert.deepEqual(printed({ order_by: "-title" }), [4, 5, 3, 1, 2]);
    assert.deepEqual(printed({ order_by: "menu_order" }), [4, 2, 1, 3, 5], "ties (2) by id");
    assert.deepEqual(printed({ order_by: "-menu_order" }), [5, 3, 1, 2, 4]);
    assert.deepEqual(printed({ order_by: "fields.price" }), [4, 1, 3, 2, 5], "numbers by value; none last");
    assert.deepEqual(printed({ order_by: "-fields.price" }), [2, 3, 1, 4, 5]);
    assert.deepEqual(printed({ order_by: "fields.rank" }), [3, 1, 2, 4, 5]);
    assert.deepEqual(printed({}), [1, 2, 3, 4, 5], "without order_by the source's order");
  });

  it("offset skips after match and order, limit keeps what follows, page_size shows the first page", () => {
    assert.deepEqual(printed({ order_by: "-date", offset: 1 }), [2, 1, 3, 5]);
    assert.deepEqual(printed({ order_by: "-date", offset: 1, limit: 2 }), [2, 1]);
    assert.deepEqual(printed({ order_by: "-date", offset: 9 }), []);
    assert.deepEqual(printed({ match: { "fields.price": [5, 12] }, order_by: "title" }), [2, 1, 3]);
    assert.deepEqual(warned({ order_by: "id" }), ["insert_param_invalid"], "id is no order key");
  });

  it("the page's list prints the page of the list its address names; other paged repeats their first page", () => {
    const list = (page: number): ListPage => ({ page, pages: 3, base: "http://x/news/" });
    assert.deepEqual(printed({ order_by: "-date", page_size: 2 }), [4, 2], "a bake: page 1");
    assert.deepEqual(printed({ order_by: "-date", page_size: 2 }, list(2)), [1, 3]);
    assert.deepEqual(printed({ order_by: "-date", page_size: 2 }, list(3)), [5]);
    assert.deepEqual(printed({ order_by: "-date", page_size: 2, limit: 3 }, list(2)), [1], "limit caps the whole list");
    const two = compileFrame(
      `<!-- svc/repeat {"source":"pages.children","page_size":2} --><i data-op-bind='{"text":"item.id"}'></i><!-- /svc/repeat -->|<!-- svc/repeat {"source":"data.x","page_size":1} --><u data-op-bind='{"text":"item.id"}'></u><!-- /svc/repeat -->`,
    );
    const html = renderFrame(
      two,
      fixtureContext({ items: { "pages.children": POSTS, "data.x": POSTS }, listPage: list(2) }),
    ).html;
    assert.match(html, /<i>3<\/i><i>4<\/i>.*\|.*<u>1<\/u><!--/, "only the first paged repeat follows the address");
  });

  it("a paged repeat inside another repeat or in an embedded frame is not the page's list", () => {
    const inner = `<!-- svc/repeat {"source":"pages.children","page_size":2} --><i data-op-bind='{"text":"item.id"}'></i><!-- /svc/repeat -->`;
    const nested = compileFrame(`<!-- svc/repeat {"source":"data.one"} -->${inner}<!-- /svc/repeat -->`);
    assert.deepEqual(nested.analysis.lists, []);
    const ctx = fixtureContext({
      items: { "pages.children": POSTS, "data.one": [{}] },
      frames: { box: inner },
      listPage: { page: 2, pages: 3, base: "http://x/" },
    });
    assert.match(renderFrame(nested, ctx).html, /<i>1<\/i><i>2<\/i><!--/);
    const embedding = compileFrame(`<!-- svc/frame {"name":"box"} /-->`);
    assert.match(renderFrame(embedding, ctx).html, /<i>1<\/i><i>2<\/i><!--/, "embedded: its first page");
  });

  it("the analysis lists each repeat outside others that sorts or pages, as written; an unclosed one is none", () => {
    const c = compileFrame(
      `<!-- svc/repeat {"source":"news","order_by":" -date ","match":{"tags":["a","b"]}} -->x<!-- /svc/repeat --><!-- svc/repeat {"source":"pages.children","page_size":"10","offset":1,"limit":30} -->y<!-- /svc/repeat --><!-- svc/repeat {"source":"pages"} -->z<!-- /svc/repeat -->`,
    );
    assert.deepEqual(
      c.analysis.lists.map(({ at, ...list }) => list),
      [
        {
          source: "data.news",
          match: { tags: ["a", "b"] },
          order_by: "-date",
          offset: 0,
          limit: null,
          page_size: null,
        },
        { source: "pages.children", match: null, order_by: null, offset: 1, limit: 30, page_size: 10 },
      ],
    );
    const unclosed = compileFrame(`<!-- svc/repeat {"source":"pages","page_size":2} -->x`);
    assert.deepEqual(unclosed.analysis.lists, []);
    assert.deepEqual(
      unclosed.analysis.warnings.map((w) => w.code),
      ["unclosed_repeat"],
    );
  });

  it("wrong parameters are warned at write time (insert_param_invalid) and the block prints nothing", () => {
    for (const bad of [
      { order_by: "price" },
      { order_by: "fields." },
      { order_by: "fields..x" },
      { order_by: 3 },
      { order_by: "--date" },
      { offset: -1 },
      { offset: "x" },
      { page_size: 0 },
      { page_size: "ten" },
      { limit: -2 },
      { match: { tags: [] } },
      { match: { tags: [{ a: 1 }] } },
    ])
      assert.deepEqual(warned(bad), ["insert_param_invalid"], JSON.stringify(bad));
    for (const good of [
      { order_by: "-fields.a.b" },
      { offset: "2" },
      { page_size: 1 },
      { match: { tags: ["news", "press"] } },
    ])
      assert.deepEqual(warned(good), [], JSON.stringify(good));
  });
});

describe("svc/pagination", () => {
  const render = (markup: string, listPage?: ListPage) => {
    const compiled = compileFrame(markup);
    return { compiled, html: renderFrame(compiled, fixtureContext({ listPage })).html };
  };

  it("prints a labelled nav: previous (rel=prev), the numbers with the page shown aria-current, next (rel=next)", () => {
    const { compiled, html } = render(`<!-- svc/pagination /-->`, { page: 2, pages: 3, base: "http://x/news/" });
    assert.deepEqual(compiled.analysis.live_reasons, ["insert svc/pagination"]);
    assert.deepEqual(compiled.analysis.sources, ["page"]);
    assert.equal(
      html,
      '<!-- op/pagination --><nav class="pagination" aria-label="Pagination"><a class="prev" rel="prev" href="http://x/news/">Previous</a><a class="page" href="http://x/news/">1</a><a class="page current" href="http://x/news/page/2/" aria-current="page">2</a><a class="page" href="http://x/news/page/3/">3</a><a class="next" rel="next" href="http://x/news/page/3/">Next</a></nav><!-- /op/pagination -->',
    );
  });

  it("the first page has no previous link, the last no next; a list of one page, or none, prints nothing", () => {
    assert.doesNotMatch(render(`<!-- svc/pagination /-->`, { page: 1, pages: 2, base: "/b/" }).html, /rel="prev"/);
    assert.doesNotMatch(render(`<!-- svc/pagination /-->`, { page: 2, pages: 2, base: "/b/" }).html, /rel="next"/);
    assert.equal(
      render(`<!-- svc/pagination /-->`, { page: 1, pages: 1, base: "/b/" }).html,
      "<!-- op/pagination --><!-- /op/pagination -->",
    );
    assert.equal(render(`<!-- svc/pagination /-->`).html, "<!-- op/pagination --><!-- /op/pagination -->");
  });

  it("labels and class are its parameters, escaped; a wrong one is warned and prints nothing", () => {
    const { html } = render(
      `<!-- svc/pagination {"label":"Seiten","previous":"« Zurück","next":"Weiter <b>","class":"pager x"} /-->`,
      {
        page: 2,
        pages: 3,
        base: "/de/news/",
      },
    );
    assert.match(
      html,
      /<nav class="pager x" aria-label="Seiten"><a class="prev" rel="prev" href="\/de\/news\/">« Zurück<\/a>/,
    );
    assert.match(html, />Weiter &lt;b&gt;<\/a><\/nav>/);
    const bad = compileFrame(`<!-- svc/pagination {"next": 3} /-->`);
    assert.deepEqual(
      bad.analysis.warnings.map((w) => w.code),
      ["insert_param_invalid"],
    );
    assert.equal(renderFrame(bad, fixtureContext({ listPage: { page: 1, pages: 2, base: "/" } })).html, "");
  });

  it("many pages: the first, the last and two around the page shown, gaps as …", () => {
    assert.deepEqual(pageNumbers(1, 3), [1, 2, 3]);
    assert.deepEqual(pageNumbers(1, 10), [1, 2, 3, 0, 10]);
    assert.deepEqual(pageNumbers(6, 12), [1, 0, 4, 5, 6, 7, 8, 0, 12]);
    assert.deepEqual(pageNumbers(4, 7), [1, 2, 3, 4, 5, 6, 7]);
    const html = render(`<!-- svc/pagination /-->`, { page: 6, pages: 12, base: "/n/" }).html;
    assert.equal((html.match(/class="dots"/g) ?? []).length, 2);
  });
});

describe("svc/seo on a paged list", () => {
  it("prints rel=prev and rel=next links and the feed's alternate link after the canonical", () => {
    const head = seoHeadHtml({
      title: "News",
      description: "",
      canonical: "http://x/news/page/2/",
      alternates: [],
      ogTitle: "News",
      ogType: "article",
      image: null,
      siteName: "",
      locale: null,
      twitterSite: "",
      noindex: false,
      jsonLd: {},
      prev: "http://x/news/",
      next: "http://x/news/page/3/",
      feed: { href: "http://x/news/feed.xml", title: 'News "all"' },
    });
    assert.match(
      head,
      /<link rel="canonical" href="http:\/\/x\/news\/page\/2\/"><link rel="prev" href="http:\/\/x\/news\/"><link rel="next" href="http:\/\/x\/news\/page\/3\/"><link rel="alternate" type="application\/atom\+xml" title="News &quot;all&quot;" href="http:\/\/x\/news\/feed.xml">/,
    );
  });
});

describe("order_by and the list window, property-tested", () => {
  const key = fc.oneof(
    fc.constantFrom(...ORDER_KEYS),
    fc.stringMatching(/^[a-z_]{1,8}(\.[a-z0-9_]{1,8}){0,2}$/).map((name) => `fields.${name}`),
  );

  it("parseOrderBy is total, names only the keys it takes, and reads back what orderByText writes", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.anything()), (value) => {
        const order = parseOrderBy(value);
        if (order === undefined) return;
        assert.ok(ORDER_KEYS.includes(order.key) || /^fields(\.[^.\s]+)+$/.test(order.key), order.key);
        assert.deepEqual(parseOrderBy(orderByText(order)), order);
      }),
    );
    fc.assert(
      fc.property(key, fc.boolean(), (k, descending) => {
        assert.deepEqual(parseOrderBy(`${descending ? "-" : ""}${k}`), { key: k, descending });
      }),
    );
  });

  it("orderItems is a permutation: present values in order, absent ones last, ties by id in the sort's direction", () => {
    const item = fc.record({
      id: fc.integer({ min: 1, max: 1000 }),
      v: fc.option(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom("a", "B", "c", "a2", "a10")), {
        nil: undefined,
      }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(item, { selector: (i) => i.id, maxLength: 30 }), fc.boolean(), (items, descending) => {
        const out = orderItems(items, { key: "v", descending }, "en");
        assert.deepEqual(
          out.map((i) => i.id).sort((a, b) => a - b),
          items.map((i) => i.id).sort((a, b) => a - b),
        );
        const firstAbsent = out.findIndex((i) => i.v === undefined);
        if (firstAbsent >= 0)
          assert.ok(
            out.slice(firstAbsent).every((i) => i.v === undefined),
            "absent values last",
          );
        const sign = descending ? -1 : 1;
        const collator = new Intl.Collator("en", { sensitivity: "accent", numeric: true });
        for (let i = 1; i < out.length; i++) {
          const [a, b] = [out[i - 1]!, out[i]!];
          if (a.v === undefined || b.v === undefined) continue;
          const c =
            typeof a.v === "number" && typeof b.v === "number"
              ? a.v - b.v
              : typeof a.v === "number"
                ? -1
                : typeof b.v === "number"
                  ? 1
                  : collator.compare(a.v, b.v);
          assert.ok(
            sign * c < 0 || (c === 0 && sign * (a.id - b.id) < 0),
            `${JSON.stringify(a)} before ${JSON.stringify(b)}`,
          );
        }
      }),
    );
  });

  it("the pages of a paged list hold every item once, in order", () => {
    fc.assert(
      fc.property(fc.nat(50), fc.integer({ min: 1, max: 12 }), fc.nat(5), (n, size, offset) => {
        const items = Array.from({ length: n }, (_, i) => ({ id: i + 1 }));
        const list = listed(items, { match: null, orderBy: null, offset, limit: -1 }, null);
        const pages = pageCount(list.length, size);
        const joined = Array.from({ length: pages }, (_, i) => pageSlice(list, size, i + 1)).flat();
        assert.deepEqual(joined, list);
        assert.equal(pageSlice(list, size, pages + 1).length, 0);
        assert.ok(pages >= 1);
      }),
    );
  });
});
