// The nesting bound checked before lightningcss parses a stylesheet (src/styles/nesting.ts): it
// counts blocks, parentheses and brackets, not the ones inside comments, strings or escapes, and
// names the place where the nesting first goes too deep.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { MAX_CSS_NESTING, tooDeepAt } from "../../src/styles/nesting.ts";

describe("CSS nesting bound", () => {
  it("64 levels pass; the 65th is named at its line and column", () => {
    assert.equal(tooDeepAt("a{".repeat(64) + "}".repeat(64)), null);
    assert.deepEqual(tooDeepAt("a{".repeat(65)), { line: 1, column: 64 * 2 + 2 });
    assert.deepEqual(tooDeepAt(`/* x\n */\n${"(".repeat(65)}`), { line: 3, column: 65 });
  });

  it("brackets inside comments, strings and escapes do not count", () => {
    const hidden = `/* ${"{".repeat(100)} */ a{content:"${"(".repeat(100)}"; b:'${"[".repeat(100)}'} .x\\{${"\\{".repeat(100)}{}`;
    assert.equal(tooDeepAt(hidden), null);
  });

  it("closing brackets never take the depth below zero", () => {
    assert.equal(tooDeepAt("}".repeat(200) + "a{".repeat(64)), null);
  });

  it("property: never throws; the depth reported is exact for generated nesting", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.integer({ min: 0, max: 200 }), (noise, depth) => {
        tooDeepAt(noise);
        const css = "a{".repeat(depth) + "}".repeat(depth);
        assert.equal(tooDeepAt(css) === null, depth <= MAX_CSS_NESTING);
      }),
    );
  });
});
