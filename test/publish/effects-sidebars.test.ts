// Effect table, documentation sidebars (docs/publishing.md): PUT /sidebars/{name} (items, root, a
// language's own tree), DELETE, and the page writes that change what a sidebar shows: title,
// slug, status, menu_order, parent, a new page under a generated root, a translation, and a
// page's content in its table of contents (docs/publishing.md; pattern in effects-helpers.ts).
// Every frame here prints the page's title and content, a sidebar, its pager and the toc, so it
// renders on request; the sidebar, the pager and aria-current are read back with htmlparser2.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Parser } from "htmlparser2";
import { bind, effects, ok, processes, served, suite } from "./effects-helpers.ts";

/** A link as the page prints it. */
interface Link {
  label: string;
  href: string;
}

/** What a page shows of its documentation inserts. */
interface Docs {
  /**
   * The sidebar, one line per item in reading order: two spaces per level, the label, `*` on the
   * link with aria-current="page", `[open]` or `[closed]` on a section. Empty when none is printed.
   */
  outline: string[];
  /** The sidebar's links, in order. */
  links: Link[];
  /** The labels of the links carrying aria-current="page". */
  current: string[];
  prev: Link | null;
  next: Link | null;
  /** The table of contents: two spaces per level, `label #id`. */
  toc: string[];
  /** The ids of the headings the page prints. */
  headingIds: string[];
  /** The page's title (its h1). */
  title: string;
}

interface Entry {
  depth: number;
  label: string;
  current: boolean;
  section: "open" | "closed" | null;
  collecting: boolean;
}

/** Reads the sidebar (nav.sidebar), the pager (nav.pager) and the toc (nav.toc) of a page. */
function docsOf(html: string): Docs {
  const docs: Docs = {
    outline: [],
    links: [],
    current: [],
    prev: null,
    next: null,
    toc: [],
    headingIds: [],
    title: "",
  };
  const tocLinks: string[] = [];
  let inTitle = false;
  const entries: Entry[] = [];
  const open: Entry[] = [];
  // The nav being read, and how many of its lists are open.
  let nav: "sidebar" | "pager" | "toc" | null = null;
  let navDepth = 0;
  let lists = 0;
  let anchor: { href: string; rel: string | null; text: string; current: boolean } | null = null;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (/^h[1-6]$/.test(name) && attrs.id !== undefined) docs.headingIds.push(attrs.id);
        if (name === "h1" && nav === null) inTitle = true;
        if (name === "nav") {
          if (nav === null && ["sidebar", "pager", "toc"].includes(attrs.class ?? "")) {
            nav = attrs.class as "sidebar" | "pager" | "toc";
            navDepth = 0;
            lists = 0;
          }
          if (nav !== null) navDepth++;
          return;
        }
        if (nav === null) return;
        if (name === "ul") {
          lists++;
          if (open.length > 0) open[open.length - 1].collecting = false;
        } else if (name === "li") {
          const entry: Entry = { depth: lists - 1, label: "", current: false, section: null, collecting: true };
          entries.push(entry);
          open.push(entry);
        } else if (name === "details" && open.length > 0) {
          open[open.length - 1].section = attrs.open !== undefined ? "open" : "closed";
        } else if (name === "a") {
          anchor = {
            href: attrs.href ?? "",
            rel: attrs.rel ?? null,
            text: "",
            current: attrs["aria-current"] === "page",
          };
          if (anchor.current && open.length > 0) open[open.length - 1].current = true;
        }
      },
      ontext(text) {
        if (inTitle) docs.title += text;
        if (nav === null) return;
        if (anchor) anchor.text += text;
        if (open.length > 0 && open[open.length - 1].collecting) open[open.length - 1].label += text;
      },
      onclosetag(name) {
        if (name === "h1") inTitle = false;
        if (nav === null) return;
        if (name === "a" && anchor) {
          const link = { label: anchor.text, href: anchor.href };
          if (nav === "sidebar") {
            docs.links.push(link);
            if (anchor.current) docs.current.push(anchor.text);
          } else if (nav === "toc") {
            tocLinks.push(anchor.href);
          } else if (nav === "pager") {
            if (anchor.rel === "prev") docs.prev = link;
            if (anchor.rel === "next") docs.next = link;
          }
          anchor = null;
        } else if (name === "li") {
          open.pop();
        } else if (name === "ul") {
          lists--;
        } else if (name === "nav" && --navDepth === 0) {
          for (const entry of entries.splice(0)) {
            const line = `${"  ".repeat(entry.depth)}${entry.label}${entry.current ? " *" : ""}${entry.section ? ` [${entry.section}]` : ""}`;
            if (nav === "sidebar") docs.outline.push(line);
            if (nav === "toc") docs.toc.push(line);
          }
          nav = null;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  // The toc's lines name the heading they point at.
  docs.toc = docs.toc.map((line, i) => `${line} ${tocLinks[i] ?? ""}`);
  return docs;
}

/** The path of an absolute address (sidebar and pager links are absolute on the site's domain). */
const pathOf = (href: string) => new URL(href).pathname;
const paths = (links: readonly Link[]) => links.map((link) => pathOf(link.href));
const pager = (docs: Docs) => ({ prev: docs.prev?.label ?? null, next: docs.next?.label ?? null });

/** A frame printing the page's title and content, sidebar `name`, its pager and the toc (h2, h3). */
const docFrame = (name: string) =>
  `<h1 ${bind("text", "page.title")}></h1><!-- svc/sidebar {"name": "${name}"} /-->` +
  `<main ${bind("html", "page.content")}></main><!-- svc/pager {"name": "${name}"} /--><!-- svc/toc {"levels": [2, 3]} /-->`;

describe(suite("sidebars"), () => {
  const fx = effects();
  const host = "docs.localhost";
  let bilingual: number;
  /** A frame `sb-<name>` printing sidebar `name` (on the main site, or on `site`). */
  const frameFor = (name: string, site?: number) => fx.frame(`sb-${name}`, docFrame(name), site);
  /** A published page on sidebar `name`'s frame; answers its id. */
  const docPage = (slug: string, name: string, extra: Record<string, unknown> = {}, site?: number) =>
    fx.page(slug, `sb-${name}`, extra, site);
  /** The page's documentation inserts, on the very next request (rendered anew: on request). */
  const next = async (path: string, hostName = "localhost") =>
    docsOf(served(await fx.visit(path, hostName), path, "on_request"));
  /** Fetched twice before a write: the second answer comes from memory. */
  const primed = async (path: string, hostName = "localhost") =>
    docsOf(served(await fx.primed(path, hostName), `${path} before the write`, "cache"));
  const write = async (name: string, body: unknown, site?: number) => {
    const reply = await fx.api("PUT", `/sidebars/${name}`, body, site);
    assert.ok(
      reply.status === 200 || reply.status === 201,
      `PUT /sidebars/${name}: ${reply.status} ${reply.text.slice(0, 400)}`,
    );
    return reply.body;
  };

  before(async () => {
    bilingual = await fx.site("Docs", host);
    for (const code of ["en", "de"])
      ok(await fx.api("POST", "/languages", { code }, bilingual), `language ${code}`, 201);
  });

  it("PUT /sidebars/{name} items: frames that named it while missing print it; replaced, the new tree, order, sections and pager; aria-current on the page shown", async () => {
    await frameFor("sb-items");
    const a = await docPage("sbi-alpha", "sb-items", { title: "Alpha" });
    const b = await docPage("sbi-beta", "sb-items", { title: "Beta" });
    const c = await docPage("sbi-gamma", "sb-items", { title: "Gamma" });
    const before = await primed("/sbi-beta/");
    assert.deepEqual(before.outline, [], "no sidebar yet: nothing printed");
    assert.deepEqual(pager(before), { prev: null, next: null });

    await write("sb-items", { items: [{ page: a }, { page: b }, { page: c }] });
    const first = await next("/sbi-beta/");
    assert.deepEqual(first.outline, ["Alpha", "Beta *", "Gamma"]);
    assert.deepEqual(first.current, ["Beta"]);
    assert.deepEqual(pager(first), { prev: "Alpha", next: "Gamma" });
    assert.deepEqual(paths(first.links), ["/sbi-alpha/", "/sbi-beta/", "/sbi-gamma/"]);

    await primed("/sbi-beta/");
    await primed("/sbi-gamma/");
    await write("sb-items", {
      items: [
        { page: c },
        { label: "Basics", items: [{ page: a, label: "Start here" }, { page: b }] },
        { url: "https://example.com/api", label: "API" },
      ],
    });
    const replaced = await next("/sbi-beta/");
    assert.deepEqual(replaced.outline, ["Gamma", "Basics [open]", "  Start here", "  Beta *", "API"]);
    assert.deepEqual(replaced.current, ["Beta"]);
    assert.deepEqual(
      pager(replaced),
      { prev: "Start here", next: null },
      "sections flattened, the link skipped: Beta is last",
    );
    const gamma = await next("/sbi-gamma/");
    assert.deepEqual(
      gamma.outline,
      ["Gamma *", "Basics [closed]", "  Start here", "  Beta", "API"],
      "a section without the page shown is collapsed",
    );
    assert.deepEqual(pager(gamma), { prev: null, next: "Start here" });
  });

  it("PUT /sidebars/{name} root: the tree is generated from the pages under the root (menu_order, then title); the root itself is no item", async () => {
    await frameFor("sb-root");
    const root = await docPage("sbr-root", "sb-root", { title: "Handbook" });
    await docPage("sbr-zeta", "sb-root", { title: "Zeta", parent: root });
    const install = await docPage("sbr-install", "sb-root", { title: "Install", parent: root, menu_order: -1 });
    await docPage("sbr-linux", "sb-root", { title: "Linux", parent: install });
    await docPage("sbr-about", "sb-root", { title: "About", parent: root });
    await write("sb-root", { items: [{ page: root }] });
    assert.deepEqual((await primed("/sbr-root/sbr-zeta/")).outline, ["Handbook"]);

    await write("sb-root", { root: "sbr-root" });
    const zeta = await next("/sbr-root/sbr-zeta/");
    assert.deepEqual(zeta.outline, ["Install [closed]", "  Linux", "About", "Zeta *"]);
    assert.deepEqual(pager(zeta), { prev: "About", next: null });
    const linux = await next("/sbr-root/sbr-install/sbr-linux/");
    assert.deepEqual(
      linux.outline,
      ["Install [open]", "  Linux *", "About", "Zeta"],
      "a page with pages under it opens when it holds the page shown",
    );
    assert.deepEqual(pager(linux), { prev: "Install", next: "About" });
  });

  it("PUT /sidebars/{name} with lang: the language's own tree replaces the default tree mapped to translations; the default language keeps its tree", async () => {
    await frameFor("sb-lang", bilingual);
    const one = await docPage("sbl-one", "sb-lang", { title: "One", lang: "en" }, bilingual);
    const two = await docPage("sbl-two", "sb-lang", { title: "Two", lang: "en" }, bilingual);
    const eins = ok(
      await fx.api("POST", "/pages/language", { page: one, lang: "de", title: "Eins", slug: "sbl-eins" }, bilingual),
      "translation",
      201,
    ).page.id;
    ok(
      await fx.api("POST", "/pages/language", { page: two, lang: "de", title: "Zwei", slug: "sbl-zwei" }, bilingual),
      "translation",
      201,
    );
    await write("sb-lang", { items: [{ page: one }, { page: two }] }, bilingual);
    assert.deepEqual((await primed("/de/sbl-eins/", host)).outline, ["Eins *", "Zwei"], "the default tree, mapped");
    assert.deepEqual((await primed("/sbl-one/", host)).outline, ["One *", "Two"]);

    await write(
      "sb-lang",
      {
        lang: "de",
        items: [
          { label: "Anleitung", items: [{ page: eins, label: "Erste Schritte" }] },
          { url: "https://example.com/de", label: "Mehr" },
        ],
      },
      bilingual,
    );
    const german = await next("/de/sbl-eins/", host);
    assert.deepEqual(german.outline, ["Anleitung [open]", "  Erste Schritte *", "Mehr"]);
    assert.deepEqual(pager(german), { prev: null, next: null }, "Zwei is not in the German tree");
    assert.deepEqual(paths(german.links), ["/de/sbl-eins/", "/de"]);
    const english = await next("/sbl-one/", host);
    assert.deepEqual(english.outline, ["One *", "Two"], "the English tree is the same");
    assert.deepEqual(pager(english), { prev: null, next: "Two" });
  });

  it("DELETE /sidebars/{name}: frames printing it print no sidebar and no pager", async () => {
    await frameFor("sb-gone");
    const a = await docPage("sbg-a", "sb-gone", { title: "First" });
    const b = await docPage("sbg-b", "sb-gone", { title: "Second" });
    await write("sb-gone", { items: [{ page: a }, { page: b }] });
    const before = await primed("/sbg-a/");
    assert.deepEqual(before.outline, ["First *", "Second"]);
    assert.deepEqual(pager(before), { prev: null, next: "Second" });
    ok(await fx.api("DELETE", "/sidebars/sb-gone"), "DELETE");
    const after = await next("/sbg-a/");
    assert.deepEqual(after.outline, []);
    assert.deepEqual(pager(after), { prev: null, next: null });
    assert.equal(after.title, "First", "the page itself still answers");
  });

  it("PATCH /pages title: an item without a label of its own follows the title, in the sidebar and the pager of other pages; a given label stays; pages of other sidebars keep their cached render", async () => {
    await frameFor("sb-title");
    const a = await docPage("sbt-a", "sb-title", { title: "Old A" });
    const b = await docPage("sbt-b", "sb-title", { title: "Old B" });
    const c = await docPage("sbt-c", "sb-title", { title: "Old C" });
    await write("sb-title", { items: [{ page: a }, { page: b, label: "Bee" }, { page: c }] });
    // Another sidebar, not showing them: its page is not republished and keeps its cached render
    // (with two processes the reader may drop the whole site's memory when it hears of a flush
    // late: invalidation-marks.ts).
    await frameFor("sb-title-other");
    const other = await docPage("sbt-other", "sb-title-other", { title: "Other" });
    await write("sb-title-other", { items: [{ page: other }] });
    assert.deepEqual((await primed("/sbt-b/")).outline, ["Old A", "Bee *", "Old C"]);
    await primed("/sbt-c/");
    await primed("/sbt-other/");
    const titled = ok(await fx.api("PATCH", `/pages/${a}`, { title: "New A" }), "PATCH title A");
    assert.ok(
      titled.rebaked.pages.includes(b) && titled.rebaked.pages.includes(c),
      JSON.stringify(titled.rebaked.pages),
    );
    assert.ok(!titled.rebaked.pages.includes(other), JSON.stringify(titled.rebaked.pages));
    ok(await fx.api("PATCH", `/pages/${b}`, { title: "New B" }), "PATCH title B");
    const shown = await next("/sbt-b/");
    assert.deepEqual(shown.outline, ["New A", "Bee *", "Old C"]);
    assert.deepEqual(pager(shown), { prev: "New A", next: "Old C" });
    assert.deepEqual(pager(await next("/sbt-c/")), { prev: "Bee", next: null });
    assert.deepEqual(
      docsOf(served(await fx.visit("/sbt-other/"), "a page of another sidebar", processes === 1 ? "cache" : undefined))
        .outline,
      ["Other *"],
    );
  });

  it("PATCH /pages slug: the sidebar's and the pager's links follow the page's new address (its old one answers 301)", async () => {
    await frameFor("sb-slug");
    const a = await docPage("sbs-a", "sb-slug", { title: "A" });
    const b = await docPage("sbs-b", "sb-slug", { title: "B" });
    await write("sb-slug", { items: [{ page: a }, { page: b }] });
    assert.deepEqual(paths((await primed("/sbs-b/")).links), ["/sbs-a/", "/sbs-b/"]);
    ok(await fx.api("PATCH", `/pages/${a}`, { slug: "sbs-a-moved" }), "PATCH slug");
    const shown = await next("/sbs-b/");
    assert.deepEqual(paths(shown.links), ["/sbs-a-moved/", "/sbs-b/"]);
    assert.equal(pathOf(shown.prev!.href), "/sbs-a-moved/");
    const moved = await next("/sbs-a-moved/");
    assert.deepEqual(moved.current, ["A"], "aria-current on the page at its new address");
    assert.equal(pathOf(moved.links[0].href), "/sbs-a-moved/");
    assert.equal((await fx.visit("/sbs-a/")).status, 301);
  });

  it("PATCH /pages status: a drafted page vanishes from the sidebar and the pager at once; published again it is back", async () => {
    await frameFor("sb-status");
    const a = await docPage("sbd-a", "sb-status", { title: "A" });
    const b = await docPage("sbd-b", "sb-status", { title: "B" });
    const c = await docPage("sbd-c", "sb-status", { title: "C" });
    await write("sb-status", { items: [{ page: a }, { label: "More", items: [{ page: b }] }, { page: c }] });
    for (const path of ["/sbd-a/", "/sbd-c/"]) await primed(path);
    ok(await fx.api("PATCH", `/pages/${b}`, { status: "draft" }), "PATCH draft");
    const a1 = await next("/sbd-a/");
    assert.deepEqual(a1.outline, ["A *", "More", "C"], "the section is kept, empty");
    assert.deepEqual(pager(a1), { prev: null, next: "C" });
    assert.deepEqual(pager(await next("/sbd-c/")), { prev: "A", next: null });

    for (const path of ["/sbd-a/", "/sbd-c/"]) await primed(path);
    ok(await fx.api("PATCH", `/pages/${b}`, { status: "publish" }), "PATCH publish");
    const a2 = await next("/sbd-a/");
    assert.deepEqual(a2.outline, ["A *", "More [closed]", "  B", "C"]);
    assert.deepEqual(pager(a2), { prev: null, next: "B" });
    assert.deepEqual(pager(await next("/sbd-c/")), { prev: "B", next: null });
  });

  it("PATCH /pages menu_order: a generated tree reorders", async () => {
    await frameFor("sb-order");
    const root = await docPage("sbo-root", "sb-order", { title: "Root" });
    await docPage("sbo-a", "sb-order", { title: "Apple", parent: root });
    await docPage("sbo-b", "sb-order", { title: "Banana", parent: root });
    const c = await docPage("sbo-c", "sb-order", { title: "Cherry", parent: root });
    await write("sb-order", { root });
    const before = await primed("/sbo-root/sbo-a/");
    assert.deepEqual(before.outline, ["Apple *", "Banana", "Cherry"]);
    ok(await fx.api("PATCH", `/pages/${c}`, { menu_order: -5 }), "PATCH menu_order");
    const after = await next("/sbo-root/sbo-a/");
    assert.deepEqual(after.outline, ["Cherry", "Apple *", "Banana"]);
    assert.deepEqual(pager(after), { prev: "Cherry", next: "Banana" });
  });

  it("PATCH /pages parent: a page moved under a generated tree's root appears in it, moved out it leaves", async () => {
    await frameFor("sb-move");
    const root = await docPage("sbm-root", "sb-move", { title: "Root" });
    const elsewhere = await docPage("sbm-elsewhere", "sb-move", { title: "Elsewhere" });
    await docPage("sbm-a", "sb-move", { title: "A", parent: root });
    const mover = await docPage("sbm-mover", "sb-move", { title: "B mover", parent: elsewhere });
    await write("sb-move", { root });
    assert.deepEqual((await primed("/sbm-root/sbm-a/")).outline, ["A *"]);
    ok(await fx.api("PATCH", `/pages/${mover}`, { parent: root }), "PATCH parent in");
    const inside = await next("/sbm-root/sbm-a/");
    assert.deepEqual(inside.outline, ["A *", "B mover"]);
    assert.deepEqual(pager(inside), { prev: null, next: "B mover" });
    assert.equal(pathOf(inside.next!.href), "/sbm-root/sbm-mover/");

    await primed("/sbm-root/sbm-a/");
    ok(await fx.api("PATCH", `/pages/${mover}`, { parent: elsewhere }), "PATCH parent out");
    const outside = await next("/sbm-root/sbm-a/");
    assert.deepEqual(outside.outline, ["A *"]);
    assert.deepEqual(pager(outside), { prev: null, next: null });
  });

  it("POST /pages under a generated tree's root: the new page appears in the sidebar and the pager of its neighbours", async () => {
    await frameFor("sb-new");
    const root = await docPage("sbn-root", "sb-new", { title: "Root" });
    await docPage("sbn-a", "sb-new", { title: "A", parent: root });
    await write("sb-new", { root });
    const before = await primed("/sbn-root/sbn-a/");
    assert.deepEqual(before.outline, ["A *"]);
    assert.deepEqual(pager(before), { prev: null, next: null });
    await docPage("sbn-b", "sb-new", { title: "B", parent: root });
    const after = await next("/sbn-root/sbn-a/");
    assert.deepEqual(after.outline, ["A *", "B"]);
    assert.deepEqual(pager(after), { prev: null, next: "B" });
  });

  it("POST /pages/language: a language without its own tree shows the new translation in the sidebar and the pager", async () => {
    await frameFor("sb-trans", bilingual);
    const one = await docPage("sbx-one", "sb-trans", { title: "One", lang: "en" }, bilingual);
    const two = await docPage("sbx-two", "sb-trans", { title: "Two", lang: "en" }, bilingual);
    const three = await docPage("sbx-three", "sb-trans", { title: "Three", lang: "en" }, bilingual);
    for (const [page, title, slug] of [
      [one, "Eins", "sbx-eins"],
      [three, "Drei", "sbx-drei"],
    ] as const) {
      ok(
        await fx.api("POST", "/pages/language", { page, lang: "de", title, slug }, bilingual),
        `translation ${slug}`,
        201,
      );
    }
    await write("sb-trans", { items: [{ page: one }, { page: two }, { page: three }] }, bilingual);
    const before = await primed("/de/sbx-eins/", host);
    assert.deepEqual(before.outline, ["Eins *", "Drei"], "Two has no German translation: left out");
    assert.deepEqual(pager(before), { prev: null, next: "Drei" });
    await primed("/de/sbx-drei/", host);
    ok(
      await fx.api("POST", "/pages/language", { page: two, lang: "de", title: "Zwei", slug: "sbx-zwei" }, bilingual),
      "translation sbx-zwei",
      201,
    );
    const after = await next("/de/sbx-eins/", host);
    assert.deepEqual(after.outline, ["Eins *", "Zwei", "Drei"]);
    assert.deepEqual(pager(after), { prev: null, next: "Zwei" });
    assert.equal(pathOf(after.next!.href), "/de/sbx-zwei/");
    assert.deepEqual(pager(await next("/de/sbx-drei/", host)), { prev: "Zwei", next: null });
  });

  it("PATCH /pages content: the page's table of contents lists its new headings, which carry the ids it links to", async () => {
    await frameFor("sb-toc");
    const id = await docPage("sbc-page", "sb-toc", { title: "Toc", content: "<h2>Old heading</h2><p>text</p>" });
    const before = await primed("/sbc-page/");
    assert.deepEqual(before.toc, ["Old heading #old-heading"]);
    ok(
      await fx.api("PATCH", `/pages/${id}`, {
        content: '<h2>Getting started</h2><h3>Install</h3><h3>Install</h3><h2 id="own">Next steps</h2><h4>Deep</h4>',
      }),
      "PATCH content",
    );
    const after = await next("/sbc-page/");
    assert.deepEqual(after.toc, [
      "Getting started #getting-started",
      "  Install #install",
      "  Install #install-2",
      "Next steps #own",
    ]);
    assert.deepEqual(after.headingIds, ["getting-started", "install", "install-2", "own", "deep"]);
  });
});
