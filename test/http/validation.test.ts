import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { startTestApp, type TestApp } from "../support/app.ts";

// http/validation.ts compiles a route's schema at its first check rather than at start (cold
// start). These tests keep what compiling at start gave: a schema that cannot compile
// fails here, not on a user's first request.
describe("request schemas", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("every request schema of every route compiles", () => {
    const schemas = t.app.routesIndex.schemas();
    assert.ok(schemas.length > 50, `found ${schemas.length} schemas`);
    for (const { route, part, schema } of schemas) {
      assert.doesNotThrow(() => TypeCompiler.Compile(schema as TSchema), `${route} ${part} compiles`);
    }
  });

  it("a route's schema is compiled once and checks each later request the same way", async () => {
    for (let i = 0; i < 2; i++) {
      const wrong = await t.call("POST", "/api/sites", { body: { name: 5, domain: `wrong${i}.localhost` } });
      assert.equal(wrong.status, 400);
      assert.equal(wrong.body.error, "invalid_field");
    }
    const right = await t.call("POST", "/api/sites", { body: { name: "Checks", domain: "checks.localhost" } });
    assert.equal(right.status, 201);
    assert.equal(right.body.site.name, "Checks");
  });
});
