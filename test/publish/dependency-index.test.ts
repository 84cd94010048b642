import { framesAffected } from "../../src/effects/effects.ts";
import type { Change } from "../../src/write/change.ts";
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { DependencyIndex, type FrameNode } from "../../src/effects/dependency-index.ts";

const node = (
  slug: string,
  refs: string[] = [],
  sources: string[] = [],
  liveReasons: string[] = [],
  id = `id-${slug}`,
): FrameNode => ({
  id,
  slug,
  refs,
  sources,
  liveReasons,
});

describe("dependency index", () => {
  it("a diamond: the shared leaf's change reaches both sides and the top exactly once", () => {
    const index = new DependencyIndex([
      node("top", ["left", "right"]),
      node("left", ["leaf"]),
      node("right", ["leaf"]),
      node("leaf", [], ["menu.header"]),
    ]);
    assert.deepEqual(index.embeddersOf(["leaf"]), ["left", "right", "top"]);
    const affected = framesAffected(index, [{ kind: "frame", frameId: "id-leaf", slug: "leaf" }]);
    assert.deepEqual([...affected.keys()].sort(), ["leaf", "left", "right", "top"]);
    assert.deepEqual(affected.get("top"), ["frame leaf"]);
    assert.deepEqual([...index.effectiveSources("top")], ["menu.header"]);
  });

  it("a long chain of 5,000 frames resolves transitively without recursion limits or quadratic work", () => {
    const frames = Array.from({ length: 5000 }, (_, i) =>
      node(`f${i}`, i < 4999 ? [`f${i + 1}`] : [], i === 4999 ? ["data.team"] : []),
    );
    const index = new DependencyIndex(frames);
    assert.equal(index.embeddersOf(["f4999"]).length, 4999);
    const affected = framesAffected(index, [{ kind: "dataset", name: "team" }]);
    assert.equal(affected.size, 5000, "every frame above the reader reads the data set through it");
  });

  it("references by id resolve to the frame's slug; unknown values are slugs, lower-cased", () => {
    const index = new DependencyIndex([
      node("card", [], [], [], "0123456789abcdef"),
      node("list", ["0123456789abcdef", "Missing-One"]),
    ]);
    assert.deepEqual(index.embeddedSlugs("list"), ["card", "missing-one"]);
    assert.deepEqual(index.directEmbedders("card"), ["list"]);
    assert.deepEqual(
      index.directEmbedders("missing-one"),
      ["list"],
      "embedders of a missing slug are known, for when it appears",
    );
  });

  it("renders on request when the frame or anything it embeds depends on the page, naming each cause", () => {
    const index = new DependencyIndex([
      node("page-frame", ["article__body", "nav"], [], []),
      node("article__body", [], ["page"], ["bind page.title"]),
      node("nav", [], ["menu.header"]),
    ]);
    assert.deepEqual(index.liveReasons("page-frame"), ["frame article__body"]);
    assert.deepEqual(index.liveReasons("article__body"), ["bind page.title"]);
    assert.equal(index.rendersOnRequest("nav"), false);
  });

  it("a cycle is found through existing frames, including a frame that waits for the new slug", () => {
    const index = new DependencyIndex([node("a", ["b"]), node("c", ["a"])]);
    assert.deepEqual(index.cycleThrough("b", ["c"]), ["b", "c", "a", "b"]);
    assert.deepEqual(index.cycleThrough("x", ["x"]), ["x", "x"]);
    assert.equal(index.cycleThrough("b", ["d"]), null);
  });

  it("settings changes reach frames reading site.* or settings.*; data sets only their readers; menus every menu reader", () => {
    const index = new DependencyIndex([
      node("s", [], ["site"]),
      node("t", [], ["settings"]),
      node("d", [], ["data.team"]),
      node("m", [], ["menu.footer_1"]),
      node("p", [], ["pages"]),
    ]);
    assert.deepEqual([...framesAffected(index, [{ kind: "settings" }]).keys()].sort(), ["s", "t"]);
    assert.deepEqual([...framesAffected(index, [{ kind: "dataset", name: "team" }]).keys()], ["d"]);
    assert.deepEqual([...framesAffected(index, [{ kind: "dataset", name: "other" }]).keys()], []);
    assert.deepEqual([...framesAffected(index, [{ kind: "menu", menuId: 1 }]).keys()], ["m"]);
    assert.deepEqual([...framesAffected(index, [{ kind: "page", pageId: 1 }]).keys()], ["p"]);
    assert.equal(framesAffected(index, [{ kind: "languages" }]).size, 5);
  });

  it("a menu change with its locations reaches only the readers of those locations (directly or embedded); without locations every menu reader", () => {
    const index = new DependencyIndex([
      node("head", [], ["menu.header"]),
      node("foot3", [], ["menu.footer_3"]),
      node("both", [], ["menu.header", "menu.footer_1"]),
      node("outer", ["foot3"]),
      node("data", [], ["data.footer_3"]),
    ]);
    const affected = (change: Change) => [...framesAffected(index, [change]).keys()].sort();
    assert.deepEqual(affected({ kind: "menu", menuId: 1, locations: ["footer_3"] }), ["foot3", "outer"]);
    assert.deepEqual(affected({ kind: "menu", menuId: 1, locations: ["header", "footer_1"] }), ["both", "head"]);
    assert.deepEqual(affected({ kind: "menu", menuId: 1, locations: ["footer_2"] }), []);
    // A menu in no location prints nowhere.
    assert.deepEqual(affected({ kind: "menu", menuId: 1, locations: [] }), []);
    assert.deepEqual(affected({ kind: "menu", menuId: 1 }), ["both", "foot3", "head", "outer"]);
    assert.deepEqual(framesAffected(index, [{ kind: "menu", menuId: 1, locations: ["footer_3"] }]).get("foot3"), [
      "menus",
    ]);
    // The theme rule stays: a new theme reaches every menu reader.
    assert.deepEqual(affected({ kind: "settings", keys: ["theme"] }), ["both", "foot3", "head", "outer"]);
  });

  it("a new default language reaches frames reading the page too: a page without a language is shown in the default one (page.lang)", () => {
    const index = new DependencyIndex([
      node("s", [], ["site"]),
      node("l", [], ["page"], ["bind page.lang"]),
      node("outer", ["l"]),
      node("m", [], ["menu.header"]),
    ]);
    assert.deepEqual([...framesAffected(index, [{ kind: "settings", keys: ["default_lang"] }]).keys()].sort(), [
      "l",
      "outer",
      "s",
    ]);
    assert.deepEqual([...framesAffected(index, [{ kind: "settings", keys: ["tagline"] }]).keys()], ["s"]);
  });

  it("a deleted frame's change reaches frames that named it by id", () => {
    const index = new DependencyIndex([node("outer", ["00000000000000bb"])]);
    const affected = framesAffected(index, [{ kind: "frame", frameId: "00000000000000bb", slug: "inner" }]);
    assert.deepEqual([...affected.entries()], [["outer", ["frame inner"]]]);
  });

  it("a media change reaches the frames reading media.<any of its refs> (id, slug, former slug), directly or embedded, and no other", () => {
    const index = new DependencyIndex([
      node("by-id", [], ["media.7"]),
      node("by-slug", [], ["media.hero"]),
      node("by-old-slug", [], ["media.old-hero"]),
      node("outer", ["by-slug"]),
      node("other", [], ["media.logo", "media.70", "data.hero"]),
    ]);
    const affected = framesAffected(index, [{ kind: "media", mediaId: 7, refs: ["7", "hero", "old-hero"] }]);
    assert.deepEqual([...affected.keys()].sort(), ["by-id", "by-old-slug", "by-slug", "outer"]);
    assert.deepEqual(affected.get("outer"), ["media.hero"], "why: the source that matched");
    assert.deepEqual([...framesAffected(index, [{ kind: "media", mediaId: 9, refs: ["9", "unused"] }]).keys()], []);
  });

  it("cycles in stored data never hang the walks", () => {
    const index = new DependencyIndex([
      node("a", ["b"], ["site"]),
      node("b", ["a"], ["settings"], ["insert op/lang-switcher"]),
    ]);
    assert.deepEqual([...index.effectiveSources("a")].sort(), ["settings", "site"]);
    assert.deepEqual(index.embeddersOf(["a"]), ["a", "b"]);
    assert.ok(index.rendersOnRequest("a"));
  });
});
