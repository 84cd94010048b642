// The layer rules of docs/architecture.md, checked with dependency-cruiser (.dependency-cruiser.cjs):
// the real tree passes, and a tree with a back import fails naming the rule it breaks.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { cruise, cruiseTree, ROOT } from "./support/cruise.ts";

describe("layers", () => {
  it("every import in src/ points down the layers or stays in its folder", () => {
    const { status, output } = cruise(ROOT);
    assert.equal(status, 0, output);
  });

  it("a back import fails with the rule of the layer it starts from, type imports included", () => {
    const { status, output } = cruiseTree({
      "src/publish/engine.ts": "export type Run = { id: number };\n",
      "src/pages/queries.ts": 'import type { Run } from "../publish/engine.ts";\nexport const runs: Run[] = [];\n',
    });
    assert.notEqual(status, 0);
    assert.match(output, /layers\/pages/);
    assert.match(output, /src\/pages\/queries\.ts → src\/publish\/engine\.ts/);
  });

  it("a feature importing a later feature fails, and so does a service importing Fastify", () => {
    const { status, output } = cruiseTree({
      "src/menus/queries.ts": "export const MENUS = 1;\n",
      "src/pages/service.ts":
        'import { MENUS } from "../menus/queries.ts";\nimport type { FastifyInstance } from "fastify";\nexport const x: FastifyInstance | number = MENUS;\n',
    });
    assert.notEqual(status, 0);
    assert.match(output, /layers\/pages/);
    assert.match(output, /fastify-only-in-http/);
  });

  it("a new top-level folder must be given its place", () => {
    const { status, output } = cruiseTree({
      "src/store/database.ts": "export const db = 1;\n",
      "src/gallery/service.ts": 'import { db } from "../store/database.ts";\nexport const y = db;\n',
    });
    assert.notEqual(status, 0);
    assert.match(output, /layers\/unplaced/);
  });
});
