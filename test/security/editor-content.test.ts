// What an editor writes cannot carry script (docs/security.md, "Trust model"; docs/roles.md): an
// editor's page content, page fields, translations, data items and preview fields are stored
// through the allowlist sanitiser, each value that lost something named in a warning
// content_sanitized; a dry run warns the same and stores nothing; an administrator's identical
// write is kept byte for byte. Iframes stay only from the hosts of the setting iframe_hosts.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startEditedSite, type Answer, type EditedSite, type TestApp } from "../support/app.ts";
import { visit } from "../support/site.ts";

const DIRTY =
  '<h2 onclick="steal()">Title</h2><p>Text <a href="javascript:alert(1)">link</a> <a href="https://ok.example/">ok</a></p>' +
  "<script>alert(1)</script><style>body { display: none }</style>" +
  '<iframe src="https://evil.example/"></iframe><iframe src="https://www.youtube-nocookie.com/embed/x" title="Video"></iframe>';
const CLEAN =
  '<h2>Title</h2><p>Text <a>link</a> <a href="https://ok.example/">ok</a></p>' +
  '<iframe src="https://www.youtube-nocookie.com/embed/x" title="Video"></iframe>';
/** As printed: headings get ids (docs/markup.md, `page.content`). */
const PRINTED = CLEAN.replace("<h2>", '<h2 id="title">');
const REMOVED = ["event_handler", "javascript_url", "script", "style", "iframe"];

interface Sanitized {
  code: string;
  message: string;
  field: string | null;
  removed?: string[];
  item?: number;
}

function ok(answer: Answer, what: string, status = 200): any {
  assert.equal(answer.status, status, `${what}: ${answer.status} ${answer.text}`);
  return answer.body;
}

/** The content_sanitized warnings of an answer, by field. */
function sanitized(body: { warnings?: Sanitized[] }): Record<string, Sanitized> {
  const found = (body.warnings ?? []).filter((w) => w.code === "content_sanitized");
  return Object.fromEntries(found.map((w) => [String(w.field), w]));
}

describe("security: what an editor writes is sanitised, what an administrator writes is not", () => {
  let t: TestApp;
  let as: EditedSite["as"];
  let admin: EditedSite["admin"];

  before(async () => {
    ({ t, as, admin } = await startEditedSite("Sanitised", "sanitised.localhost", "html-editor"));
    const layout = `<!DOCTYPE html><html><body><main data-op-bind='{"html": "page.content"}'></main><aside data-op-bind='{"html": "page.fields.body"}'></aside></body></html>`;
    ok(await admin("POST", "/frames", { slug: "layout", html: layout }), "frame", 201);
    ok(await admin("PATCH", "/settings", { iframe_hosts: ["www.youtube-nocookie.com"] }), "iframe hosts");
  });
  after(() => t.close());

  it("an editor's page content is stored clean (an allowed iframe kept), warned content_sanitized with what went; the public page carries no script", async () => {
    const written = ok(await as("POST", "/pages", { title: "Dirty", frame: "layout", content: DIRTY }), "create", 201);
    assert.equal(written.page.content, CLEAN);
    assert.deepEqual(Object.keys(sanitized(written)), ["content"]);
    assert.deepEqual([...sanitized(written).content.removed!].sort(), [...REMOVED].sort());
    assert.equal((await admin("GET", `/pages/${written.page.id}`)).body.page.content, CLEAN);
    const shown = await visit(t, "/dirty/", "sanitised.localhost:8080");
    assert.equal(shown.status, 200, shown.body);
    assert.ok(shown.body.includes(PRINTED), shown.body);
    assert.ok(!/<script|onclick|javascript:|evil\.example/i.test(shown.body), shown.body);
  });

  it("an administrator's identical write keeps its raw HTML, with no warning", async () => {
    const written = ok(await admin("POST", "/pages", { title: "Raw", frame: "layout", content: DIRTY }), "create", 201);
    assert.equal(written.page.content, DIRTY);
    assert.deepEqual(sanitized(written), {});
    const fields = { body: "<b onmouseover=x>hi</b>" };
    const patched = ok(await admin("PATCH", `/pages/${written.page.id}`, { fields }), "fields");
    assert.deepEqual(patched.page.fields, fields);
    const data = [{ bio: "<p onclick=x>Hi</p><script>1</script>" }];
    ok(await admin("PUT", "/data/raw", { items: data }), "data", 201);
    assert.deepEqual((await admin("GET", "/data/raw")).body.items, data);
  });

  it("an editor's page fields: strings holding markup sanitised at any depth, a javascript: URL emptied, plain text kept; each value named", async () => {
    const page = ok(await as("POST", "/pages", { title: "Fields", frame: "layout" }), "create", 201).page;
    const fields = {
      body: "<b onmouseover=x>hi</b>",
      link: " javascript:alert(1)",
      plain: "a < b & c",
      card: { list: ["<script>x</script>ok", "fine"] },
      count: 3,
    };
    const written = ok(await as("PATCH", `/pages/${page.id}`, { fields }), "fields");
    assert.deepEqual(written.page.fields, {
      body: "<b>hi</b>",
      link: "",
      plain: "a < b & c",
      card: { list: ["ok", "fine"] },
      count: 3,
    });
    const warned = sanitized(written);
    assert.deepEqual(Object.keys(warned).sort(), ["fields.body", "fields.card.list.0", "fields.link"]);
    assert.deepEqual(warned["fields.link"].removed, ["javascript_url"]);
    const shown = await visit(t, "/fields/", "sanitised.localhost:8080");
    assert.ok(shown.body.includes("<aside><b>hi</b></aside>"), shown.body);
  });

  it("a dry run warns the same and stores nothing", async () => {
    const page = ok(
      await as("POST", "/pages", { title: "Dry", frame: "layout", content: "<p>before</p>" }),
      "create",
      201,
    );
    const dry = ok(await as("PATCH", `/pages/${page.page.id}?dry_run=1`, { content: DIRTY }), "dry run");
    assert.equal(dry.dry_run, true);
    assert.deepEqual([...sanitized(dry).content.removed!].sort(), [...REMOVED].sort());
    assert.equal((await admin("GET", `/pages/${page.page.id}`)).body.page.content, "<p>before</p>");
  });

  it("an editor's translation content and data items are sanitised, data items named by index", async () => {
    const origin = ok(await as("POST", "/pages", { title: "Origin", frame: "layout", lang: "en" }), "origin", 201);
    const translated = ok(
      await as("POST", "/pages/language", { page: origin.page.id, lang: "de", title: "Herkunft", content: DIRTY }),
      "translate",
      201,
    );
    assert.equal(translated.page.content, CLEAN);
    assert.deepEqual(Object.keys(sanitized(translated)), ["content"]);
    const items = [{ name: "Ada" }, { name: "Grace", bio: "<p onclick=x>Admiral</p><script>1</script>" }];
    const data = ok(await as("PUT", "/data/team", { items }), "data set", 201);
    assert.deepEqual(sanitized(data)["items.1.bio"], {
      code: "content_sanitized",
      message: sanitized(data)["items.1.bio"].message,
      field: "items.1.bio",
      removed: ["event_handler", "script"],
      item: 1,
    });
    assert.deepEqual((await admin("GET", "/data/team")).body.items, [
      { name: "Ada" },
      { name: "Grace", bio: "<p>Admiral</p>" },
    ]);
  });

  it("past 100 sanitised values, one more warning counts the rest", async () => {
    const items = Array.from({ length: 103 }, (_, i) => ({ n: i, bio: "<b onclick=x>b</b>" }));
    const data = ok(await as("PUT", "/data/many", { items }), "data set", 201);
    const warned = (data.warnings as Sanitized[]).filter((w) => w.code === "content_sanitized");
    assert.equal(warned.length, 101);
    assert.deepEqual(warned.at(-2)!.field, "items.99.bio");
    assert.deepEqual(
      { ...warned.at(-1)!, message: "" },
      { code: "content_sanitized", message: "", field: null, values: 3 },
    );
  });

  it("an editor's preview shows what a save would keep, with the same warning", async () => {
    const page = ok(await as("POST", "/pages", { title: "Preview me", frame: "layout" }), "create", 201).page;
    const preview = ok(await as("POST", "/preview", { page: page.id, page_fields: { content: DIRTY } }), "preview");
    assert.ok(preview.html.includes(PRINTED), preview.html);
    assert.ok(!/<script|onclick/i.test(preview.html), preview.html);
    assert.deepEqual(Object.keys(sanitized(preview)), ["page_fields.content"]);
  });

  it("iframe_hosts is the administrators' setting: an editor may not write it (403), and without it every iframe an editor writes goes", async () => {
    const refused = await as("PATCH", "/settings", { iframe_hosts: ["evil.example"] });
    assert.deepEqual([refused.status, refused.body.code], [403, "insufficient_role"]);
    ok(await admin("PATCH", "/settings", { iframe_hosts: null }), "cleared");
    const written = ok(await as("POST", "/pages", { title: "No frames", content: DIRTY }), "create", 201);
    assert.ok(!written.page.content.includes("<iframe"), written.page.content);
    ok(await admin("PATCH", "/settings", { iframe_hosts: ["www.youtube-nocookie.com"] }), "restored");
  });
});
