// The import graph's longest chain through a stylesheet (src/styles/graph.ts importDepth), which
// bounds how deep a bundle's @imports go: checked against a plain recursive walk of small random
// acyclic graphs, and on chains far deeper than any recursion could walk.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { importDepth, type ImportMap } from "../../src/styles/graph.ts";

/** The longest path (in steps) from `at` along `edges`, by plain recursion: the reference. */
function longest(at: string, edges: (name: string) => readonly string[]): number {
  let best = 0;
  for (const next of edges(at)) best = Math.max(best, 1 + longest(next, edges));
  return best;
}

/** A random acyclic import map over s0…s(n-1): a sheet imports only sheets with a larger number. */
const acyclic = fc
  .integer({ min: 1, max: 9 })
  .chain((n) =>
    fc.tuple(
      fc.constant(n),
      fc.array(fc.array(fc.boolean(), { minLength: n, maxLength: n }), { minLength: n, maxLength: n }),
    ),
  );

describe("styles: importDepth (the longest @import chain through a stylesheet)", () => {
  it("equals the longest chain of importers above it plus the longest chain its new imports start, on random acyclic graphs", () => {
    fc.assert(
      fc.property(acyclic, fc.nat(), ([n, matrix], pick) => {
        const names = Array.from({ length: n }, (_, i) => `s${i}`);
        const imports = new Map(names.map((name, i) => [name, names.filter((_, j) => j > i && matrix[i]![j])]));
        const name = names[pick % n]!;
        const targets = imports.get(name)!;
        const importedBy = (at: string) => names.filter((other) => imports.get(other)!.includes(at));
        const expected = longest(name, importedBy) + longest(name, (at) => imports.get(at)!);
        const { depth, through } = importDepth(name, targets, imports as ImportMap);
        assert.equal(depth, expected);
        if (targets.length === 0) assert.equal(through, null);
        else assert.equal(1 + longest(through!, (at) => imports.get(at)!), depth - longest(name, importedBy));
      }),
      { numRuns: 300 },
    );
  });

  it("walks a chain 100,000 stylesheets long without a deep stack", () => {
    const imports = new Map<string, string[]>();
    for (let i = 1; i < 100_000; i++) imports.set(`s${i}`, [`s${i - 1}`]);
    assert.deepEqual(importDepth("top", ["s99999"], imports), { depth: 100_000, through: "s99999" });
    assert.deepEqual(importDepth("s0", ["extra"], imports), { depth: 100_000, through: "extra" });
  });

  it("a cycle in stored data ends the walk instead of looping", () => {
    const imports = new Map([
      ["a", ["b"]],
      ["b", ["a"]],
    ]);
    const { depth } = importDepth("c", ["a"], imports);
    assert.ok(depth >= 1 && depth <= 3);
  });
});
