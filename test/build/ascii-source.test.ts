// The build writes the service's bundle in ASCII only (scripts/ascii-source.mjs), so Node reads it
// faster. Escaping what esbuild leaves (comments, regular-expression literals) must not change
// what the code does.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
// @ts-expect-error a build script (plain JavaScript), typed here by its use
import { asciiSource } from "../../scripts/ascii-source.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
const ASCII = /^[\x00-\x7f]*$/;

const run = (code: string): unknown => new Function(code)();
const forRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");

describe("the bundle in ASCII", () => {
  it("escaping leaves strings, templates, regular expressions (with and without /u) and comments meaning the same", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", minLength: 1, maxLength: 12 }),
        fc.string({ unit: "binary", maxLength: 12 }),
        (text, other) => {
          const code = [
            `// ${text.replace(/[\r\n\u2028\u2029]/g, " ")}`,
            `/* ${text.replaceAll("*/", "")} */`,
            `const literal = ${JSON.stringify(text)};`,
            `const template = \`${text.replace(/[`\\$]/g, "\\$&")}\`;`,
            `const unicode = /^(?:${forRegExp(text)})$/u;`,
            `const plain = /^(?:${forRegExp(text)})$/;`,
            `const inClass = /^[${forRegExp(text).replaceAll("-", "\\-")}]+$/u;`,
            `const samples = [${JSON.stringify(text)}, ${JSON.stringify(other)}, ${JSON.stringify(text + other)}];`,
            "return { literal, template, matches: samples.map((s) => [unicode.test(s), plain.test(s), inClass.test(s)]) };",
          ].join("\n");
          let original: unknown;
          try {
            original = run(code);
          } catch {
            return; // text that is no valid pattern (a lone surrogate under /u): nothing to compare
          }
          const escaped = asciiSource(code);
          assert.match(escaped, ASCII);
          assert.deepEqual(run(escaped), original);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a character right after a backslash stops the build instead of being escaped into another meaning", () => {
    assert.throws(() => asciiSource("const re = /\\é/;"), /backslash before "é" on line 1/);
    assert.equal(asciiSource("const re = /\\\\é/;"), "const re = /\\\\\\u00e9/;");
  });

  it("the built dist/server.cjs is ASCII only", () => {
    assert.match(readFileSync(`${ROOT}dist/server.cjs`, "latin1"), ASCII);
  });
});
