// The README's "Build your first site" run for real, as a new user would run it in a second
// terminal: the built service (`node dist/main.js`, test/support/process.ts) started on a fresh
// database with no SVC_ADMIN_TOKEN, so it writes data/admin-token as a first start does; every
// ```sh block of the section run in order by one bash, in a folder standing for the checkout
// (`data/` there is the service's data folder).
//
// The regular form the section keeps, which this test relies on:
// - every ```sh block of the section is run, in order, in one shell (the alias and the exports
//   of the first block hold for the later ones); none holds a comment (zsh, macOS's shell, does
//   not take comments typed at its prompt);
// - the service's address appears only as `http://localhost:8080`: the test puts its own port
//   there, so later blocks reach the service through `$SVC_URL`;
// - `svc` is the alias `svc='npm run --silent svc --'`; here `npm run --silent svc -- <args>` is a
//   shell function running the built `node dist/cli.js <args>` (any other npm call fails);
// - a ```text or ```html block right after a ```sh block shows what that block prints: each of
//   its non-blank lines is in the block's standard output, in that order;
// - the paragraph on undo shows its calls as code spans (`curl …`, `svc pull mysite`): they are
//   run too, after the blocks.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fences, type Fence } from "./how-to-pages.ts";
import { freePort } from "../support/ports.ts";
import { serviceDatabase, startService, type Running } from "../support/process.ts";
import type { TestDatabase } from "../support/database.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const CLI = join(ROOT, "dist/cli.js");
const HEADING = "## Build your first site";
const DOC_URL = "http://localhost:8080";

/** The section's text: from its heading to the next `## `. */
export function section(readme: string, heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `README.md has no "${heading}" section`);
  const rest = readme.slice(start + 1);
  const end = rest.indexOf("\n## ", heading.length);
  return end < 0 ? rest : rest.slice(0, end + 1);
}

interface Block {
  run: Fence;
  shows: Fence | null;
}

function blocks(text: string): Block[] {
  const all = fences(text);
  const out: Block[] = [];
  all.forEach((fence, i) => {
    if (fence.lang !== "sh") return;
    const next = all[i + 1];
    out.push({ run: fence, shows: next && ["text", "html"].includes(next.lang) ? next : null });
  });
  return out;
}

/** The calls of the paragraph on undo: its code spans that are commands. */
function undoCalls(text: string): string[] {
  const paragraph = text.split("\n\n").find((p) => p.startsWith("Every push is kept as revisions"));
  assert.ok(paragraph, "the section has a paragraph on undo");
  return [...paragraph.matchAll(/`([^`]+)`/g)].map((m) => m[1]).filter((code) => /^(curl|svc) /.test(code));
}

const NPM_SHIM = `
npm() {
  if [ "$#" -ge 4 ] && [ "$1" = run ] && [ "$2" = --silent ] && [ "$3" = svc ] && [ "$4" = -- ]; then
    shift 4
    "$__NODE" "$__CLI" "$@"
    return
  fi
  echo "walkthrough test: npm $* is not what the README runs" >&2
  return 127
}
`;

interface Ran {
  code: number | null;
  stderr: string;
  /** Standard output of each part, in order. */
  parts: string[];
}

/** Runs the parts in one bash (set -euo pipefail), each part's stdout kept apart. */
function runParts(parts: string[], cwd: string, env: Record<string, string>, afterEach = ""): Ran {
  const marker = (i: number) => `@@walkthrough part ${i}@@`;
  const script = [
    "shopt -s expand_aliases",
    "set -euo pipefail",
    NPM_SHIM,
    ...parts.flatMap((text, i) => [`printf '%s\\n' '${marker(i)}'`, text, afterEach.replaceAll("{i}", String(i))]),
    `printf '%s\\n' '${marker(parts.length)}'`,
  ].join("\n");
  // A file, not -c: each line is read after the one before has run, as at a prompt (aliases).
  const file = join(cwd, "..", `walkthrough-${process.pid}-${Date.now()}.sh`);
  writeFileSync(file, script);
  try {
    const run = spawnSync("bash", [file], { cwd, env, encoding: "utf8", timeout: 120_000 });
    const parts_: string[] = [];
    let rest = run.stdout;
    for (let i = 0; i <= parts.length; i++) {
      const at = rest.indexOf(`${marker(i)}\n`);
      if (at < 0) break;
      if (i > 0) parts_.push(rest.slice(0, at));
      rest = rest.slice(at + marker(i).length + 1);
    }
    return { code: run.status, stderr: run.stderr, parts: parts_ };
  } finally {
    rmSync(file, { force: true });
  }
}

function linesInOrder(output: string, shown: Fence, where: string): void {
  let at = 0;
  for (const line of shown.text.split("\n").filter((l) => l.trim() !== "")) {
    const found = output.indexOf(line, at);
    assert.ok(
      found >= 0,
      `${where}: the output does not show, after what came before:\n${line}\n--- output:\n${output}`,
    );
    at = found + line.length;
  }
}

describe("README: Build your first site, run as written against the built service", () => {
  let service: Running;
  let database: TestDatabase;
  let root: string;
  let work: string;
  let home: string;
  let url: string;
  let text: string;
  let env: Record<string, string>;

  before(async () => {
    assert.ok(existsSync(CLI), "dist/cli.js is missing: run `npm run build` (npm test does it first)");
    text = section(readFileSync(join(ROOT, "README.md"), "utf8"), HEADING);
    root = mkdtempSync(join(tmpdir(), "svc-walkthrough-"));
    work = join(root, "checkout");
    home = join(root, "home");
    const data = join(root, "data");
    for (const dir of [work, home, data]) mkdirSync(dir);
    symlinkSync(data, join(work, "data"));
    const port = await freePort();
    const db = await serviceDatabase();
    database = db.database;
    // No SVC_ADMIN_TOKEN: admin's token is made and written to data/admin-token, as on a first start.
    service = await startService({ ...db.env, SVC_DATA_DIR: data, PORT: String(port), SVC_ADMIN_TOKEN: "" });
    url = `http://localhost:${port}`;
    env = {
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      HOME: home,
      LANG: "C.UTF-8",
      __NODE: process.execPath,
      __CLI: CLI,
    };
  });

  after(async () => {
    await service?.stop();
    await database?.drop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("keeps the regular form: sh blocks without comments, the address only as http://localhost:8080 (then $SVC_URL), svc as the alias of npm run svc", () => {
    const all = blocks(text);
    assert.ok(all.length >= 5, `only ${all.length} sh blocks`);
    for (const { run } of all) {
      assert.ok(!/^\s*#/m.test(run.text), `README.md:${run.line}: a comment in a block a reader pastes`);
      assert.ok(
        !/:8080/.test(run.text.replaceAll(DOC_URL, "")),
        `README.md:${run.line}: an address other than ${DOC_URL}`,
      );
    }
    assert.match(all[0].run.text, /^alias svc='npm run --silent svc --'$/m);
    assert.match(all[0].run.text, /^export SVC_URL=http:\/\/localhost:8080$/m);
    assert.match(all[0].run.text, /^export SVC_TOKEN=\$\(cat data\/admin-token\)$/m);
    assert.equal(
      all.slice(1).filter((b) => b.run.text.includes(DOC_URL)).length,
      0,
      "later blocks reach the service through $SVC_URL",
    );
    assert.match(
      readFileSync(join(ROOT, "docs/README.md"), "utf8"),
      /\(\.\.\/README\.md#build-your-first-site\)/,
      "the docs index links the section by its anchor",
    );
  });

  it("its blocks run in order and print what it shows; the page answers 200 with the frame's markup and the page's title, then the footer after the edit; the undo puts the first frame back", async () => {
    assert.ok(existsSync(join(work, "data", "admin-token")), "the first start wrote data/admin-token");
    const all = blocks(text);
    const parts = [...all.map((b) => b.run.text.replaceAll(DOC_URL, url)), undoCalls(text).join("\n")];
    assert.ok(parts.at(-1)!.includes("/restore"), "the undo paragraph restores a revision");
    // After each part, the files of mysite/ (to check what a pull of the empty site writes).
    const ran = runParts(
      parts,
      work,
      env,
      `find mysite -type f 2>/dev/null | LC_ALL=C sort > ../files-{i}.txt || true`,
    );
    assert.equal(
      ran.code,
      0,
      `bash stopped (${ran.code}) after ${ran.parts.length} of ${parts.length} parts:\n${ran.stderr}\n--- last output:\n${ran.parts.at(-1) ?? ""}`,
    );
    assert.equal(ran.parts.length, parts.length);
    all.forEach((block, i) => {
      if (block.shows) {
        const shown = { ...block.shows, text: block.shows.text.replaceAll(DOC_URL, url) };
        linesInOrder(ran.parts[i], shown, `README.md:${block.run.line} (shown at line ${block.shows.line})`);
      }
    });

    // 1. The pull of the empty site wrote the two files the README names.
    const pullAt = all.findIndex((b) => /^svc pull mysite$/m.test(b.run.text));
    assert.ok(pullAt >= 0, "a block pulls mysite");
    assert.deepEqual(
      readFileSync(join(root, `files-${pullAt}.txt`), "utf8")
        .trim()
        .split("\n"),
      ["mysite/.svc/state.json", "mysite/seo.json", "mysite/settings.json"],
    );

    // 4. The page before the edit: 200, the frame's markup, the page's title.
    const firstCurl = all.findIndex((b) => /^curl -s \$SVC_URL\/hello\/$/m.test(b.run.text));
    assert.ok(firstCurl > pullAt, "a block opens the page after the pull");
    const before = ran.parts[firstCurl];
    assert.match(before, /<title>Hello<\/title>/);
    assert.match(before, /<h1>Hello<\/h1>\n<main><p>My first page\.<\/p><\/main>\n<\/body>/);
    assert.doesNotMatch(before, /<footer>/);

    // 5. After the edit: the new text.
    const lastCurl = all.findLastIndex((b) => /^curl -s \$SVC_URL\/hello\/$/m.test(b.run.text));
    assert.ok(lastCurl > firstCurl, "a block opens the page again after the edit");
    assert.match(ran.parts[lastCurl], /<main><p>My first page\.<\/p><\/main>\n<footer>Made with svc<\/footer>/);

    // Undo: the restore answered, the pull brought the first frame back into the folder and onto the page.
    const undo = ran.parts.at(-1)!;
    assert.match(undo, /"success":true/);
    assert.match(undo, /"restored":\{"kind":"frames","id":"[0-9a-f]{16}","from_revision":1,"revision":3\}/);
    assert.match(undo, /update {7}frames\/home\.html\n/, "the pull took the restored frame");
    const frame = readFileSync(join(work, "mysite/frames/home.html"), "utf8");
    assert.doesNotMatch(frame, /<footer>/);
    const page = await fetch(`${url}/hello/`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<title>Hello<\/title>/);
    assert.doesNotMatch(html, /<footer>/, "the restored frame is public");
  });

  it("the page file it writes is the form svc pull writes, so a folder never synced with the service sees no difference", () => {
    const fresh = spawnSync(process.execPath, [CLI, "pull", "fresh", "--json"], {
      cwd: root,
      env: { ...env, SVC_URL: url, SVC_TOKEN: readFileSync(join(work, "data", "admin-token"), "utf8").trim() },
      encoding: "utf8",
    });
    assert.equal(fresh.status, 0, fresh.stderr);
    const written = JSON.parse(readFileSync(join(work, "mysite/pages/_/hello.json"), "utf8"));
    const pulled = JSON.parse(readFileSync(join(root, "fresh/pages/_/hello.json"), "utf8"));
    assert.deepEqual(written, pulled);
    const status = spawnSync(process.execPath, [CLI, "status", "mysite", "--json"], {
      cwd: work,
      env: { ...env, SVC_URL: url, SVC_TOKEN: readFileSync(join(work, "data", "admin-token"), "utf8").trim() },
      encoding: "utf8",
    });
    rmSync(join(work, "mysite/.svc"), { recursive: true });
    const again = spawnSync(process.execPath, [CLI, "push", "mysite", "--json"], {
      cwd: work,
      env: { ...env, SVC_URL: url, SVC_TOKEN: readFileSync(join(work, "data", "admin-token"), "utf8").trim() },
      encoding: "utf8",
    });
    assert.equal(status.status, 0, status.stdout + status.stderr);
    assert.equal(again.status, 0, `without its state, the folder is in sync: ${again.stdout}${again.stderr}`);
    assert.equal(JSON.parse(again.stdout).writes, 0);
  });

  it("the alias's own command, npm run --silent svc -- in the checkout (the TypeScript sources, no build), answers as the built one and prints only svc's lines", (ctx) => {
    if (spawnSync("bash", ["-c", "command -v npm"], { env }).status !== 0)
      return ctx.diagnostic("npm missing: npm run svc was not run");
    const token = readFileSync(join(work, "data", "admin-token"), "utf8").trim();
    const run = spawnSync("npm", ["run", "--silent", "svc", "--", "status", join(work, "mysite")], {
      cwd: ROOT,
      env: { ...env, SVC_URL: url, SVC_TOKEN: token },
      encoding: "utf8",
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.equal(run.stdout, `in sync with ${url} site 1\n`);
  });

  it("the login it offers instead of SVC_TOKEN saves a token outside the folder, which svc then uses", () => {
    const line = /`(svc login --url http:\/\/localhost:8080 --token-stdin < data\/admin-token)`/.exec(text);
    assert.ok(line, "the section shows svc login with --token-stdin");
    const ran = runParts(
      [
        "alias svc='npm run --silent svc --'",
        line[1].replaceAll(DOC_URL, url),
        `export SVC_URL=${url}`,
        "svc status mysite",
      ],
      work,
      env,
    );
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.parts[1], /logged in to .* as admin/);
    assert.match(ran.parts[3], /^in sync with http:\/\/localhost:\d+ site 1$/m);
    assert.ok(existsSync(join(home, ".config/svc/credentials.json")));
    assert.ok(!readFileSync(join(home, ".config/svc/credentials.json"), "utf8").includes(work));
  });
});
