// The linter and formatter (Biome, biome.json): the repository's own code passes both with no
// finding, and a file that breaks either is caught — so `npm test` fails on a finding.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;
const BIOME = join(ROOT, "node_modules", ".bin", "biome");

function biome(args: string[], cwd = ROOT): { status: number | null; output: string } {
  const run = spawnSync(BIOME, ["ci", "--colors=off", "--max-diagnostics=50", ...args], { cwd, encoding: "utf8" });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

describe("lint and format (Biome)", () => {
  it("src/, admin/, test/, scripts/ and bench/ have no lint finding and are formatted (lines of at most 120 characters)", () => {
    const { status, output } = biome([]);
    assert.equal(status, 0, output);
  });

  it("a file with a lint finding, or one not formatted, fails the check", () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-lint-"));
    try {
      // The repository's config, but not through git (the scratch folder is no repository) and
      // over every file of the folder.
      const config = JSON.parse(readFileSync(join(ROOT, "biome.json"), "utf8"));
      config.vcs = { enabled: false };
      config.files = { includes: ["**"] };
      writeFileSync(join(dir, "biome.json"), JSON.stringify(config));
      writeFileSync(join(dir, "src-assign.ts"), "let a = 1;\nlet b;\nif ((b = a)) console.log(b);\n");
      const lint = biome(["src-assign.ts"], dir);
      assert.notEqual(lint.status, 0, lint.output);
      assert.match(lint.output, /noAssignInExpressions/);
      writeFileSync(
        join(dir, "src-long.ts"),
        `export const long = [${Array.from({ length: 40 }, (_, i) => `"item-${i}"`).join(",")}];\n`,
      );
      const format = biome(["src-long.ts"], dir);
      assert.notEqual(format.status, 0, format.output);
      assert.match(format.output, /format/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
