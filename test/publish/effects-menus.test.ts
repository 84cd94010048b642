// Effect table, menus (menus, items, locations) and data sets, shared and per language, one
// standing in for a missing menu (docs/publishing.md; pattern in effects-helpers.ts).
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { effects, linkTitles, ok, served, suite } from "./effects-helpers.ts";

const menuAt = (location: string) => `<nav class="${location}"><!-- svc/menu {"location": "${location}"} /--></nav>`;
/** The titles of the links the menu at `location` prints on a page. */
const printed = (html: string, location: string) =>
  linkTitles(new RegExp(`<nav class="${location}">(.*?)</nav>`, "s").exec(html)?.[1] ?? "");
const team = `<ul class="team"><!-- svc/repeat {"source": "team"} --><li data-op-bind='{"text": "item.name"}'></li><!-- /svc/repeat --></ul><p class="lead" data-op-bind='{"text": "data.team.0.name"}'></p>`;
const members = (html: string) => [...html.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]);

describe(suite("menus and data sets"), () => {
  const fx = effects();
  before(async () => {
    await fx.frame("mx-menus", `${menuAt("header")}${menuAt("footer_1")}`);
    await fx.page("mx-menus-page", "mx-menus");
  });
  const header = async () => printed(served(await fx.visit("/mx-menus-page/"), "/mx-menus-page/", "static"), "header");
  const primedHeader = async () => printed((await fx.primed("/mx-menus-page/")).text, "header");

  it("POST /menus with a location: pages printing that location print the new menu", async () => {
    assert.deepEqual(await primedHeader(), []);
    ok(
      await fx.api("POST", "/menus", {
        name: "Main",
        location: "header",
        items: [
          { url: "/a", title: "Alpha" },
          { url: "/b", title: "Beta" },
        ],
      }),
      "POST menu",
      201,
    );
    assert.deepEqual(await header(), ["Alpha", "Beta"]);
  });

  it("PATCH /menus name: a menu's name and slug print nowhere, so pages keep their static copy as it was", async () => {
    const was = (await fx.primed("/mx-menus-page/")).text;
    const answer = ok(await fx.api("PATCH", "/menus/main", { name: "Main renamed" }), "PATCH menu");
    assert.equal(answer.menu.name, "Main renamed");
    const after = await fx.visit("/mx-menus-page/");
    assert.equal(served(after, "/mx-menus-page/", "static"), was);
  });

  it("PUT /menus/{ref}/items: pages printing the menu print the new tree", async () => {
    assert.deepEqual(await primedHeader(), ["Alpha", "Beta"]);
    ok(
      await fx.api("PUT", "/menus/main/items", {
        items: [
          { url: "/g", title: "Gamma" },
          { url: "/d", title: "Delta", children: [{ url: "/e", title: "Epsilon" }] },
        ],
      }),
      "PUT items",
    );
    assert.deepEqual(await header(), ["Gamma", "Delta", "Epsilon"]);
  });

  it("menu items one by one (POST, PATCH, DELETE, reorder): pages printing the menu print each change", async () => {
    const tree = ok(
      await fx.api("PUT", "/menus/main/items", {
        items: [
          { url: "/one", title: "One" },
          { url: "/two", title: "Two" },
        ],
      }),
      "PUT items",
    );
    const [one, two] = tree.items.map((item: { id: number }) => item.id);
    assert.deepEqual(await primedHeader(), ["One", "Two"]);
    const added = ok(await fx.api("POST", "/menus/main/items", { url: "/three", title: "Three" }), "POST item", 201);
    assert.deepEqual(await header(), ["One", "Two", "Three"]);
    await primedHeader();
    ok(await fx.api("PATCH", `/menus/main/items/${two}`, { title: "Two, renamed" }), "PATCH item");
    assert.deepEqual(await header(), ["One", "Two, renamed", "Three"]);
    await primedHeader();
    ok(await fx.api("POST", "/menus/main/reorder", { order: [added.item.id, one] }), "reorder");
    assert.deepEqual(await header(), ["Three", "One", "Two, renamed"]);
    await primedHeader();
    ok(await fx.api("DELETE", `/menus/main/items/${one}`), "DELETE item");
    assert.deepEqual(await header(), ["Three", "Two, renamed"]);
  });

  it("PUT and DELETE /menus/{ref}/location: the location it leaves prints nothing, the one it takes prints it", async () => {
    const footer = async (primed: boolean) =>
      printed((primed ? await fx.primed("/mx-menus-page/") : await fx.visit("/mx-menus-page/")).text, "footer_1");
    ok(
      await fx.api("POST", "/menus", { name: "Roaming", items: [{ url: "/r", title: "Roaming link" }] }),
      "POST menu",
      201,
    );
    assert.deepEqual(await footer(true), []);
    ok(await fx.api("PUT", "/menus/roaming/location", { location: "footer_1" }), "PUT location");
    assert.deepEqual(await footer(false), ["Roaming link"]);
    assert.equal((await fx.visit("/mx-menus-page/")).headers["x-svc-printed"], "static");
    await footer(true);
    ok(await fx.api("DELETE", "/menus/roaming/location?location=footer_1"), "DELETE location");
    assert.deepEqual(await footer(false), []);
  });

  it("DELETE /menus/{ref}: pages printing its location print nothing there", async () => {
    assert.notDeepEqual(await primedHeader(), []);
    ok(await fx.api("DELETE", "/menus/main"), "DELETE menu");
    assert.deepEqual(await header(), []);
  });

  it("menu locations per language (PUT /menus/{ref}/location with lang): pages in that language print its menu, the others keep theirs", async () => {
    const site = await fx.site("Menus per language", "menus.localhost");
    const host = "menus.localhost";
    for (const code of ["en", "de"]) ok(await fx.api("POST", "/languages", { code }, site), `language ${code}`, 201);
    await fx.frame("mx-menus", menuAt("header"), site);
    await fx.page("mx-menus-en", "mx-menus", { lang: "en" }, site);
    await fx.page("mx-menus-de", "mx-menus", { lang: "de" }, site);
    ok(
      await fx.api(
        "POST",
        "/menus",
        { name: "English", location: "header", items: [{ url: "/en-link", title: "English link" }] },
        site,
      ),
      "English menu",
      201,
    );
    ok(
      await fx.api("POST", "/menus", { name: "Deutsch", items: [{ url: "/de-link", title: "Deutscher Link" }] }, site),
      "German menu",
      201,
    );
    assert.deepEqual(printed((await fx.primed("/mx-menus-en/", host)).text, "header"), ["English link"]);
    assert.deepEqual(printed((await fx.primed("/de/mx-menus-de/", host)).text, "header"), []);
    ok(await fx.api("PUT", "/menus/deutsch/location", { location: "header", lang: "de" }, site), "PUT location de");
    assert.deepEqual(printed(served(await fx.visit("/de/mx-menus-de/", host), "de", "static"), "header"), [
      "Deutscher Link",
    ]);
    assert.deepEqual(printed(served(await fx.visit("/mx-menus-en/", host), "en", "static"), "header"), [
      "English link",
    ]);
  });

  it("a menu change reaches only the locations the menu holds: a page printing another location keeps its static copy", async () => {
    const site = await fx.site("Locations", "locations.localhost");
    const host = "locations.localhost";
    await fx.frame("mx-head", menuAt("header"), site);
    await fx.frame("mx-foot", menuAt("footer_3"), site);
    const headPage = await fx.page("mx-head-page", "mx-head", {}, site);
    const footPage = await fx.page("mx-foot-page", "mx-foot", {}, site);
    const linked = await fx.page("mx-linked", null, {}, site);
    ok(
      await fx.api(
        "POST",
        "/menus",
        { name: "Top", location: "header", items: [{ url: "/top", title: "Top link" }] },
        site,
      ),
      "header menu",
      201,
    );
    ok(
      await fx.api("POST", "/menus", { name: "Bottom", location: "footer_3", items: [{ page: linked }] }, site),
      "footer_3 menu",
      201,
    );
    const primed = async () => [
      (await fx.primed("/mx-head-page/", host)).text,
      (await fx.primed("/mx-foot-page/", host)).text,
    ];
    const untouched = (rebaked: { frames: Array<{ slug: string }>; pages: number[] }) => {
      assert.ok(!rebaked.frames.some((frame) => frame.slug === "mx-head"), JSON.stringify(rebaked.frames));
      assert.ok(!rebaked.pages.includes(headPage), JSON.stringify(rebaked.pages));
    };

    // An item appended to the footer_3 menu: only the footer_3 page prints anew.
    let [head] = await primed();
    const added = ok(
      await fx.api("POST", "/menus/bottom/items", { url: "/more", title: "More" }, site),
      "POST item",
      201,
    );
    untouched(added.rebaked);
    assert.ok(added.rebaked.pages.includes(footPage), JSON.stringify(added.rebaked.pages));
    assert.equal(served(await fx.visit("/mx-head-page/", host), "header page", "static"), head);
    assert.deepEqual(printed(served(await fx.visit("/mx-foot-page/", host), "footer_3 page", "static"), "footer_3"), [
      "mx-linked",
      "More",
    ]);

    // A page the footer_3 menu shows gets a new title: the menus showing it, at their locations only.
    [head] = await primed();
    const retitled = ok(
      await fx.api("PATCH", `/pages/${linked}`, { title: "Linked, renamed" }, site),
      "PATCH page title",
    );
    untouched(retitled.rebaked);
    assert.equal(served(await fx.visit("/mx-head-page/", host), "header page", "static"), head);
    assert.deepEqual(printed(served(await fx.visit("/mx-foot-page/", host), "footer_3 page", "static"), "footer_3"), [
      "Linked, renamed",
      "More",
    ]);

    // Moved from footer_3 to header (PUT the new one, DELETE the old one): both locations print anew.
    await primed();
    ok(await fx.api("PUT", "/menus/bottom/location", { location: "header" }, site), "PUT location header");
    assert.deepEqual(printed(served(await fx.visit("/mx-head-page/", host), "header page", "static"), "header"), [
      "Linked, renamed",
      "More",
    ]);
    assert.deepEqual(printed(served(await fx.visit("/mx-foot-page/", host), "footer_3 page", "static"), "footer_3"), [
      "Linked, renamed",
      "More",
    ]);
    await primed();
    ok(await fx.api("DELETE", "/menus/bottom/location?location=footer_3", undefined, site), "DELETE location footer_3");
    assert.deepEqual(printed(served(await fx.visit("/mx-head-page/", host), "header page", "static"), "header"), [
      "Linked, renamed",
      "More",
    ]);
    assert.deepEqual(
      printed(served(await fx.visit("/mx-foot-page/", host), "footer_3 page", "static"), "footer_3"),
      [],
    );

    // A menu in no location prints nowhere: its items change, no frame is rebaked.
    const [headNow, footNow] = await primed();
    const idle = ok(
      await fx.api("PUT", "/menus/top/items", { items: [{ url: "/idle", title: "Idle" }] }, site),
      "PUT items of a menu in no location",
    );
    assert.deepEqual(idle.rebaked.frames, []);
    assert.equal(served(await fx.visit("/mx-head-page/", host), "header page", "static"), headNow);
    assert.equal(served(await fx.visit("/mx-foot-page/", host), "footer_3 page", "static"), footNow);
  });

  it("data set standing in for a missing menu: pages printing that menu location show its items", async () => {
    await fx.frame("mx-stand-in", menuAt("footer_3"));
    await fx.page("mx-stand-in-page", "mx-stand-in");
    ok(await fx.api("PUT", "/data/footer_3", { items: [{ title: "Stand-in one", url: "/one" }] }), "PUT data", 201);
    assert.deepEqual(linkTitles((await fx.primed("/mx-stand-in-page/")).text), ["Stand-in one"]);
    ok(await fx.api("PUT", "/data/footer_3", { items: [{ title: "Stand-in two", url: "/two" }] }), "PUT data again");
    assert.deepEqual(linkTitles(served(await fx.visit("/mx-stand-in-page/"), "stand-in", "static")), ["Stand-in two"]);
  });

  it("data sets shared and per language (PUT, DELETE): each page prints its language's variant, else the shared set", async () => {
    const site = await fx.site("Data", "data.localhost");
    const host = "data.localhost";
    for (const code of ["en", "de"]) ok(await fx.api("POST", "/languages", { code }, site), `language ${code}`, 201);
    await fx.frame("mx-team", team, site);
    await fx.page("mx-team-en", "mx-team", { lang: "en" }, site);
    await fx.page("mx-team-de", "mx-team", { lang: "de" }, site);
    const both = async (primed: boolean) => {
      const read = (path: string) => (primed ? fx.primed(path, host) : fx.visit(path, host));
      return [
        members(served(await read("/mx-team-en/"), "en", "static")),
        members(served(await read("/de/mx-team-de/"), "de", "static")),
      ];
    };
    assert.deepEqual(await both(true), [[], []]);
    ok(await fx.api("PUT", "/data/team", { items: [{ name: "Ann" }, { name: "Bob" }] }, site), "PUT shared", 201);
    assert.deepEqual(await both(false), [
      ["Ann", "Bob"],
      ["Ann", "Bob"],
    ]);
    assert.match((await fx.visit("/mx-team-en/", host)).text, /<p class="lead">Ann<\/p>/);
    await both(true);
    ok(await fx.api("PUT", "/data/team", { lang: "de", items: [{ name: "Anke" }] }, site), "PUT de", 201);
    assert.deepEqual(await both(false), [["Ann", "Bob"], ["Anke"]]);
    assert.match((await fx.visit("/de/mx-team-de/", host)).text, /<p class="lead">Anke<\/p>/);
    await both(true);
    ok(await fx.api("DELETE", "/data/team?lang=de", undefined, site), "DELETE de");
    assert.deepEqual(await both(false), [
      ["Ann", "Bob"],
      ["Ann", "Bob"],
    ]);
    await both(true);
    ok(await fx.api("DELETE", "/data/team", undefined, site), "DELETE shared");
    assert.deepEqual(await both(false), [[], []]);
    assert.match((await fx.visit("/mx-team-en/", host)).text, /<p class="lead"><\/p>/);
  });
});
