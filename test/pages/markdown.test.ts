// Markdown content (docs/content-model.md, "Markdown"): `content_format` on every page write and
// read; the source kept as written (the API, revisions) and printed as HTML (`page.content`,
// `svc/toc`) with GitHub's tables, strikethrough, task lists and autolinks; `page:` links at the
// linked page's current address, `media:` images as `svc/image` prints them, unknown references
// warned of at write time; an editor's raw HTML printed through the sanitiser, an
// administrator's kept; a dry run.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startEditedSite, type Answer, type EditedSite, type TestApp } from "../support/app.ts";
import { visit } from "../support/site.ts";
import { PNG } from "../support/write-scenarios.ts";

const HOST = "markdown.localhost:8080";
const LAYOUT =
  `<!DOCTYPE html><html><body><!-- svc/toc {"levels": [2, 3]} /-->` +
  `<main data-op-bind='{"html": "page.content"}'></main></body></html>`;

function ok(answer: Answer, what: string, status = 200): any {
  assert.equal(answer.status, status, `${what}: ${answer.status} ${answer.text}`);
  return answer.body;
}

const codes = (body: { warnings: Array<{ code: string }> }) => body.warnings.map((w) => w.code);

describe("Markdown content: written as source, printed as HTML", () => {
  let t: TestApp;
  let as: EditedSite["as"];
  let admin: EditedSite["admin"];
  let S: string;
  /** The <main> of a public page. */
  const printed = async (path: string) => {
    const shown = await visit(t, path, HOST);
    assert.equal(shown.status, 200, `${path}: ${shown.body}`);
    return { main: /<main>([\s\S]*)<\/main>/.exec(shown.body)![1], body: shown.body };
  };

  before(async () => {
    ({ t, as, admin, S } = await startEditedSite("Markdown", "markdown.localhost", "md-editor"));
    ok(await admin("POST", "/frames", { slug: "layout", html: LAYOUT }), "frame", 201);
  });
  after(() => t.close());

  it("content_format defaults to html, is answered on every read, and refuses another value", async () => {
    const html = ok(
      await admin("POST", "/pages", { title: "Plain", frame: "layout", content: "<p>*x*</p>" }),
      "html",
      201,
    );
    assert.equal(html.page.content_format, "html");
    assert.equal((await printed("/plain/")).main, "<p>*x*</p>");
    const refused = await admin("PATCH", `/pages/${html.page.id}`, { content_format: "textile" });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.error, "invalid_field");
    assert.equal(refused.body.field, "content_format");
    const listed = ok(await admin("GET", "/pages"), "list").pages.find((p: any) => p.id === html.page.id);
    assert.equal(listed.content_format, "html");
  });

  it("CommonMark with GitHub's tables, strikethrough, task lists and autolinks; the API answers the source", async () => {
    const source = [
      "## Getting started",
      "",
      "Some *emphasis*, **strong**, `code` and ~~struck~~ text.",
      "",
      "| Name | Price |",
      "|:-----|------:|",
      "| Tea  | 3 |",
      "",
      "- [x] done",
      "- [ ] to do",
      "",
      "Visit https://example.org/docs or www.example.com.",
      "",
      "### Details",
      "",
      "```js",
      "let a = 1 < 2;",
      "```",
    ].join("\n");
    const written = ok(
      await admin("POST", "/pages", { title: "Guide", frame: "layout", content_format: "markdown", content: source }),
      "create",
      201,
    );
    assert.equal(written.page.content, source);
    assert.equal(written.page.content_format, "markdown");
    assert.equal(ok(await admin("GET", `/pages/${written.page.id}`), "read").page.content, source);
    const { main, body } = await printed("/guide/");
    assert.ok(main.includes('<h2 id="getting-started">Getting started</h2>'), main);
    assert.ok(main.includes("<em>emphasis</em>") && main.includes("<strong>strong</strong>"), main);
    assert.ok(main.includes("<code>code</code>") && main.includes("<s>struck</s>"), main);
    assert.ok(main.includes('<th align="left">Name</th>') && main.includes('<td align="right">3</td>'), main);
    assert.match(
      main,
      /<li class="task-list-item"><input type="checkbox"[^>]* checked="checked" disabled="disabled"> done<\/li>/,
    );
    assert.match(main, /<li class="task-list-item"><input type="checkbox"[^>]* disabled="disabled"> to do<\/li>/);
    assert.ok(main.includes('<a href="https://example.org/docs">https://example.org/docs</a>'), main);
    assert.ok(main.includes('<a href="http://www.example.com">www.example.com</a>'), main);
    assert.ok(main.includes('<pre><code class="language-js">let a = 1 &lt; 2;'), main);
    // svc/toc lists the Markdown headings by the ids they print with, as it lists HTML ones.
    assert.ok(
      body.includes(
        '<nav class="toc"><ul><li><a href="#getting-started">Getting started</a><ul><li><a href="#details">Details</a></li></ul></li></ul></nav>',
      ),
      body,
    );
  });

  it("page: links print the linked page's current address; media: images print as svc/image; unknown ones are warned of", async () => {
    const about = ok(await admin("POST", "/pages", { title: "About us", frame: "layout" }), "about", 201).page;
    const upload = { payload: PNG.bytes, headers: { "content-type": PNG.type } };
    const file = ok(await t.call("POST", `${S}/media?filename=dot.png`, upload), "media", 201).media;
    ok(await admin("PATCH", `/media/${file.id}`, { alt: "A dot" }), "alt");
    const source =
      `See [us](page:about-us), [by id](page:${about.id}), [nobody](page:nobody) and [the file](media:dot).\n\n` +
      `![](media:dot) ![Written alt](media:${file.id}) ![](media:missing)`;
    const written = ok(
      await admin("POST", "/pages", { title: "Links", frame: "layout", content_format: "markdown", content: source }),
      "links",
      201,
    );
    const warned = written.warnings.filter((w: any) => w.code.startsWith("unknown_"));
    assert.deepEqual(
      warned.map((w: any) => [w.code, w.ref, w.field]),
      [
        ["unknown_page_ref", "nobody", "content"],
        ["unknown_media_ref", "missing", "content"],
      ],
    );
    const { main } = await printed("/links/");
    const address = `http://${HOST}/about-us/`;
    assert.ok(main.includes(`See <a href="${address}">us</a>, <a href="${address}">by id</a>, nobody and`), main);
    assert.ok(main.includes(`<a href="${file.url}">the file</a>`), main);
    assert.ok(main.includes(`<img src="${file.url}" width="1" height="1" alt="A dot" decoding="async">`), main);
    assert.ok(main.includes(`<img src="${file.url}" width="1" height="1" alt="Written alt" decoding="async">`), main);
    assert.ok(!main.includes("missing") && !main.includes("page:") && !main.includes("media:"), main);

    // The link follows the page it named when written, through a rename and a move.
    ok(await admin("PATCH", `/pages/${about.id}`, { slug: "who-we-are" }), "rename");
    assert.ok((await printed("/links/")).main.includes(`<a href="http://${HOST}/who-we-are/">us</a>`));
    const parent = ok(await admin("POST", "/pages", { title: "Company", frame: "layout" }), "parent", 201).page;
    ok(await admin("PATCH", `/pages/${about.id}`, { parent: parent.id }), "move");
    assert.ok((await printed("/links/")).main.includes(`<a href="http://${HOST}/company/who-we-are/">us</a>`));
    // A page that is not public prints the link's text alone.
    ok(await admin("PATCH", `/pages/${about.id}`, { status: "draft" }), "draft");
    assert.ok((await printed("/links/")).main.includes("See us, by id, nobody and"));
  });

  it("a page: link written before its page exists waits for it: the page made, renamed into the name or brought back from the trash, the link prints its address", async () => {
    const source = "Read [later](page:w-later), [the guide](page:/w-docs/w-guide) and [elsewhere](page:w-elsewhere).";
    const linking = ok(
      await admin("POST", "/pages", { title: "Early", frame: "layout", content_format: "markdown", content: source }),
      "early",
      201,
    );
    assert.deepEqual(
      codes(linking).filter((c) => c === "unknown_page_ref"),
      ["unknown_page_ref", "unknown_page_ref", "unknown_page_ref"],
    );
    assert.ok((await printed("/early/")).main.includes("Read later, the guide and elsewhere."));
    ok(await admin("POST", "/pages", { title: "W later", frame: "layout" }), "later", 201);
    const docs = ok(await admin("POST", "/pages", { title: "W docs", frame: "layout" }), "docs", 201).page;
    const guide = ok(await admin("POST", "/pages", { title: "W guide", frame: "layout" }), "guide", 201).page;
    ok(await admin("PATCH", `/pages/${guide.id}`, { parent: docs.id }), "moved into the name");
    let main = (await printed("/early/")).main;
    assert.ok(main.includes(`<a href="http://${HOST}/w-later/">later</a>`), main);
    assert.ok(main.includes(`<a href="http://${HOST}/w-docs/w-guide/">the guide</a>`), main);
    // A page brought back from the trash takes a link written while it was there.
    const gone = ok(await admin("POST", "/pages", { title: "W elsewhere", frame: "layout" }), "elsewhere", 201).page;
    ok(await admin("DELETE", `/pages/${gone.id}`), "trashed");
    const again = ok(await admin("PATCH", "/pages/early", { content: `${source}\n` }), "written again");
    assert.ok(codes(again).includes("unknown_page_ref"), "the trashed page is no target");
    assert.ok((await printed("/early/")).main.includes("and elsewhere."));
    ok(await admin("PATCH", `/pages/${gone.id}`, { status: "publish" }), "back from the trash");
    main = (await printed("/early/")).main;
    assert.ok(main.includes(`<a href="http://${HOST}/w-elsewhere/">elsewhere</a>`), main);
  });

  it("an editor's raw HTML prints sanitised and the write warns; an administrator's prints as written; the source is kept", async () => {
    const source = 'Hello <b onclick="steal()">there</b>\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1))';
    const byEditor = ok(
      await as("POST", "/pages", { title: "Edited", frame: "layout", content_format: "markdown", content: source }),
      "editor",
      201,
    );
    assert.equal(byEditor.page.content, source);
    const warned = byEditor.warnings.find((w: any) => w.code === "content_sanitized");
    assert.ok(warned, JSON.stringify(byEditor.warnings));
    assert.equal(warned.field, "content");
    assert.deepEqual([...warned.removed].sort(), ["event_handler", "script"]);
    const edited = (await printed("/edited/")).main;
    assert.ok(edited.includes("<b>there</b>"), edited);
    assert.ok(!/<script|onclick|href="javascript:/i.test(edited), edited);

    const byAdmin = ok(
      await admin("POST", "/pages", { title: "Trusted", frame: "layout", content_format: "markdown", content: source }),
      "admin",
      201,
    );
    assert.ok(!codes(byAdmin).includes("content_sanitized"));
    const trusted = (await printed("/trusted/")).main;
    assert.ok(
      trusted.includes('<b onclick="steal()">there</b>') && trusted.includes("<script>alert(1)</script>"),
      trusted,
    );
    // markdown-it itself never links a javascript: URL, whoever writes it.
    assert.ok(!trusted.includes('href="javascript:'), trusted);

    // An editor's source made HTML (the format alone changed) is sanitised then.
    const plain = ok(await as("PATCH", `/pages/${byEditor.page.id}`, { content_format: "html" }), "to html");
    assert.equal(plain.page.content_format, "html");
    assert.ok(!/<script|onclick/i.test(plain.page.content), plain.page.content);
    // An editor taking over an administrator's Markdown (the format alone) prints it sanitised.
    ok(await as("PATCH", `/pages/${byAdmin.page.id}`, { content_format: "html" }), "admin's to html");
    ok(await as("PATCH", `/pages/${byAdmin.page.id}`, { content_format: "markdown" }), "back to markdown");
    assert.ok(!/<script|onclick/i.test((await printed("/trusted/")).main));
  });

  it("revisions keep the source and its format, and a restore brings both back", async () => {
    const first = "# One\n\nFirst *version*.";
    const written = ok(
      await admin("POST", "/pages", { title: "Kept", frame: "layout", content_format: "markdown", content: first }),
      "create",
      201,
    );
    const id = written.page.id;
    ok(await admin("PATCH", `/pages/${id}`, { content_format: "html", content: "<p>Second</p>" }), "second");
    const revisions = ok(await admin("GET", `/pages/${id}/revisions`), "revisions").revisions;
    const oldest = revisions[revisions.length - 1];
    const kept = ok(await admin("GET", `/pages/${id}/revisions/${oldest.revision}`), "revision");
    const state = JSON.parse(kept.revision.content);
    assert.equal(state.content, first);
    assert.equal(state.content_format, "markdown");
    const diff = ok(await admin("GET", `/pages/${id}/revisions/${oldest.revision}/diff`), "diff");
    assert.ok(JSON.stringify(diff).includes("First *version*."), JSON.stringify(diff));
    const restored = ok(await admin("POST", `/pages/${id}/revisions/${oldest.revision}/restore`), "restore");
    assert.equal(restored.page.content, first);
    assert.equal(restored.page.content_format, "markdown");
    assert.ok((await printed("/kept/")).main.includes("<p>First <em>version</em>.</p>"));
  });

  it("a dry run answers the warnings and writes nothing", async () => {
    const page = ok(
      await admin("POST", "/pages", { title: "Dry", frame: "layout", content: "<p>Before</p>" }),
      "page",
      201,
    );
    const dry = ok(
      await admin("PATCH", `/pages/${page.page.id}?dry_run=1`, {
        content_format: "markdown",
        content: "[x](page:nowhere)",
      }),
      "dry run",
    );
    assert.equal(dry.dry_run, true);
    assert.ok(codes(dry).includes("unknown_page_ref"), JSON.stringify(dry.warnings));
    const stored = ok(await admin("GET", `/pages/${page.page.id}`), "read").page;
    assert.deepEqual([stored.content_format, stored.content], ["html", "<p>Before</p>"]);
    assert.equal((await printed("/dry/")).main, "<p>Before</p>");
  });

  it("a preview shows Markdown as a save would print it: an editor's raw HTML sanitised, its page: links resolved", async () => {
    const page = ok(
      await admin("POST", "/pages", { title: "Previewed", frame: "layout", content: "<p>Saved</p>" }),
      "page",
      201,
    );
    const preview = ok(
      await as("POST", "/preview", {
        page: page.page.id,
        page_fields: { content_format: "markdown", content: "## Soon\n\n[Guide](page:guide) <i onclick=x>now</i>" },
      }),
      "preview",
    );
    assert.ok(preview.html.includes('<h2 id="soon">Soon</h2>'), preview.html);
    assert.ok(preview.html.includes(`<a href="http://${HOST}/guide/">Guide</a> <i>now</i>`), preview.html);
    assert.deepEqual(
      preview.warnings.filter((w: any) => w.code === "content_sanitized").map((w: any) => [w.field, w.removed]),
      [["page_fields.content", ["event_handler"]]],
    );
    assert.equal((await printed("/previewed/")).main, "<p>Saved</p>");
  });

  it("a translation copies the source and its format; its page: links look in its own language first", async () => {
    ok(await admin("POST", "/pages", { title: "Kontakt", lang: "de", frame: "layout" }), "de", 201);
    ok(await admin("POST", "/pages", { title: "Contact", lang: "en", frame: "layout" }), "en", 201);
    const origin = ok(
      await admin("POST", "/pages", {
        title: "Hello",
        lang: "en",
        frame: "layout",
        content_format: "markdown",
        content: "[Write](page:contact) [Schreiben](page:kontakt)",
      }),
      "origin",
      201,
    ).page;
    const made = ok(await admin("POST", "/pages/language", { page: origin.id, lang: "de", title: "Hallo" }), "de", 201);
    assert.equal(made.page.content_format, "markdown");
    assert.equal(made.page.content, origin.content);
    assert.ok((await printed("/hello/")).main.includes(`<a href="http://${HOST}/contact/">Write</a>`));
    assert.ok((await printed("/de/hallo/")).main.includes(`<a href="http://${HOST}/de/kontakt/">Schreiben</a>`));
  });
});
