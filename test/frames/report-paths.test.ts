// reportFor looks only at the frames a write reaches (a fast path for large sites); it must
// answer exactly what the analysis among all the site's frames answers.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { compileFrame } from "../../src/markup/index.ts";
import { DependencyIndex, type FrameNode } from "../../src/effects/dependency-index.ts";
import { reportAmong, reportFor } from "../../src/frames/report.ts";
import { ServiceError } from "../../src/errors.ts";

const idOf = (i: number) => i.toString(16).padStart(16, "a");
const slugOf = (i: number) => `f-${i}`;

function outcome(run: () => ReturnType<typeof reportFor>) {
  try {
    const r = run();
    return {
      stored: r.stored,
      frameRefs: r.frameRefs,
      missing: r.frameRefsMissing,
      live: r.liveReasons,
      onRequest: r.rendersOnRequest,
    };
  } catch (error) {
    if (error instanceof ServiceError) return { error: error.code, details: error.details };
    throw error;
  }
}

/** A reference to frame `n` of `size`: by slug, by id, by an upper-cased slug, or to a slug no frame has. */
const refArb = (size: number) =>
  fc.tuple(fc.integer({ min: 0, max: size + 1 }), fc.constantFrom("slug", "id", "upper")).map(([n, how]) => {
    if (n >= size) return `missing-${n}`;
    return how === "id" ? idOf(n) : how === "upper" ? slugOf(n).toUpperCase() : slugOf(n);
  });

const siteArb = fc.integer({ min: 1, max: 9 }).chain((size) =>
  fc.record({
    size: fc.constant(size),
    frames: fc.array(
      fc.record({ refs: fc.array(refArb(size), { maxLength: 3 }), live: fc.boolean(), reads: fc.boolean() }),
      { minLength: size, maxLength: size },
    ),
    write: fc.record({
      target: fc.integer({ min: 0, max: size }), // `size`: a new frame
      refs: fc.array(
        fc.tuple(
          refArb(size),
          fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary: refArb(size), weight: 1 }),
        ),
        { maxLength: 4 },
      ),
      live: fc.boolean(),
    }),
  }),
);

describe("frame analysis in the site", () => {
  it("the fast path (frames reached only) answers as the analysis among every frame does", () => {
    fc.assert(
      fc.property(siteArb, ({ size, frames, write }) => {
        const nodes: FrameNode[] = frames.map((f, i) => ({
          id: idOf(i),
          slug: slugOf(i),
          sources: f.reads ? ["site"] : [],
          refs: [...new Set(f.refs)],
          liveReasons: f.live ? ["page.title"] : [],
        }));
        const id = write.target < size ? idOf(write.target) : idOf(1000);
        const slug = write.target < size ? slugOf(write.target) : "new-frame";
        // An insert with a second key naming the same or another frame (frame_ref_conflict).
        const inserts = write.refs.map(
          ([main, alias]) =>
            `<!-- svc/frame ${JSON.stringify(alias === undefined ? { name: main } : { name: main, ref: alias })} /-->`,
        );
        const html = `<div>${inserts.join("")}${write.live ? `<p data-op-bind='{"text": "page.title"}'></p>` : ""}</div>`;
        const fast = outcome(() =>
          reportFor(html, id, slug, new DependencyIndex(nodes), write.target < size ? slug : undefined),
        );
        const full = outcome(() =>
          reportAmong(compileFrame(html), id, slug, nodes, write.target < size ? slug : undefined),
        );
        assert.deepEqual(fast, full);
      }),
      { numRuns: 600 },
    );
  });
});
