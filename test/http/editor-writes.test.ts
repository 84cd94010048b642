// What an editor does with the content of a site (docs/roles.md), through the real server with an
// editor's token: pages (create, edit, translate, publish, unpublish, trash, restore), media
// (upload, alt text, delete), a data set, a menu and its items, redirects, strings, a sidebar,
// previews and preview links, a page revision restored — each answered 2xx and kept. A frame's
// revision, and a frame or a stylesheet in the trash, are the administrators': 403
// insufficient_role, nothing written.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startEditedSite, type Answer, type EditedSite, type TestApp } from "../support/app.ts";
import { noisyPng } from "../media/serving-helpers.ts";
import { uploadRaw } from "../media/upload-helpers.ts";

function done(answer: Answer, what: string, status = 200): any {
  assert.equal(answer.status, status, `${what}: ${answer.status} ${answer.text}`);
  return answer.body;
}

function refused(answer: Answer, what: string): void {
  assert.deepEqual([answer.status, answer.body?.code], [403, "insufficient_role"], `${what}: ${answer.text}`);
}

describe("an editor writes a site's content", () => {
  let t: TestApp;
  let site: number;
  let editor: { id: number; token: string };
  let as: EditedSite["as"];
  let admin: EditedSite["admin"];

  before(async () => {
    ({ t, site, editor, as, admin } = await startEditedSite("Edited", "edited-writes.localhost", "content-editor"));
    const layout = `<!DOCTYPE html><html><body><nav><!-- svc/menu {"location": "header"} /--></nav><main data-op-bind='{"html": "page.content"}'></main></body></html>`;
    done(await admin("POST", "/frames", { slug: "layout", html: layout }), "frame", 201);
    done(await admin("PUT", "/styles/main", { css: "body { color: black }" }), "style", 201);
  });
  after(() => t.close());

  it("pages: create, edit, translate, publish and unpublish, trash, delete for good and restore from the trash, restore a revision", async () => {
    const created = done(
      await as("POST", "/pages", { title: "About", frame: "layout", content: "<p>Hello</p>", status: "draft" }),
      "create",
      201,
    ).page;
    done(await as("PATCH", `/pages/${created.id}`, { content: "<p>Hello again</p>" }), "edit");
    done(await as("PATCH", `/pages/${created.id}`, { status: "publish" }), "publish");
    const translation = done(
      await as("POST", "/pages/language", { page: created.id, lang: "de", title: "Über uns" }),
      "translate",
      201,
    ).page;
    assert.equal(translation.lang, "de");
    done(await as("PATCH", `/pages/${created.id}`, { status: "draft" }), "unpublish");
    done(await as("DELETE", `/pages/${translation.id}`), "trash");
    done(await as("DELETE", `/pages/${translation.id}?force=true`), "delete for good");
    done(await as("POST", `/trash/pages/${translation.id}/restore`), "restore from the trash");
    const restored = done(await as("POST", `/pages/${created.id}/revisions/1/restore`), "restore revision 1");
    assert.equal(restored.page.content, "<p>Hello</p>");
    assert.equal((await admin("GET", `/pages/${translation.id}`)).body.page.title, "Über uns");
  });

  it("media: upload, alt text, delete", async () => {
    const uploaded = done(
      await uploadRaw(t, site, await noisyPng(30, 20), { filename: "team.png", token: editor.token }),
      "upload",
      201,
    ).media;
    const alt = done(await as("PATCH", `/media/${uploaded.id}`, { alt: "The team", title: "Team" }), "alt").media;
    assert.ok(JSON.stringify(alt).includes("The team"), JSON.stringify(alt));
    done(await as("DELETE", `/media/${uploaded.id}?force=1`), "delete");
  });

  it("a data set, a menu and its items, a redirect, strings, a sidebar, a preview and a preview link", async () => {
    const home = done(await as("POST", "/pages", { title: "Home", frame: "layout" }), "page", 201).page.id;
    done(await as("PUT", "/data/team", { items: [{ name: "Ada" }] }), "data set", 201);
    const menu = done(await as("POST", "/menus", { name: "Main", location: "header", items: [home] }), "menu", 201);
    done(await as("POST", `/menus/${menu.menu.id}/items`, { url: "/feed", title: "Feed" }), "menu item", 201);
    done(await as("POST", "/seo/redirects", { from: "/old/", to: "/home/" }), "redirect", 201);
    done(await as("PUT", "/strings", { strings: { "footer.note": "Made here" } }), "strings");
    done(await as("PUT", "/sidebars/docs", { items: [{ page: home }] }), "sidebar", 201);
    done(await as("PATCH", `/seo/pages/${home}`, { description: "The start." }), "page SEO");
    const preview = done(await as("POST", "/preview", { page: home, page_fields: { title: "Draft" } }), "preview");
    assert.match(preview.html, /<main/);
    done(await as("POST", "/preview/links", { page: home }), "preview link", 201);
  });

  it("a frame's revision, and a frame or a stylesheet in the trash, are the administrators': 403 insufficient_role, nothing written", async () => {
    done(await admin("PUT", "/frames/layout", { html: "<!DOCTYPE html><html><body>v2</body></html>" }), "frame v2");
    refused(await as("POST", "/frames/layout/revisions/1/restore"), "restore a frame revision");
    assert.match((await admin("GET", "/frames/layout")).body.frame.html, /v2/);
    done(await admin("POST", "/frames", { slug: "old", html: "<p>old</p>" }), "frame", 201);
    const oldId = (await admin("GET", "/frames/old")).body.frame.id;
    done(await admin("DELETE", "/frames/old"), "delete frame");
    done(await admin("DELETE", "/styles/main"), "delete style");
    const trash = () => admin("GET", "/trash").then((r) => r.body.items.map((i: { kind: string }) => i.kind).sort());
    const before = await trash();
    refused(await as("POST", `/trash/frames/${oldId}/restore`), "restore a frame from the trash");
    refused(await as("DELETE", `/trash/frames/${oldId}`), "purge a frame");
    const style = (await admin("GET", "/trash")).body.items.find((i: { kind: string }) => i.kind === "styles");
    refused(await as("POST", `/trash/styles/${encodeURIComponent(style.id)}/restore`), "restore a stylesheet");
    refused(await as("DELETE", `/trash/styles/${encodeURIComponent(style.id)}?dry_run=1`), "purge a stylesheet");
    assert.deepEqual(await trash(), before, "the trash is as it was");
    assert.ok(before.includes("frames") && before.includes("styles"), before.join());
  });
});
