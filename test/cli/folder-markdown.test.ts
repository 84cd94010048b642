// Pages in Markdown as Markdown files with YAML front matter (pages/<lang>/<path>.md): pull writes
// the front matter and the source byte for byte, a push into an empty site makes the same page, a
// second push sends nothing, an edited body is pushed, and a file that cannot be read is named.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { read, serve, tempDir, write, type Served } from "./harness.ts";
import { must, newSite, svcSite } from "./folder-helpers.ts";

const SOURCE = "# Hello\n\nA *first* post with a [link](page:/about).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";

describe("svc and Markdown pages", () => {
  let t: Served;
  let source: number;
  const dir = tempDir("svc-folder-markdown-");
  before(async () => {
    t = await serve();
    source = (await newSite(t, "Source")).id;
    await must(t, source, "POST", "/frames", { slug: "post", html: "<article><!-- svc/content /--></article>" });
    await must(t, source, "POST", "/pages", { title: "About", slug: "about", frame: "post" });
    await must(t, source, "POST", "/pages", {
      title: "Hello: a post",
      slug: "hello",
      frame: "post",
      content_format: "markdown",
      content: SOURCE,
      date: "2025-01-02T03:04:05Z",
      tags: ["news"],
      fields: { lead: "yes", count: 3 },
    });
  });
  after(async () => {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("pull writes a Markdown page as front matter and its source", async () => {
    const run = await svcSite(t, source, ["pull", dir]);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(!existsSync(join(dir, "pages/_/hello.json")));
    const text = read(dir, "pages/_/hello.md");
    assert.ok(text.startsWith('---\ntitle: "Hello: a post"\nstatus: publish\ndate: "2025-01-02T03:04:05Z"\n'), text);
    assert.ok(text.endsWith(`\n---\n${SOURCE}`), text);
    assert.match(text, /^tags:\n {2}- news$/m);
    assert.match(text, /^ {2}lead: "yes"$/m);
    assert.ok(existsSync(join(dir, "pages/_/about.json")), "an HTML page stays JSON");
  });

  it("a push into an empty site makes the Markdown page; a second push sends nothing; an edit is pushed", async () => {
    const site = await newSite(t, "Target");
    const push = await svcSite(t, site.id, ["push", dir, "--force"]);
    assert.equal(push.code, 0, push.stdout + push.stderr);
    const page = (await must(t, site.id, "GET", "/pages/hello")).page;
    assert.equal(page.content_format, "markdown");
    assert.equal(page.content, SOURCE);
    assert.deepEqual(page.fields, { lead: "yes", count: 3 });
    const before = t.writes();
    const again = await svcSite(t, site.id, ["push", dir]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(t.writes(), before, again.stdout);
    write(dir, "pages/_/hello.md", read(dir, "pages/_/hello.md").replace("A *first* post", "An edited post"));
    const edit = await svcSite(t, site.id, ["push", dir]);
    assert.equal(edit.code, 0, edit.stdout + edit.stderr);
    assert.match(edit.stdout, /^update\s+pages\/_\/hello\.md/m);
    assert.match((await must(t, site.id, "GET", "/pages/hello")).page.content, /^An edited post/m);
  });

  it("a Markdown file without front matter, a JSON page in Markdown, or one page in two files is refused with its name", async () => {
    const bad = tempDir("svc-folder-markdown-bad-");
    write(bad, "pages/_/broken.md", "# No front matter\n");
    const run = await svcSite(t, source, ["push", bad, "--dry-run"]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /invalid_file: pages\/_\/broken\.md: a Markdown page starts with its front matter/);
    rmSync(join(bad, "pages/_/broken.md"));
    write(bad, "pages/_/other.json", JSON.stringify({ title: "Other", content_format: "markdown", content: "# x" }));
    const json = await svcSite(t, source, ["push", bad, "--dry-run"]);
    assert.equal(json.code, 1);
    assert.match(json.stderr, /a Markdown page is a \.md file: move it to pages\/_\/other\.md/);
    rmSync(join(bad, "pages/_/other.json"));
    // One page in two files: which is the page cannot be told.
    write(bad, "pages/_/twice.json", JSON.stringify({ title: "Twice", content: "<p>x</p>" }));
    write(bad, "pages/_/twice.md", "---\ntitle: Twice\n---\n# x\n");
    const twice = await svcSite(t, source, ["push", bad, "--dry-run"]);
    assert.equal(twice.code, 1);
    assert.match(
      twice.stderr,
      /invalid_file: pages\/_\/twice\.(md|json): pages\/_\/twice\.(json|md) holds the same page/,
    );
    rmSync(bad, { recursive: true, force: true });
  });
});
