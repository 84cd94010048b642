// The typed client stands apart from the service's layers (.dependency-cruiser.cjs, rules
// layers/client and layers/client-apart): src/client/ imports nothing else of src/, and nothing of
// the service imports it. Checked on small trees, like test/architecture.test.ts.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { cruiseTree } from "../support/cruise.ts";

describe("the client's layer", () => {
  it("a client of its own folder and packages passes", () => {
    const { status, output } = cruiseTree({
      "src/client/schema.d.ts": "export interface paths {}\n",
      "src/client/index.ts":
        'import createClient from "openapi-fetch";\nimport type { paths } from "./schema.d.ts";\nexport const c = createClient<paths>();\n',
    });
    assert.equal(status, 0, output);
  });

  it("the client importing the service (types included) fails with layers/client", () => {
    const { status, output } = cruiseTree({
      "src/errors.ts": "export type ErrorCode = string;\n",
      "src/client/index.ts": 'import type { ErrorCode } from "../errors.ts";\nexport const code: ErrorCode = "x";\n',
    });
    assert.notEqual(status, 0);
    assert.match(output, /layers\/client\b/);
    assert.match(output, /src\/client\/index\.ts → src\/errors\.ts/);
  });

  it("the service importing the client fails with layers/client-apart", () => {
    const { status, output } = cruiseTree({
      "src/client/index.ts": "export const client = 1;\n",
      "src/app.ts": 'import { client } from "./client/index.ts";\nexport const app = client;\n',
    });
    assert.notEqual(status, 0);
    assert.match(output, /layers\/client-apart/);
  });
});
