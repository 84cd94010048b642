// The committed client types (src/client/schema.d.ts) are what `npm run client:types` makes of
// the document the server serves now: the test generates them in memory (scripts/client-types.ts)
// and fails on any difference, naming the first line that differs.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { clientDocument, clientTypes, SCHEMA_FILE } from "../../scripts/client-types.ts";
import { openApiDocument } from "../../scripts/openapi-document.ts";

describe("client types", () => {
  it("src/client/schema.d.ts is what the served document generates", { timeout: 120_000 }, async () => {
    const fresh = await clientTypes();
    const committed = readFileSync(SCHEMA_FILE, "utf8");
    if (fresh === committed) return;
    const a = committed.split("\n");
    const b = fresh.split("\n");
    let line = 0;
    while (line < Math.min(a.length, b.length) && a[line] === b[line]) line++;
    assert.fail(
      `src/client/schema.d.ts differs from what the server serves now (first at line ${line + 1}: ` +
        `committed ${JSON.stringify(a[line] ?? "<end>")}, served ${JSON.stringify(b[line] ?? "<end>")}): run npm run client:types`,
    );
  });

  it("the generated document keeps every site call once, at its /api/site/{site_id} address, and names the error envelopes", async () => {
    const served = await openApiDocument();
    const doc = clientDocument(served);
    const operations = (d: Record<string, any>) =>
      Object.values<Record<string, any>>(d.paths).flatMap((item) =>
        Object.values<any>(item).filter((op) => op && typeof op === "object" && "responses" in op),
      );
    const kept = operations(doc);
    const all = operations(served);
    assert.ok(kept.length > 50);
    assert.equal(kept.length, all.filter((op) => !op.deprecated).length);
    assert.ok(kept.every((op) => !op.operationId.endsWith("Legacy")));
    for (const op of kept) {
      for (const status of ["4XX", "5XX"])
        assert.deepEqual(
          op.responses[status].content["application/json"].schema,
          { $ref: "#/components/schemas/ErrorBody" },
          `${op.operationId} ${status}`,
        );
    }
    assert.deepEqual(
      Object.keys(doc.components.schemas).filter((name) => name.endsWith("Error") || name === "ErrorBody"),
      ["HandlerError", "PreHandlerError", "ErrorBody"],
    );
  });
});
