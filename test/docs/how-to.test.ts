// The how-to pages (docs/guide/how-to/) replayed: every curl block a page shows is run with bash
// (curl recorded, jq real) and sent, in the page's order, to a fresh service through the test app;
// each answer must hold the excerpt the page shows after it (rules in how-to-pages.ts). Then the
// outcome the page promises is checked once more on its own, so that removing an excerpt does
// not remove the check.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import Database from "better-sqlite3";
import { startTestApp, type Answer, type TestApp } from "../support/app.ts";
import { catalogueStatus, fences, replayPage, statements, statusCodePairs, steps } from "./how-to-pages.ts";

const DIR = "docs/guide/how-to";
/** The pages written in the regular form (how-to-pages.ts); each is replayed by a test below (ci.md by ci-how-to.test.ts, with its svc steps; news-section.md by news-how-to.test.ts). */
const HOW_TOS = [
  "layouts-and-menus.md",
  "translations.md",
  "data-sets.md",
  "undo-and-preview.md",
  "deploying.md",
  "ci.md",
  "news-section.md",
];
const page = (name: string) => join(DIR, name);

function visit(t: TestApp, path: string): Promise<Answer> {
  return t.call("GET", path, { token: null, headers: { host: "localhost:8080" } });
}

async function withApp(work: (t: TestApp) => Promise<void>): Promise<void> {
  const t = await startTestApp();
  try {
    await work(t);
  } finally {
    await t.close();
  }
}

describe("how-to pages", () => {
  it("the how-to pages keep the regular form: Before you start, Steps, What can go wrong, Reference; curl blocks it runs, each excerpt after one", () => {
    for (const name of HOW_TOS) {
      const markdown = readFileSync(page(name), "utf8");
      for (const heading of ["## Before you start", "## Steps", "## What can go wrong", "## Reference"]) {
        assert.ok(markdown.includes(`\n${heading}\n`), `${name}: no "${heading}" section`);
      }
      const run = steps(markdown);
      assert.ok(run.length >= 2, `${name}: fewer than two blocks with calls`);
      // An excerpt anywhere else would be checked against nothing.
      const all = fences(markdown);
      all.forEach((fence, i) => {
        if (!["json", "html", "http"].includes(fence.lang)) return;
        assert.ok(
          run.some((s) => s.expect?.line === fence.line),
          `${name}:${fence.line}: a ${fence.lang} excerpt that follows no run block (the block before it: ${all[i - 1]?.lang ?? "none"})`,
        );
      });
    }
  });

  it("every 'NNN `code`' a how-to page names is the status the catalogue (src/http/errors.ts) gives that code", () => {
    for (const name of readdirSync(DIR).filter((f) => f.endsWith(".md"))) {
      const pairs = statusCodePairs(readFileSync(page(name), "utf8"));
      for (const { status, code } of pairs) {
        const known = catalogueStatus(code);
        assert.notEqual(known, null, `${name}: ${code} is no code of the service`);
        if (code !== "quota_exceeded")
          assert.equal(known, status, `${name}: ${code} is ${known}, the page says ${status}`);
      }
    }
  });

  it("layouts-and-menus.md: its calls work in order and answer what the page shows; /about/team/ prints Team inside the base layout, marked current, About marked as its ancestor in the menu and in the page tree", async () => {
    await withApp(async (t) => {
      const done = await replayPage(t, page("layouts-and-menus.md"));
      assert.ok(done.length >= 12, `only ${done.length} calls`);
      const team = await visit(t, "/about/team/");
      assert.equal(team.status, 200);
      assert.match(
        team.text,
        /<li class="is-ancestor current-ancestor"><a href="http:\/\/localhost:8080\/about\/">About<\/a><ul><li class="is-current"><a href="http:\/\/localhost:8080\/about\/team\/" aria-current="page">Team<\/a>/,
      );
      assert.match(
        team.text,
        /<main>[\s\S]*<h1>Team<\/h1>[\s\S]*<\/main>\n<footer><p>Made by Acme<\/p><\/footer>/,
        "the page's markup in the main slot, the footer's default content",
      );
      assert.match(
        team.text,
        /<a href="https:\/\/example.org\/blog" target="_blank">Blog<\/a>/,
        "the item added in step 6",
      );
      // The refusals on the page wrote nothing.
      assert.equal((await t.call("GET", "/api/site/1/frames/wide")).status, 404);
      assert.equal((await t.call("GET", "/api/site/1/frames/base")).body.frame.layout, null);
      assert.equal((await t.call("GET", "/api/site/1/menus")).body.menus.length, 1);
    });
  });
  it("translations.md: its calls work in order and answer what the page shows; the German page shows the German tagline, the English footer as fallback, the switcher and the hreflang alternates", async () => {
    await withApp(async (t) => {
      await replayPage(t, page("translations.md"));
      const de = await visit(t, "/de/ueber-uns/");
      assert.equal(de.status, 200);
      assert.match(de.text, /<html lang="de">/);
      assert.match(de.text, /<strong>Websites, von Hand gemacht<\/strong>/);
      assert.match(
        de.text,
        /<footer>Made in Berlin<\/footer>/,
        "a key German lacks prints the default language's text",
      );
      assert.match(de.text, /<link rel="alternate" hreflang="en" href="http:\/\/localhost:8080\/about-us\/">/);
      assert.match(de.text, /lang-item-de current-lang is-current"><a href="http:\/\/localhost:8080\/de\/ueber-uns\/"/);
      const strings = await t.call("GET", "/api/site/1/strings?lang=de");
      assert.deepEqual(
        strings.body.strings,
        { de: { "brand.tagline": "Websites, von Hand gemacht" } },
        "the refused strings write changed nothing",
      );
    });
  });
  it("data-sets.md: its calls work in order and answer what the page shows; a set write rebakes the frame reading it, the German page lists the German variant and the English one the shared set", async () => {
    await withApp(async (t) => {
      const done = await replayPage(t, page("data-sets.md"));
      const writes = done.filter(
        (d) => d.call.method === "PUT" && d.call.url.pathname === "/api/site/1/data/team" && d.answer.status < 300,
      );
      assert.equal(writes.length, 3, "two writes of the shared set, one of the German variant");
      for (const w of writes.slice(1))
        assert.deepEqual(
          w.answer.body.rebaked.frames.map((f: { slug: string }) => f.slug),
          ["team"],
        );
      const en = await visit(t, "/team/");
      assert.match(en.text, /<li>Grace Hopper<\/li><li>Alan Turing<\/li><li>Katherine Johnson<\/li>/);
      assert.match(en.text, /<span>RESEARCH<\/span>/);
      const de = await visit(t, "/de/team/");
      assert.match(de.text, /<span>FORSCHUNG<\/span> <time datetime="2024-01-15">15\. Januar 2024<\/time>/);
      const sets = await t.call("GET", "/api/site/1/data");
      assert.deepEqual(
        sets.body.datasets.map((d: { name: string; lang: string | null; total: number }) => [d.name, d.lang, d.total]),
        [
          ["team", null, 4],
          ["team", "de", 4],
        ],
        "the dry run and the refusals wrote nothing",
      );
    });
  });
  it("undo-and-preview.md: its calls work in order and answer what the page shows; the restored price is public, previews write nothing, the preview link shows the draft until it is revoked, then 404", async () => {
    await withApp(async (t) => {
      let link: string | null = null;
      let opened = false;
      let revoked = false;
      await replayPage(t, page("undo-and-preview.md"), async ({ call, answer }) => {
        if (call.method === "POST" && call.url.pathname === "/api/site/1/preview/links" && answer.status === 201) {
          link = new URL(answer.body.url).pathname;
          const shown = await visit(t, link);
          assert.equal(shown.status, 200, "the link shows the draft");
          assert.match(shown.text, /<p>Coming soon\.<\/p>/);
          assert.equal(shown.headers["x-robots-tag"], "noindex");
          assert.equal(shown.headers["cache-control"], "private, no-store");
          opened = true;
        }
        if (call.method === "DELETE" && call.url.pathname === "/api/site/1/preview/links/1" && answer.status === 200) {
          assert.ok(link, "a link was made before it is revoked");
          assert.equal((await visit(t, link)).status, 404, "revoked, the address answers 404");
          revoked = true;
        }
      });
      assert.ok(opened && revoked, "the page makes a preview link and revokes it");
      assert.equal((await visit(t, "/launch/")).status, 404, "the draft stays a draft");
      assert.match(
        (await visit(t, "/pricing/")).text,
        /<body><h1>Pricing<\/h1><div><p>Starter: 9 EUR a month\.<\/p><\/div><\/body>/,
      );
      const history = await t.call("GET", "/api/site/1/pages/pricing/revisions");
      assert.equal(history.body.total, 3, "created, the mistake, the restore; the previews recorded nothing");
      assert.equal((await t.call("GET", "/api/site/1/trash")).body.items.length, 0, "the data set is out of the trash");
    });
  });
  it("deploying.md: its checks answer as shown; its backup command copies the running database (SQLite with sqlite3, PostgreSQL with pg_dump); its token command makes a well-formed token; every variable it names is in the README's configuration table", async (ctx) => {
    const markdown = readFileSync(page("deploying.md"), "utf8");
    const readme = readFileSync("README.md", "utf8");
    const table = markdown.slice(markdown.indexOf("### 2. Configure"), markdown.indexOf("### 3."));
    const named = table
      .split("\n")
      .filter((l) => l.startsWith("| `"))
      .flatMap((l) => [...l.split("|")[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
    assert.ok(named.length >= 15, `the configuration table names ${named.length} variables`);
    for (const name of named) {
      assert.ok(
        readme.includes(`\`${name}\``),
        `deploying.md names ${name}, which the README's configuration table does not`,
      );
    }
    const shell = (text: string) => {
      const fence = fences(markdown).find((f) => f.lang === "sh" && f.text.includes(text));
      assert.ok(fence, `deploying.md has no sh block with ${text}`);
      return fence.text;
    };
    const has = (command: string) => spawnSync("bash", ["-c", `command -v ${command}`]).status === 0;
    if (has("openssl")) {
      const made = spawnSync("bash", ["-euo", "pipefail", "-c", shell("openssl rand")], { encoding: "utf8" });
      assert.match(made.stdout.trim(), /^op_[A-Za-z0-9]{64}$/);
    } else ctx.diagnostic("openssl missing: the token command was not run");
    await withApp(async (t) => {
      await replayPage(t, page("deploying.md"));
      assert.ok(
        steps(markdown).every((s) => statements(s.block.text).every((c) => c.startsWith("curl"))),
        "the page's run blocks are checks only",
      );
      const work = mkdtempSync(join(tmpdir(), "svc-deploy-"));
      try {
        const pages = await t.call("POST", "/api/site/1/pages", { body: { title: "Kept", status: "draft" } });
        assert.equal(pages.status, 201);
        if (!t.config.databaseUrl) {
          if (!has("sqlite3")) return ctx.diagnostic("sqlite3 missing: the SQLite backup command was not run");
          symlinkSync(t.dataDir, join(work, "data"));
          const run = spawnSync("bash", ["-euo", "pipefail", "-c", shell(".backup")], { cwd: work, encoding: "utf8" });
          assert.equal(run.status, 0, run.stderr);
          const copy = new Database(join(work, "backups", "svc.db"), { readonly: true });
          try {
            assert.deepEqual(
              copy.prepare("select title from pages").all(),
              [{ title: "Kept" }],
              "the copy holds what was written",
            );
          } finally {
            copy.close();
          }
          const listed = spawnSync("tar", ["-tzf", join(work, "backups", "media.tar.gz")], { encoding: "utf8" });
          assert.match(listed.stdout, /^media\//m);
        } else {
          if (!has("pg_dump") || !has("pg_restore"))
            return ctx.diagnostic("pg_dump missing: the PostgreSQL backup command was not run");
          const run = spawnSync("bash", ["-euo", "pipefail", "-c", shell("pg_dump")], {
            cwd: work,
            encoding: "utf8",
            env: { ...process.env, DATABASE_URL: t.config.databaseUrl },
          });
          assert.equal(run.status, 0, run.stderr);
          const listed = spawnSync("pg_restore", ["--list", join(work, "backups", "svc.dump")], { encoding: "utf8" });
          assert.match(listed.stdout, /TABLE DATA public pages /);
        }
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    });
  });
});
