// The stylesheet compiler and import graph on their own (src/styles/css.ts, graph.ts): what a
// parse finds and where, what a bundle prints, which stylesheets a change reaches; and the
// dependency index mapping a style change to the frames linking those stylesheets.
import { framesAffected } from "../../src/effects/effects.ts";
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ServiceError } from "../../src/errors.ts";
import { bundleStylesheet, CssBudget, parseStylesheet } from "../../src/styles/css.ts";
import { importClosure, importCycle, importersOf } from "../../src/styles/graph.ts";
import { DependencyIndex } from "../../src/effects/dependency-index.ts";
import { compileFrame } from "../../src/markup/index.ts";

/** The worker time of one write of site 1. */
const budget = () => new CssBudget(1);

async function refusal(run: () => Promise<unknown>): Promise<ServiceError> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof ServiceError);
    assert.equal(error.code, "invalid_css");
    return error;
  }
  assert.fail("not refused");
}

describe("parseStylesheet", () => {
  it("lists the stylesheets imported and the media refs, each at its 1-based line and column (UTF-16)", async () => {
    const parsed = await parseStylesheet(
      `@import "reset";\n  @import url(theme) screen;\n@import url("https://fonts.example/x.css");\n.é { background: url(media:hero) }\n.b{background:url( "media:12" )}`,
      budget(),
    );
    assert.deepEqual(parsed.imports, [
      { name: "reset", line: 1, column: 1 },
      { name: "theme", line: 2, column: 3 },
    ]);
    assert.deepEqual(parsed.media, [
      { ref: "hero", line: 4, column: 18 },
      { ref: "12", line: 5, column: 15 },
    ]);
  });

  it("a parser error is refused at its place with the parser's text; so are imports of anything but a name or an http(s) address", async () => {
    const error = await refusal(() => parseStylesheet("a{}\n😀]{}", budget()));
    assert.deepEqual([error.details.line, error.details.column], [2, 3]);
    assert.match(error.message, /CloseSquareBracket/);
    for (const css of [`@import "a.css";`, `@import "Upper";`, `@import url(/x.css);`, `@import "ftp://x/y.css";`]) {
      const refused = await refusal(() => parseStylesheet(css, budget()));
      assert.deepEqual([refused.details.line, refused.details.column], [1, 1], css);
    }
    assert.deepEqual((await parseStylesheet(`@import "//cdn.example/x.css";`, budget())).imports, []);
  });
});

describe("bundleStylesheet", () => {
  it("inlines imports in their place, turns media refs into addresses, minifies; an import of a stylesheet gone prints nothing", async () => {
    const sheets = new Map([
      [
        "main",
        `@import "reset";\n@import "gone";\n@import "print" print;\n.hero { background: url(media:hero); color: #ff0000 }\n.x{background:url(media:nowhere)}`,
      ],
      ["reset", "* { margin: 0 }"],
      ["print", "a { color: black }"],
    ]);
    const css = await bundleStylesheet(
      "main",
      sheets,
      new Map([["hero", "/media/0123456789abcdef/hero.png"]]),
      budget(),
    );
    assert.equal(
      css,
      "*{margin:0}@media print{a{color:#000}}.hero{color:red;background:url(/media/0123456789abcdef/hero.png)}.x{background:url(media:nowhere)}",
    );
  });
});

describe("import graph", () => {
  const imports = new Map<string, string[]>([
    ["main", ["reset", "theme"]],
    ["theme", ["colors"]],
    ["colors", []],
    ["reset", []],
    ["print", ["colors", "missing"]],
    ["loop-a", ["loop-b"]],
    ["loop-b", ["loop-a"]],
  ]);

  it("a closure holds the stylesheet and everything it reads, missing names too; stored cycles end", () => {
    assert.deepEqual(importClosure("main", imports), ["colors", "main", "reset", "theme"]);
    assert.deepEqual(importClosure("print", imports), ["colors", "missing", "print"]);
    assert.deepEqual(importClosure("loop-a", imports), ["loop-a", "loop-b"]);
  });

  it("importers are every stylesheet reading it, through others too, without the names given", () => {
    assert.deepEqual(importersOf(["colors"], imports), ["main", "print", "theme"]);
    assert.deepEqual(importersOf(["main"], imports), []);
    assert.deepEqual(importersOf(["loop-a"], imports), ["loop-b"]);
  });

  it("a new import closing a cycle is found with its path; one that does not is null", () => {
    assert.deepEqual(importCycle("colors", "main", imports), ["colors", "main", "theme", "colors"]);
    assert.deepEqual(importCycle("reset", "reset", imports), ["reset", "reset"]);
    assert.equal(importCycle("reset", "colors", imports), null);
  });
});

describe("dependency index: a style change", () => {
  const node = (slug: string, html: string) => {
    const { analysis } = compileFrame(html);
    return {
      id: `id-${slug}`,
      slug,
      sources: analysis.sources,
      refs: analysis.frame_refs.flatMap((f) => f.keys.map((k) => k[1])),
      liveReasons: analysis.live_reasons,
    };
  };
  const index = new DependencyIndex([
    node("head", `<!-- svc/styles {"names": ["reset", "main"]} /-->`),
    node("page", `<!-- svc/frame {"name": "head"} /--><p>x</p>`),
    node("other", `<!-- svc/styles {"name": "other"} /-->`),
    node("plain", `<p>nothing</p>`),
  ]);

  it("reaches exactly the frames linking one of the names, directly or through an embedded frame", () => {
    assert.deepEqual(
      [...framesAffected(index, [{ kind: "style", theme: "default", names: ["main"] }])],
      [
        ["head", ["style.main"]],
        ["page", ["style.main"]],
      ],
    );
    assert.deepEqual([...framesAffected(index, [{ kind: "style", theme: "default", names: ["nobody"] }])], []);
    assert.deepEqual(
      [...framesAffected(index, [{ kind: "style", theme: "default", names: ["reset", "other"] }]).keys()].sort(),
      ["head", "other", "page"],
    );
  });

  it("a new theme setting reaches every frame linking a stylesheet", () => {
    assert.deepEqual([...framesAffected(index, [{ kind: "settings", keys: ["theme"] }]).keys()].sort(), [
      "head",
      "other",
      "page",
    ]);
  });
});
