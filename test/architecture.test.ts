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
      "src/pages/queries.ts": "export type PageRow = { id: number };\n",
      "src/publish/engine.ts": 'import type { PageRow } from "../pages/queries.ts";\nexport const rows: PageRow[] = [];\n',
    });
    assert.notEqual(status, 0);
    assert.match(output, /layers\/publish/);
    assert.match(output, /src\/publish\/engine\.ts → src\/pages\/queries\.ts/);
  });

  it("a feature importing a later feature fails, and so does a service importing Fastify", () => {
    const { status, output } = cruiseTree({
      "src/menus/queries.ts": "export const MENUS = 1;\n",
      "src/pages/service.ts": 'import { MENUS } from "../menus/queries.ts";\nimport type { FastifyInstance } from "fastify";\nexport const x: FastifyInstance | number = MENUS;\n',
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
