// docs/README.md is the index of the documentation: every page of docs/ and of the
// guide is sorted into exactly one of its four parts, and every link in the index and the guide
// leads to a file that exists.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const SECTIONS = ["## Tutorial", "## How-to guides", "## Reference", "## Design records"];

/** Pages other work is writing now; linked already, allowed to be missing until they land (none now). */
const PENDING = new Set<string>([]);

function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownUnder(path);
    return name.endsWith(".md") ? [path] : [];
  });
}

/** Relative links of a text found in `dir`, resolved from the repository root (anchors and web addresses left out). */
function linkTargets(text: string, dir: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1].split("#")[0])
    .filter((target) => target !== "" && !/^[a-z]+:/.test(target))
    .map((target) => normalize(join(dir, target)));
}

function links(file: string): string[] {
  return linkTargets(readFileSync(file, "utf8"), dirname(file));
}

describe("the documentation index", () => {
  const index = readFileSync("docs/README.md", "utf8");

  it("docs/README.md has the four parts, in order: Tutorial, How-to guides, Reference, Design records", () => {
    const found = index.split("\n").filter((l) => l.startsWith("## "));
    assert.deepEqual(found, SECTIONS);
  });

  it("every page of docs/ and of docs/guide/ is linked from exactly one part of the index", () => {
    const parts = index.split(/\n(?=## )/).filter((p) => p.startsWith("## "));
    const pages = [
      ...readdirSync("docs")
        .filter((f) => f.endsWith(".md") && f !== "README.md")
        .map((f) => join("docs", f)),
      ...markdownUnder("docs/guide"),
    ];
    for (const page of [...pages, ...PENDING]) {
      const holding = parts.filter((part) => linkTargets(part, "docs").includes(page));
      assert.equal(
        holding.length,
        1,
        `${page} is linked from ${holding.length} parts of docs/README.md (${holding.map((p) => p.split("\n")[0]).join(", ")})`,
      );
    }
  });

  it("every link in the index and in the guide leads to a file that exists (pages being written elsewhere excepted)", () => {
    for (const file of ["docs/README.md", ...markdownUnder("docs/guide")]) {
      for (const target of links(file)) {
        if (PENDING.has(target)) continue;
        assert.ok(existsSync(target), `${file} links to ${relative(".", target)}, which does not exist`);
      }
    }
  });
});
