// Effect table, templating (docs/publishing.md): PUT /strings (only the frames printing a changed key,
// German falling back to English), a layout frame's PUT reaching every frame on it through a
// two-level chain, a page frame taking a layout, and active menu state on static pages (each
// page's static copy marks its own item, after a menu write and after a slug change too)
// (docs/publishing.md; pattern in effects-helpers.ts). Menus are read back with htmlparser2.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Parser } from "htmlparser2";
import { bind, effects, ok, processes, redirected, served, suite } from "./effects-helpers.ts";

const layout = (name: string) => `<!-- svc/layout {"name": "${name}"} /-->`;
const rebakedSlugs = (body: any): string[] => body.rebaked.frames.map((frame: { slug: string }) => frame.slug).sort();

/**
 * The menu a page prints (nav.menu), one line per item in order: two spaces per level, the
 * link's text, the `<li>`'s marks in brackets (`[is-current]`, `[is-ancestor]`) and `*` on the
 * link carrying aria-current="page".
 */
function menuOf(html: string): string[] {
  const lines: string[] = [];
  let inNav = false;
  let depth = -1;
  let pendingLi: string | null = null;
  let anchor: { text: string; current: boolean; cls: string } | null = null;
  const parser = new Parser({
    onopentag(name, attrs) {
      if (name === "nav" && attrs.class === "menu") inNav = true;
      if (!inNav) return;
      if (name === "ul") depth++;
      else if (name === "li")
        pendingLi = (attrs.class ?? "")
          .split(/\s+/)
          .filter((c) => c.startsWith("is-"))
          .join(" ");
      else if (name === "a") {
        anchor = { text: "", current: attrs["aria-current"] === "page", cls: pendingLi ?? "" };
        if (attrs["aria-current"] !== undefined && attrs["aria-current"] !== "page")
          anchor.cls += ` aria-current=${attrs["aria-current"]}`;
      }
    },
    ontext(text) {
      if (anchor) anchor.text += text;
    },
    onclosetag(name) {
      if (!inNav) return;
      if (name === "nav") inNav = false;
      else if (name === "ul") depth--;
      else if (name === "a" && anchor) {
        lines.push(
          `${"  ".repeat(depth)}${anchor.text}${anchor.cls ? ` [${anchor.cls.trim()}]` : ""}${anchor.current ? " *" : ""}`,
        );
        anchor = null;
        pendingLi = null;
      }
    },
  });
  parser.write(html);
  parser.end();
  return lines;
}

describe(suite("templating"), () => {
  const fx = effects();

  describe("PUT /strings", () => {
    const host = "strings.localhost";
    let site: number;
    const ids: Record<string, number> = {};
    const put = async (lang: string, strings: Record<string, string>) =>
      ok(await fx.api("PUT", "/strings", { lang, strings }, site), `PUT /strings ${lang}`);
    const text = (html: string, cls: string) => new RegExp(`<p class="${cls}">([^<]*)</p>`).exec(html)?.[1];

    before(async () => {
      site = await fx.site("Strings", host);
      for (const code of ["en", "de"]) ok(await fx.api("POST", "/languages", { code }, site), `language ${code}`, 201);
      // Baked (one bake per language): each prints one key.
      await fx.frame("sx-greet", `<p class="greet" ${bind("text", "t.greet")}></p>`, site);
      await fx.frame("sx-bye", `<p class="bye" ${bind("text", "t.bye")}></p>`, site);
      // On request (the page's title): its render is cached, so the memory can be checked.
      await fx.frame(
        "sx-live",
        `<h1 ${bind("text", "page.title")}></h1><p class="greet" ${bind("text", "t.greet")}></p>`,
        site,
      );
      // A key printed by a layout: the frame on it prints it too.
      await fx.frame(
        "sx-layout",
        `<main><!-- svc/slot /--></main><footer class="foot" ${bind("text", "t.foot")}></footer>`,
        site,
      );
      await fx.frame("sx-on-layout", `${layout("sx-layout")}<p>body</p>`, site);
      for (const frame of ["sx-greet", "sx-bye", "sx-live", "sx-on-layout"]) {
        ids[`${frame}-en`] = await fx.page(`${frame}-en`, frame, { lang: "en" }, site);
        ids[`${frame}-de`] = await fx.page(`${frame}-de`, frame, { lang: "de" }, site);
      }
      await put("en", { greet: "Hello", bye: "Goodbye", foot: "Imprint" });
      await put("de", { greet: "Hallo", foot: "Impressum" });
    });

    it("PUT /strings: only the frames printing a changed key are rebaked and their pages print it, in each page's language, German falling back to English; pages printing unchanged keys stay as they were (in memory)", async () => {
      const prime = async () => ({
        greetEnHtml: (await fx.primed("/sx-greet-en/", host)).text,
        get greetEn() {
          return text(this.greetEnHtml, "greet");
        },
        greetDe: text((await fx.primed("/de/sx-greet-de/", host)).text, "greet"),
        byeEn: text((await fx.primed("/sx-bye-en/", host)).text, "bye"),
        byeDe: text((await fx.primed("/de/sx-bye-de/", host)).text, "bye"),
        liveEn: (await fx.primed("/sx-live-en/", host)).text,
        liveDe: (await fx.primed("/de/sx-live-de/", host)).text,
      });
      const next = async (path: string, cls: string, printed = "static") =>
        text(served(await fx.visit(path, host), path, printed), cls);

      // German lacks "bye": its pages print the English text.
      let was = await prime();
      assert.deepEqual([was.greetEn, was.greetDe, was.byeEn, was.byeDe], ["Hello", "Hallo", "Goodbye", "Goodbye"]);
      assert.equal(text(was.liveDe, "greet"), "Hallo");

      // English "bye" changes, "greet" is sent again unchanged: only sx-bye is rebaked, in both languages.
      const answer = await put("en", { greet: "Hello", bye: "See you", foot: "Imprint" });
      assert.deepEqual(rebakedSlugs(answer), ["sx-bye"]);
      assert.equal(await next("/sx-bye-en/", "bye"), "See you");
      assert.equal(await next("/de/sx-bye-de/", "bye"), "See you", "German falls back to the new English text");
      assert.ok(
        !answer.rebaked.pages.some((id: number) =>
          [ids["sx-greet-en"], ids["sx-greet-de"], ids["sx-live-en"], ids["sx-live-de"]].includes(id),
        ),
        JSON.stringify(answer.rebaked.pages),
      );
      assert.equal(served(await fx.visit("/sx-greet-en/", host), "greet en", "static"), was.greetEnHtml);
      assert.equal(await next("/de/sx-greet-de/", "greet"), "Hallo");
      // The on-request pages print only "greet": not flushed, their cached render answers (with two
      // processes the reader may drop the whole site's memory when it hears of a flush late:
      // invalidation-marks.ts).
      assert.equal(
        served(await fx.visit("/sx-live-en/", host), "live en", processes === 1 ? "cache" : undefined),
        was.liveEn,
      );
      assert.equal(
        served(await fx.visit("/de/sx-live-de/", host), "live de", processes === 1 ? "cache" : undefined),
        was.liveDe,
      );

      // German gets its own "bye": German pages print it, English ones keep theirs.
      was = await prime();
      assert.deepEqual(rebakedSlugs(await put("de", { greet: "Hallo", bye: "Tschüss", foot: "Impressum" })), [
        "sx-bye",
      ]);
      assert.equal(await next("/de/sx-bye-de/", "bye"), "Tschüss");
      assert.equal(await next("/sx-bye-en/", "bye"), "See you");

      // German "bye" removed, "greet" changed: "bye" falls back to English again; the pages printing
      // "greet" print the new German text (the live ones rendered anew), the English ones theirs.
      was = await prime();
      assert.deepEqual(rebakedSlugs(await put("de", { greet: "Servus", foot: "Impressum" })), [
        "sx-bye",
        "sx-greet",
        "sx-live",
      ]);
      assert.equal(await next("/de/sx-bye-de/", "bye"), "See you");
      assert.equal(await next("/de/sx-greet-de/", "greet"), "Servus");
      assert.equal(await next("/sx-greet-en/", "greet"), "Hello");
      assert.equal(await next("/de/sx-live-de/", "greet", "on_request"), "Servus");
      assert.equal(await next("/sx-live-en/", "greet", "on_request"), "Hello");

      // A key the layout prints: the frame on the layout is rebaked, its pages print the new text.
      const foot = (html: string) => /<footer class="foot">([^<]*)<\/footer>/.exec(html)?.[1];
      assert.equal(foot((await fx.primed("/sx-on-layout-en/", host)).text), "Imprint");
      assert.equal(foot((await fx.primed("/de/sx-on-layout-de/", host)).text), "Impressum");
      assert.deepEqual(rebakedSlugs(await put("de", { greet: "Servus", foot: "Impressum und Datenschutz" })), [
        "sx-layout",
        "sx-on-layout",
      ]);
      assert.equal(
        foot(served(await fx.visit("/de/sx-on-layout-de/", host), "on layout de", "static")),
        "Impressum und Datenschutz",
      );
      assert.equal(foot(served(await fx.visit("/sx-on-layout-en/", host), "on layout en", "static")), "Imprint");
    });
  });

  describe("layouts", () => {
    const base = (version: string) =>
      `<!doctype html><html><head><!-- svc/slot {"name": "head"} --><title>default title</title><!-- /svc/slot --></head>` +
      `<body><header class="base">Base ${version}</header><!-- svc/slot /--><footer>base footer</footer></body></html>`;

    before(async () => {
      await fx.frame("lx-base", base("v1"));
      await fx.frame("lx-mid", `${layout("lx-base")}<div class="mid"><!-- svc/slot /--></div>`);
      // On the chain's second level: fills the head slot of lx-base through lx-mid.
      await fx.frame(
        "lx-deep",
        `${layout("lx-mid")}<!-- svc/block {"name": "head"} --><title>deep title</title><!-- /svc/block --><p>deep page</p>`,
      );
      await fx.frame("lx-direct", `${layout("lx-base")}<p>direct page</p>`);
      // On request (the page's title), on the two-level chain.
      await fx.frame("lx-live", `${layout("lx-mid")}<h1 ${bind("text", "page.title")}></h1>`);
      for (const frame of ["lx-mid", "lx-deep", "lx-direct", "lx-live"]) await fx.page(`${frame}-page`, frame);
    });

    it("PUT of a layout frame: every page on a frame using it, directly or through a layout on it, prints the new layout; rebaked.frames names every frame on it", async () => {
      const pages = {
        "/lx-mid-page/": "static",
        "/lx-deep-page/": "static",
        "/lx-direct-page/": "static",
        "/lx-live-page/": "on_request",
      };
      for (const path of Object.keys(pages))
        assert.match((await fx.primed(path)).text, /<header class="base">Base v1<\/header>/, path);
      const answer = ok(await fx.api("PUT", "/frames/lx-base", { html: base("v2") }), "PUT lx-base");
      // The layout's own bake is reported apart (bake); rebaked lists the frames on it, transitively.
      assert.deepEqual(rebakedSlugs(answer), ["lx-deep", "lx-direct", "lx-live", "lx-mid"]);
      assert.equal(answer.bake.status, "ok");
      for (const [path, printed] of Object.entries(pages)) {
        const html = served(await fx.visit(path), path, printed);
        assert.match(html, /<body><header class="base">Base v2<\/header>/, path);
        assert.doesNotMatch(html, /Base v1/, path);
      }
      const deep = served(await fx.visit("/lx-deep-page/"), "deep");
      assert.match(deep, /<head><title>deep title<\/title><\/head>/);
      assert.match(deep, /<div class="mid"><p>deep page<\/p><\/div><footer>/);
      assert.match(
        served(await fx.visit("/lx-direct-page/"), "direct"),
        /<head><title>default title<\/title><\/head>.*<p>direct page<\/p><footer>/s,
      );
      assert.match(served(await fx.visit("/lx-live-page/"), "live"), /<div class="mid"><h1>lx-live-page<\/h1><\/div>/);
    });

    it("PUT of a page frame with a new svc/layout: its page prints inside the layout; the layout's next write reaches it", async () => {
      const path = await fx.shown("lx-own", "<p>own page</p>");
      assert.doesNotMatch((await fx.primed(path)).text, /header/);
      const answer = ok(
        await fx.api("PUT", "/frames/lx-own", { html: `${layout("lx-base")}<p>own page</p>` }),
        "PUT lx-own",
      );
      assert.equal(answer.frame.layout, "lx-base");
      assert.match(
        served(await fx.visit(path), path, "static"),
        /^<!doctype html><html><head><title>default title<\/title><\/head><body><header class="base">Base v\d<\/header><p>own page<\/p><footer>/,
      );
      await fx.primed(path);
      const again = ok(await fx.api("PUT", "/frames/lx-base", { html: base("v3") }), "PUT lx-base");
      assert.ok(rebakedSlugs(again).includes("lx-own"), JSON.stringify(rebakedSlugs(again)));
      assert.match(
        served(await fx.visit(path), path, "static"),
        /<header class="base">Base v3<\/header><p>own page<\/p>/,
      );
    });
  });

  describe("active menu state", () => {
    const host = "current.localhost";
    let site: number;
    const ids: Record<string, number> = {};
    const paths = { top: "/cm-top/", kid: "/cm-kid/", grand: "/cm-grand/", other: "/cm-other/" };
    const items = (extra: unknown[] = []) => [
      { page: ids.top, children: [{ page: ids.kid, children: [{ page: ids.grand }] }] },
      { page: ids.other },
      ...extra,
    ];
    /** The menu on `path`'s static copy. */
    const menuAt = async (path: string) => menuOf(served(await fx.visit(path, host), path, "static"));

    before(async () => {
      site = await fx.site("Current", host);
      // Page-independent: baked once, each page's static copy marks its own item.
      await fx.frame(
        "cm-nav",
        `<nav class="menu"><!-- svc/menu {"location": "header"} /--></nav><p>same for every page</p>`,
        site,
      );
      for (const name of ["top", "kid", "grand", "other"]) ids[name] = await fx.page(`cm-${name}`, "cm-nav", {}, site);
      ok(await fx.api("POST", "/menus", { name: "Header", location: "header", items: items() }, site), "menu", 201);
    });

    it("a menu on a page-independent frame: each page's static copy marks its own item (aria-current, is-current) and the items above it (is-ancestor); after a menu write each page still marks its own", async () => {
      const expected = {
        [paths.top]: ["cm-top [is-current] *", "  cm-kid", "    cm-grand", "cm-other"],
        [paths.kid]: ["cm-top [is-ancestor]", "  cm-kid [is-current] *", "    cm-grand", "cm-other"],
        [paths.grand]: ["cm-top [is-ancestor]", "  cm-kid [is-ancestor]", "    cm-grand [is-current] *", "cm-other"],
        [paths.other]: ["cm-top", "  cm-kid", "    cm-grand", "cm-other [is-current] *"],
      };
      for (const [path, menu] of Object.entries(expected)) {
        assert.deepEqual(menuOf((await fx.primed(path, host)).text), menu, path);
        assert.deepEqual(await menuAt(path), menu, path);
      }
      // No marker of the bake is left in a page's copy.
      for (const path of Object.keys(expected))
        assert.doesNotMatch(served(await fx.visit(path, host), path), /[\uE000\uE001]/);

      // A menu write (new links, one of them to /cm-top/; a new title): every page prints the new
      // tree and marks its own items, the link to its address too.
      const answer = ok(
        await fx.api(
          "PUT",
          "/menus/header/items",
          {
            items: [
              ...items([
                { url: "https://example.com/", title: "Elsewhere" },
                { url: "/cm-top/", title: "Top by link" },
              ]),
            ].map((item: any) => (item.page === ids.other ? { ...item, title: "Other, renamed" } : item)),
          },
          site,
        ),
        "PUT items",
      );
      assert.deepEqual(rebakedSlugs(answer), ["cm-nav"]);
      const renamed = (path: string, menu: string[]) => [
        ...menu.map((line) => line.replace("cm-other", "Other, renamed")),
        "Elsewhere",
        path === paths.top ? "Top by link [is-current] *" : "Top by link",
      ];
      for (const [path, menu] of Object.entries(expected))
        assert.deepEqual(await menuAt(path), renamed(path, menu), path);
    });

    it("PATCH /pages slug: the mark moves with the page to its new address; the other pages link there unmarked", async () => {
      for (const path of Object.values(paths)) await fx.primed(path, host);
      ok(await fx.api("PATCH", `/pages/${ids.kid}`, { slug: "cm-kid-moved" }, site), "PATCH slug");
      redirected(await fx.visit(paths.kid, host), "old address", "/cm-kid-moved/");
      const html = served(await fx.visit("/cm-kid-moved/", host), "new address", "static");
      assert.deepEqual(menuOf(html).slice(0, 3), ["cm-top [is-ancestor]", "  cm-kid [is-current] *", "    cm-grand"]);
      assert.match(
        html,
        /<a href="http:\/\/current\.localhost(:\d+)?\/cm-kid-moved\/" aria-current="page">cm-kid<\/a>/,
      );
      assert.deepEqual((await menuAt(paths.grand)).slice(0, 3), [
        "cm-top [is-ancestor]",
        "  cm-kid [is-ancestor]",
        "    cm-grand [is-current] *",
      ]);
      const top = served(await fx.visit(paths.top, host), paths.top, "static");
      assert.deepEqual(menuOf(top).slice(0, 3), ["cm-top [is-current] *", "  cm-kid", "    cm-grand"]);
      assert.match(top, /<li><a href="http:\/\/current\.localhost(:\d+)?\/cm-kid-moved\/">cm-kid<\/a>/);
    });
  });
});
