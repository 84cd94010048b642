// The typed client as a package of its own: `npm pack -w packages/client` (its prepack builds it,
// scripts/build-client.mjs) makes a tarball that a project in a folder outside the checkout
// installs, type-checks against (strict, the package's .d.ts checked too) and imports by the name
// @site-builder/client, then calls the service with. The project's files are written here rather
// than kept as fixtures: the checkout's own type check would resolve the name to an unbuilt package.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { serveApp, type ServedApp } from "../client/server.ts";
import { ROOT } from "./start-bundle.ts";

const NAME = "@site-builder/client";

/** The project's module: typed calls, and two that must not type-check. */
const CALLS = `import { ApiError, createSiteClient, unwrap, type SiteClient } from "${NAME}";

export async function frameTwice(url: string, token: string, slug: string): Promise<string[]> {
  const svc: SiteClient = createSiteClient({ url, token, site: 1 });
  const { frame } = await unwrap(svc.site.POST("/frames", { body: { slug, html: "<p>" + slug + "</p>" } }));
  const lines: string[] = [JSON.stringify({ id: frame.id, slug: frame.slug })];
  try {
    await unwrap(svc.site.POST("/frames", { body: { slug, html: "<p>again</p>" } }));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    lines.push(error.line);
  }
  return lines;
}

export function mistakes(svc: SiteClient): void {
  // @ts-expect-error no such path
  void svc.site.GET("/no-such-calls");
  // @ts-expect-error a frame's slug is a string
  void svc.site.POST("/frames", { body: { slug: 1, html: "" } });
}
`;

/** Runs `command` and fails with its output unless it exits 0. */
function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 120_000 });
  assert.equal(result.status, 0, `${command} ${args.join(" ")}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

describe(`the typed client as the package ${NAME}, installed from its tarball`, () => {
  let work: string;
  let project: string;
  let tarball: string;
  let t: ServedApp;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "svc-client-package-"));
    const packed = JSON.parse(
      run("npm", ["pack", "-w", "packages/client", "--json", "--pack-destination", work], ROOT),
    );
    tarball = join(work, packed[0].filename);
    project = join(work, "project");
    run("mkdir", [project], work);
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({
        name: "a-client-site",
        private: true,
        type: "module",
        dependencies: { [NAME]: `file:${tarball}` },
      }),
    );
    run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], project);
    writeFileSync(join(project, "calls.ts"), CALLS);
    writeFileSync(
      join(project, "main.mjs"),
      'import { frameTwice } from "./calls.ts";\n' +
        "for (const line of await frameTwice(process.env.SVC_URL, process.env.SVC_TOKEN, process.argv[2])) console.log(line);\n",
    );
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2023",
          module: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
          lib: ["ES2023", "DOM"],
        },
        files: ["calls.ts"],
      }),
    );
    t = await serveApp();
  });

  after(async () => {
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("the tarball holds the built module, its declarations and package.json, no TypeScript source", () => {
    const files = run("tar", ["-tzf", tarball], work).trim().split("\n").sort();
    assert.deepEqual(files, [
      "package/dist/errors.d.ts",
      "package/dist/index.d.ts",
      "package/dist/index.js",
      "package/dist/pace.d.ts",
      "package/dist/pacing.d.ts",
      "package/dist/schema.d.ts",
      "package/package.json",
    ]);
  });

  it("a project type-checks its calls against the package's types (wrong calls refused)", () => {
    run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", project], project);
  });

  it("the project imports it by name and calls the service", async () => {
    const answer = await promisify(execFile)(process.execPath, ["main.mjs", "from-package"], {
      cwd: project,
      encoding: "utf8",
      env: { ...process.env, SVC_URL: t.origin, SVC_TOKEN: t.adminToken, NODE_OPTIONS: "" },
      timeout: 60_000,
    });
    const [created, refused] = answer.stdout.trim().split("\n");
    assert.equal(JSON.parse(created).slug, "from-package");
    assert.match(refused, /^slug_taken: \S/);
  });
});
