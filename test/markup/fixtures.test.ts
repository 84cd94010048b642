// Data-driven fixtures: test/fixtures/markup/*.json. Each file holds markup, the data a
// render reads, the expected output and the expected parts of both reports. Every fixture
// is compiled and rendered once, whole; its "rule" is the test name.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compileFrame, renderFrame } from "../../src/markup/index.ts";
import type { MarkupWarning } from "../../src/markup/index.ts";
import { fixtureContext, joined, type FixtureContext } from "./fixture-context.ts";

interface Fixture {
  rule: string;
  markup: string | string[];
  /** Slug of the frame itself (to catch a frame embedding itself). */
  slug?: string;
  context?: FixtureContext;
  /** Expected output; omit to skip the comparison. */
  output?: string | string[];
  /** Expected render report fields (warnings as codes, or "code@at"). */
  render?: Record<string, unknown>;
  /** Expected analysis fields (warnings as codes, or "code@at"). */
  analysis?: Record<string, unknown>;
}

const dir = join(import.meta.dirname, "../fixtures/markup");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort();

/** Warnings compared by code, or by "code@offset" when the fixture gives an offset. */
function warningKeys(actual: MarkupWarning[], expected: unknown[]): string[] {
  return actual.map((w, i) => {
    const e = expected[i];
    return typeof e === "string" && e.includes("@") ? `${w.code}@${w.at}` : w.code;
  });
}

function compareFields(what: string, actual: Record<string, unknown>, expected: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(expected)) {
    if (key === "warnings") {
      const list = value as unknown[];
      assert.deepEqual(warningKeys(actual.warnings as MarkupWarning[], list), list, `${what}.warnings`);
    } else {
      assert.deepEqual(actual[key], value, `${what}.${key}`);
    }
  }
}

test("every fixture file is valid", () => {
  assert.ok(files.length > 0);
  for (const file of files) {
    const f = JSON.parse(readFileSync(join(dir, file), "utf8")) as Fixture;
    assert.equal(typeof f.rule, "string", file);
    assert.ok(f.markup !== undefined, file);
  }
});

for (const file of files) {
  const f = JSON.parse(readFileSync(join(dir, file), "utf8")) as Fixture;
  test(`${file.replace(/\.json$/, "")}: ${f.rule}`, () => {
    const markup = joined(f.markup);
    const compiled = compileFrame(markup);
    assert.equal(compiled.html, markup);
    if (f.analysis) compareFields("analysis", compiled.analysis as unknown as Record<string, unknown>, f.analysis);
    const result = renderFrame(compiled, fixtureContext(f.context), { slug: f.slug });
    if (f.output !== undefined) assert.equal(result.html, joined(f.output));
    if (f.render) compareFields("render", result as unknown as Record<string, unknown>, f.render);
  });
}
