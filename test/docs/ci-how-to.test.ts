// docs/guide/how-to/ci.md checked: its curl calls (CI's user, role and token) replayed through the
// test app as the other how-to pages are (how-to-pages.ts), and its svc steps run for real: the
// built CLI (`svc` on the PATH, as `npm link` puts it) against the built service, in a git
// repository made by the page's own blocks, pushed with the page's script `ci/push-site.sh` the way
// a CI runs it — each run on a fresh working copy (no `.svc/`), the state kept in SVC_STATE_DIR.
// Checked: the dry run exits 0 with the plan the page shows and writes nothing; the push sends it;
// a second push sends nothing; a server-side edit met by a committed one exits 1 with the
// conflict lines the page shows and writes nothing; and the page's claims on a missing state, a
// first push to production, hand-written page files and a committed state that no job updates.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fences, replayPage, type Fence } from "./how-to-pages.ts";
import { startTestApp } from "../support/app.ts";
import { CLI, serve, tempDir, type Served } from "../cli/harness.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const PAGE = "docs/guide/how-to/ci.md";
const markdown = readFileSync(join(ROOT, PAGE), "utf8");
const all = fences(markdown);

function shBlock(test: (text: string) => boolean, what: string): Fence {
  const found = all.filter((f) => f.lang === "sh" && test(f.text));
  assert.equal(found.length, 1, `${PAGE}: ${found.length} sh blocks ${what}`);
  return found[0];
}

/** The fence right after a given one. */
function after_(fence: Fence, lang: string): Fence {
  const next = all[all.indexOf(fence) + 1];
  assert.ok(next && next.lang === lang, `${PAGE}:${fence.line}: no ${lang} block after it`);
  return next;
}

function linesInOrder(output: string, lines: string[], where: string): void {
  let at = 0;
  for (const line of lines.filter((l) => l.trim() !== "")) {
    const found = output.indexOf(line, at);
    assert.ok(
      found >= 0,
      `${where}: the output does not show, after what came before:\n${line}\n--- output:\n${output}`,
    );
    at = found + line.length;
  }
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe("ci.md: CI's user and token", () => {
  it("its calls work in order and answer what the page shows; the token issued is CI's user, an administrator of site 1 that svc can use", async () => {
    const t = await startTestApp();
    try {
      let token: string | null = null;
      await replayPage(t, PAGE, ({ call, answer }) => {
        if (call.method === "POST" && call.url.pathname === "/api/users/2/tokens") token = answer.body.token;
      });
      assert.ok(token, "the page issues a token");
      const profile = await t.call("GET", "/api/profile", { token });
      assert.equal(profile.status, 200);
      assert.equal(profile.body.user?.login ?? profile.body.login, "ci");
      assert.equal((await t.call("GET", "/api/site/1/frames", { token })).status, 200, "an administrator of site 1");
      assert.equal(
        (await t.call("POST", "/api/login", { token: null, body: { login: "ci", password: "" } })).status,
        401,
        "no password: no login",
      );
    } finally {
      await t.close();
    }
  });
});

describe("ci.md: the repository and ci/push-site.sh, run as a CI runs them against the built service", () => {
  let t: Served;
  let root: string;
  let repo: string;
  let stateDir: string;
  let env: Record<string, string>;
  let invocations: string[];
  const FRAME =
    '<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"><title data-op-bind=\'{"text": "page.title"}\'></title></head>\n<body>\n<h1 data-op-bind=\'{"text": "page.title"}\'></h1>\n<main data-op-bind=\'{"html": "page.content"}\'></main>\n</body>\n</html>\n';

  function bash(script: string, extra: Record<string, string> = {}): Run {
    const run = spawnSync("bash", ["-c", script], {
      cwd: repo,
      env: { ...env, ...extra },
      encoding: "utf8",
      timeout: 120_000,
    });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  }

  /** One CI run of the page's script: a fresh working copy of the repository has no `.svc/`. */
  function ci(args: string): Run {
    rmSync(join(repo, ".svc"), { recursive: true, force: true });
    return bash(`ci/push-site.sh ${args}`);
  }

  function commit(file: string, text: string): void {
    mkdirSync(dirname(join(repo, file)), { recursive: true });
    writeFileSync(join(repo, file), text);
    const run = bash(`git add ${file} && git commit -q -m "edit ${file}"`);
    assert.equal(run.code, 0, run.stderr);
  }

  async function frameHtml(site = 1): Promise<string> {
    const answer = await t.api("GET", `/api/site/${site}/frames/home`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.frame.html;
  }

  before(async () => {
    assert.ok(existsSync(CLI), "dist/cli.js is missing: run `npm run build` (npm test does it first)");
    t = await serve();
    for (const [method, path, body] of [
      ["POST", "/frames", { slug: "home", html: FRAME }],
      ["POST", "/pages", { title: "Hello", slug: "hello", frame: "home", content: "<p>My first page.</p>" }],
      ["POST", "/api/sites", { name: "Production", domain: "prod.example.org" }],
    ] as const) {
      const answer = await t.api(method, path, body);
      assert.ok(answer.status < 300, `${method} ${path}: ${JSON.stringify(answer.body)}`);
    }
    root = tempDir("svc-ci-howto-");
    repo = join(root, "site");
    stateDir = join(root, "ci-cache");
    const bin = join(root, "bin");
    const home = join(root, "home");
    for (const dir of [repo, bin, home]) mkdirSync(dir);
    // `svc` on the PATH, as `npm link` installs it: the package's bin, dist/cli.js.
    writeFileSync(join(bin, "svc"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(join(bin, "svc"), 0o755);
    env = {
      PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      HOME: home,
      LANG: "C.UTF-8",
      SVC_TOKEN: t.token,
      SVC_STATE_DIR: stateDir,
      GIT_AUTHOR_NAME: "CI test",
      GIT_AUTHOR_EMAIL: "ci@example.org",
      GIT_COMMITTER_NAME: "CI test",
      GIT_COMMITTER_EMAIL: "ci@example.org",
      GIT_CONFIG_NOSYSTEM: "1",
    };

    // Step 2: svc.json and .gitignore as the page writes them, pointed at this service (site 1
    // staging, site 2 production).
    const files = shBlock((s) => s.includes("cat > svc.json"), "writing svc.json");
    const written = bash(files.text);
    assert.equal(written.code, 0, written.stderr);
    const config = JSON.parse(readFileSync(join(repo, "svc.json"), "utf8"));
    assert.deepEqual(Object.keys(config.environments), ["staging", "production"]);
    for (const e of Object.values(config.environments) as Array<{ url: string }>) assert.match(e.url, /^https:\/\//);
    config.environments.staging = { url: t.url, site: 1 };
    config.environments.production = { url: t.url, site: 2 };
    writeFileSync(join(repo, "svc.json"), `${JSON.stringify(config, null, 2)}\n`);

    // Step 2: the repository filled from staging and committed, as the page runs it.
    const fill = shBlock(
      (s) => s.includes("svc pull --env staging") && s.includes("git init"),
      "filling the repository",
    );
    const filled = bash(fill.text);
    assert.equal(filled.code, 0, filled.stdout + filled.stderr);

    // Step 6: the script, at the path it names.
    const script = shBlock((s) => s.startsWith("#!/usr/bin/env bash"), "holding the script");
    const path = /^# (ci\/[\w.-]+\.sh) /m.exec(script.text);
    assert.ok(path, "the script names its path in its first comment");
    assert.equal(path[1], "ci/push-site.sh");
    mkdirSync(join(repo, "ci"));
    writeFileSync(join(repo, path[1]), `${script.text}\n`);
    chmodSync(join(repo, path[1]), 0o755);
    assert.equal(bash(`git add ${path[1]} && git commit -q -m "CI script"`).code, 0);
    const calls = shBlock((s) => s.split("\n").every((l) => l.startsWith("ci/push-site.sh ")), "running the script");
    invocations = calls.text.split("\n").map((l) => l.slice("ci/push-site.sh ".length));
    assert.deepEqual(invocations, ["staging --dry-run", "staging", "production"]);
  });

  after(async () => {
    await t?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("the repository holds the site as svc pull writes it, svc.json and .gitignore; .svc/ stays out of git", () => {
    const tracked = bash("git ls-files").stdout.trim().split("\n").sort();
    assert.deepEqual(tracked, [
      ".gitignore",
      "ci/push-site.sh",
      "frames/home.html",
      "pages/_/hello.json",
      "seo.json",
      "settings.json",
      "svc.json",
    ]);
    assert.ok(existsSync(join(repo, ".svc/state.json")), "the pull wrote a state, which git ignores");
    assert.equal(bash("git status --porcelain").stdout, "");
  });

  it("CI's first run on the first commit finds every object equal and leaves its first state; the dry run then shows the plan the page shows and writes nothing; the push sends it; a second push sends nothing", async () => {
    const first = ci(invocations[1]);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.match(first.stdout, /^4 unchanged \(0 writes sent\)$/m);
    assert.ok(existsSync(join(stateDir, "staging.json")), "the state is kept for the next run");

    commit("frames/home.html", FRAME.replace("</main>\n", "</main>\n<footer>Made with svc</footer>\n"));
    const writes = t.writes();
    const dry = ci(invocations[0]);
    assert.equal(dry.code, 0, dry.stdout + dry.stderr);
    const dryBlock = shBlock((s) => s === "svc push --env staging --strict --dry-run", "with the dry run");
    linesInOrder(dry.stdout, after_(dryBlock, "text").text.split("\n"), `${PAGE}:${dryBlock.line}`);
    assert.equal(t.writes(), writes, "the dry run wrote nothing");
    assert.doesNotMatch(await frameHtml(), /<footer>/);

    const push = ci(invocations[1]);
    assert.equal(push.code, 0, push.stdout + push.stderr);
    assert.match(push.stdout, /^update {7}frames\/home\.html$/m);
    assert.match(push.stdout, /^1 update, 3 unchanged \(1 write sent\)$/m);
    assert.match((await t.page("/hello/")).text, /<footer>Made with svc<\/footer>/);

    const again = ci(`${invocations[1]} --json > push.json`);
    assert.equal(again.code, 0, again.stderr);
    const doc = JSON.parse(readFileSync(join(repo, "push.json"), "utf8"));
    assert.deepEqual(
      [doc.ok, doc.command, doc.dry_run, doc.writes, doc.counts],
      [true, "push", false, 0, { unchanged: 4 }],
    );
    for (const key of ["target", "items", "urls"]) assert.ok(key in doc, `--json has ${key}`);
    rmSync(join(repo, "push.json"));
  });

  it("production keeps a state of its own; its first push meets a site with other settings as a conflict (no state), and --force, once, settles it", async () => {
    // Production already has content (a page made there): its settings are someone's, not a new
    // site's own, which a first push would simply send (docs/cli.md, "Decisions").
    const made = await t.api("POST", "/api/site/2/pages", { title: "Coming soon", content: "<p>Soon.</p>" });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const first = ci(invocations[2]);
    assert.equal(first.code, 1, first.stdout + first.stderr);
    assert.match(first.stdout, /^conflict {5}settings\.json {2}\(differs from the server, never synced with it\)$/m);
    assert.equal((await t.api("GET", "/api/site/2/frames")).body.frames.length, 0, "nothing was written");
    const forced = ci(`${invocations[2]} --force`);
    assert.equal(forced.code, 0, forced.stdout + forced.stderr);
    assert.match(await frameHtml(2), /<footer>Made with svc<\/footer>/);
    assert.equal(
      (await t.api("GET", "/api/site/2/settings")).body.settings.name,
      "Main site",
      "the repository's settings.json won",
    );
    assert.match(ci(invocations[2]).stdout, /\(0 writes sent\)/);
    assert.match(ci(invocations[1]).stdout, /\(0 writes sent\)/, "staging's state is its own");
    assert.ok(existsSync(join(stateDir, "production.json")) && existsSync(join(stateDir, "staging.json")));
  });

  it("a server-side edit met by a committed one: exit 1 with the conflict lines the page shows, nothing written; --json says conflict and the workflow's summary prints it; --force sends the repository's", async (ctx) => {
    const edited = await t.api("PUT", "/api/site/1/frames/home", {
      html: FRAME.replace("<body>\n", "<body>\n<p>Edited on the server</p>\n"),
    });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    commit("frames/home.html", FRAME.replace("</main>\n", "</main>\n<footer>Made with svc, edited</footer>\n"));
    const writes = t.writes();
    const refused = ci(invocations[1]);
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    const shown = all.filter((f) => f.lang === "text" && f.text.startsWith("conflict "));
    assert.equal(shown.length, 1, "What can go wrong shows a conflict");
    const [line, summary] = shown[0].text.split("\n");
    linesInOrder(refused.stdout, [line], `${PAGE}:${shown[0].line}`);
    linesInOrder(refused.stderr, [summary], `${PAGE}:${shown[0].line}`);
    assert.equal(t.writes(), writes, "nothing was written");
    assert.match(await frameHtml(), /Edited on the server/);

    const json = ci(`${invocations[1]} --json > push.json`);
    assert.equal(json.code, 1);
    const doc = JSON.parse(readFileSync(join(repo, "push.json"), "utf8"));
    assert.deepEqual(
      [doc.ok, doc.exit, doc.error.code, doc.conflicts.map((c: { key: string }) => c.key)],
      [false, 1, "conflict", ["frames/home.html"]],
    );

    // The workflow's summary step, on this document.
    const yaml = all.find((f) => f.lang === "yaml");
    assert.ok(yaml, "the page has the workflow");
    const step = /^\s+(jq -r .*)$/m.exec(yaml.text);
    assert.ok(step, "the workflow's summary step runs jq");
    if (spawnSync("bash", ["-c", "command -v jq"]).status !== 0)
      ctx.diagnostic("jq missing: the summary step was not run");
    else {
      const out = bash(step[1], { GITHUB_STEP_SUMMARY: join(root, "summary.md") });
      assert.equal(out.code, 0, out.stderr);
      assert.match(
        out.stdout,
        /^conflict: 1 object changed both here and on the server since the last sync \(frames\/home\.html\); nothing was written\./m,
      );
      assert.equal(readFileSync(join(root, "summary.md"), "utf8"), out.stdout);
    }
    rmSync(join(repo, "push.json"));

    const forced = ci(`${invocations[1]} --force`);
    assert.equal(forced.code, 0, forced.stdout + forced.stderr);
    assert.match(await frameHtml(), /Made with svc, edited/);
    assert.doesNotMatch(await frameHtml(), /Edited on the server/);
  });

  it("the workflow: valid YAML with the dry run on pull requests, the push on main and by hand, the state restored and saved (always) under keys its restore finds", async (ctx) => {
    const yaml = all.find((f) => f.lang === "yaml")!;
    let parse: ((text: string) => any) | null = null;
    try {
      parse = (await import("yaml" as string)).parse;
    } catch {
      ctx.diagnostic("the yaml package is missing: the workflow was checked as text only");
    }
    for (const needle of [
      'svc push --env "$TARGET" --strict --dry-run',
      'svc push --env "$TARGET" --strict --json > push.json',
      "actions/cache/restore@v4",
      "actions/cache/save@v4",
    ]) {
      assert.ok(yaml.text.includes(needle), `the workflow has ${needle}`);
    }
    if (!parse) return;
    const flow = parse(yaml.text);
    assert.deepEqual(Object.keys(flow.on), ["pull_request", "push", "workflow_dispatch"]);
    assert.deepEqual(flow.on.push.branches, ["main"]);
    assert.deepEqual(flow.on.workflow_dispatch.inputs.target.options, ["staging", "production"]);
    const steps: Array<Record<string, any>> = flow.jobs.svc.steps;
    const restore = steps.find((s) => s.uses === "actions/cache/restore@v4")!;
    const save = steps.find((s) => s.uses === "actions/cache/save@v4")!;
    assert.equal(restore.with.path, ".svc");
    assert.equal(save.with.path, ".svc");
    assert.ok(restore.with.key.startsWith(restore.with["restore-keys"]), "the restore finds the keys the save makes");
    assert.equal(save.with.key, restore.with.key);
    assert.match(save.if, /^always\(\)/);
    assert.equal(steps.find((s) => s.name === "plan")!.if, "github.event_name == 'pull_request'");
    assert.equal(steps.find((s) => s.name === "push")!.if, "github.event_name != 'pull_request'");
    assert.equal(
      flow.jobs.svc.env.SVC_TOKEN,
      undefined,
      "the token is not given to every step (the install runs other people's code)",
    );
    for (const name of ["plan", "push"])
      assert.match(steps.find((s) => s.name === name)!.env.SVC_TOKEN, /secrets\.SVC_TOKEN_STAGING/);
    for (const s of steps.filter((s) => s.run)) {
      const syntax = spawnSync("bash", ["-n", "-c", s.run], { encoding: "utf8" });
      assert.equal(syntax.status, 0, `${s.name ?? s.run}: ${syntax.stderr}`);
    }
  });

  it("with no state, equal objects are in sync; a page file written by hand with fewer fields is a conflict every time, until svc pull --force in a fresh clone rewrites it", async () => {
    rmSync(join(stateDir, "staging.json"));
    const lost = ci(invocations[1]);
    assert.equal(lost.code, 0, `files as svc pull writes them are equal without a state: ${lost.stdout}${lost.stderr}`);
    assert.match(lost.stdout, /\(0 writes sent\)/);

    commit(
      "pages/_/contact.json",
      `${JSON.stringify({ title: "Contact", frame: "home", content: "<p>Write to us.</p>" }, null, 2)}\n`,
    );
    const created = ci(invocations[1]);
    assert.equal(created.code, 0, created.stdout + created.stderr);
    assert.match(created.stdout, /^create {7}pages\/_\/contact\.json$/m);
    rmSync(join(stateDir, "staging.json"));
    const conflict = ci(invocations[1]);
    assert.equal(conflict.code, 1, conflict.stdout + conflict.stderr);
    assert.match(
      conflict.stdout,
      /^conflict {5}pages\/_\/contact\.json {2}\(differs from the server, never synced with it\)$/m,
    );
    assert.doesNotMatch(conflict.stdout, /conflict {5}(frames|settings)/);

    assert.ok(
      markdown.includes("`svc pull --env staging --force` in a fresh clone (no `.svc/`)"),
      "the page names the fix this test runs",
    );
    rmSync(join(repo, ".svc"), { recursive: true, force: true });
    const pulled = bash("svc pull --env staging --force");
    assert.equal(pulled.code, 0, pulled.stdout + pulled.stderr);
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(join(repo, "pages/_/contact.json"), "utf8"))), [
      "title",
      "status",
      "date",
      "frame",
      "menu_order",
      "tags",
      "feed",
      "content_format",
      "translations",
      "seo",
      "fields",
      "content",
    ]);
    assert.equal(bash("git commit -q -am 'pages in the form svc pull writes'").code, 0);
    rmSync(join(stateDir, "staging.json"), { force: true });
    const settled = ci(invocations[1]);
    assert.equal(settled.code, 0, settled.stdout + settled.stderr);
  });

  it("a committed state that no job updates: the first change after it is sent, the next change of the same object is a conflict", () => {
    const committed = join(root, "committed-state.json");
    copyFileSync(join(stateDir, "staging.json"), committed);
    const page = (content: string) =>
      `${JSON.stringify({ title: "Hello", status: "publish", frame: "home", menu_order: 0, seo: { title: null, description: null, canonical: null, noindex: false, og_image: null }, fields: {}, content }, null, 2)}\n`;
    commit("pages/_/hello.json", page("<p>Second version.</p>"));
    copyFileSync(committed, join(stateDir, "staging.json"));
    const second = ci(invocations[1]);
    assert.equal(second.code, 0, second.stdout + second.stderr);
    commit("pages/_/hello.json", page("<p>Third version.</p>"));
    copyFileSync(committed, join(stateDir, "staging.json"));
    const third = ci(invocations[1]);
    assert.equal(third.code, 1, third.stdout + third.stderr);
    assert.match(
      third.stdout,
      /^conflict {5}pages\/_\/hello\.json {2}\(changed here and on the server since the last sync\)$/m,
    );
  });
});
