// The svc command stands above the typed client (.dependency-cruiser.cjs, rules layers/cli and
// layers/cli-apart): src/cli/ imports its own folder, src/client/ and packages, nothing else of
// src/ but src/backup/ (svc backup and svc restore; rule layers/backup-apart keeps the service from
// it), and nothing imports it. Checked on small trees, like test/architecture.test.ts.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { cruiseTree } from "../support/cruise.ts";

const CLIENT = { "src/client/index.ts": "export const createSiteClient = () => 1;\n" };

describe("the cli's layer", () => {
  it("the cli using the client and packages passes", () => {
    const { status, output } = cruiseTree({
      ...CLIENT,
      "src/cli/main.ts":
        'import { Command } from "commander";\nimport { createSiteClient } from "../client/index.ts";\nexport const c = [Command, createSiteClient];\n',
    });
    assert.equal(status, 0, output);
  });

  it("the cli importing the service (types included) fails with layers/cli", () => {
    const { status, output } = cruiseTree({
      "src/errors.ts": "export type ErrorCode = string;\n",
      "src/cli/main.ts": 'import type { ErrorCode } from "../errors.ts";\nexport const code: ErrorCode = "x";\n',
    });
    assert.notEqual(status, 0);
    assert.match(output, /layers\/cli\b/);
  });

  it("the cli may use src/backup/; the service may not (layers/backup-apart)", () => {
    const tree = {
      "src/config.ts": "export const loadConfig = () => 1;\n",
      "src/backup/backup.ts": 'import { loadConfig } from "../config.ts";\nexport const backup = loadConfig;\n',
      "src/cli/commands/backup.ts": 'import { backup } from "../../backup/backup.ts";\nexport const c = backup;\n',
    };
    const allowed = cruiseTree(tree);
    assert.equal(allowed.status, 0, allowed.output);
    const { status, output } = cruiseTree({
      ...tree,
      "src/server.ts": 'import { backup } from "./backup/backup.ts";\nexport const s = backup;\n',
    });
    assert.notEqual(status, 0);
    assert.match(output, /layers\/backup-apart/);
    assert.match(output, /src\/server\.ts → src\/backup\/backup\.ts/);
  });

  it("the client or the service importing the cli fails with layers/cli-apart", () => {
    const { status, output } = cruiseTree({
      "src/cli/main.ts": "export const run = 1;\n",
      "src/client/index.ts": 'import { run } from "../cli/main.ts";\nexport const x = run;\n',
      "src/app.ts": 'import { run } from "./cli/main.ts";\nexport const app = run;\n',
    });
    assert.notEqual(status, 0);
    assert.match(output, /layers\/cli-apart/);
    assert.match(output, /src\/app\.ts → src\/cli\/main\.ts/);
    assert.match(output, /src\/client\/index\.ts → src\/cli\/main\.ts/);
  });
});
