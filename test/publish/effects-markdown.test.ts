// Effect table, Markdown content (docs/publishing.md; pattern in effects-helpers.ts): a page's
// new content format prints at once, and a page whose Markdown links to a page or shows a media
// file prints anew when that page is renamed or moved, or the file is renamed or replaced.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import sharp from "sharp";
import { call } from "../cluster/helpers.ts";
import { bind, effects, ok, served, SITE, suite } from "./effects-helpers.ts";

const LAYOUT = `<!DOCTYPE html><html><body><main ${bind("html", "page.content")}></main></body></html>`;

/** What a page's <main> printed. */
const main = (html: string) => /<main>([\s\S]*)<\/main>/.exec(html)?.[1] ?? "";

function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 90, b: 160 } } })
    .png()
    .toBuffer();
}

describe(suite("Markdown"), () => {
  const fx = effects();

  const upload = async (filename: string, bytes: Buffer, method = "POST", ref = "") => {
    const path = ref === "" ? `${SITE}/media?filename=${filename}` : `${SITE}/media/${ref}?filename=${filename}`;
    const reply = await call(fx.cluster.processes[0].port, method, path, {
      token: fx.cluster.token,
      payload: bytes,
      headers: { "content-type": "image/png" },
    });
    return ok(reply, `${method} ${filename}`, method === "POST" ? 201 : 200).media;
  };

  /** A Markdown page on the layout, fetched twice; answers its address. */
  const markdownPage = async (slug: string, content: string) => {
    await fx.page(slug, "md-layout", { content_format: "markdown", content });
    await fx.primed(`/${slug}/`);
    return `/${slug}/`;
  };

  it("PATCH content_format: the page prints its content as Markdown, and back as HTML", async () => {
    await fx.frame("md-layout", LAYOUT);
    await fx.page("md-format", "md-layout", { content: "Some *words*" });
    assert.equal(main((await fx.primed("/md-format/")).text), "Some *words*");
    ok(await fx.api("PATCH", "/pages/md-format", { content_format: "markdown" }), "to markdown");
    assert.equal(main(served(await fx.visit("/md-format/"), "after")), "<p>Some <em>words</em></p>\n");
    ok(await fx.api("PATCH", "/pages/md-format", { content_format: "html" }), "to html");
    assert.equal(main(served(await fx.visit("/md-format/"), "back")), "Some *words*");
  });

  it("a linked page renamed, moved or unpublished: the linking page prints its new address, or the text alone", async () => {
    const target = await fx.page("md-target", "md-layout");
    const path = await markdownPage("md-linking", `Read [the target](page:md-target).`);
    assert.ok(main((await fx.visit(path)).text).includes('<a href="http://localhost/md-target/">the target</a>'));
    ok(await fx.api("PATCH", `/pages/${target}`, { slug: "md-renamed" }), "rename");
    assert.ok(
      main(served(await fx.visit(path), "after the rename")).includes(
        '<a href="http://localhost/md-renamed/">the target</a>',
      ),
    );
    await fx.page("md-parent", "md-layout");
    ok(await fx.api("PATCH", `/pages/${target}`, { parent: "md-parent" }), "move");
    assert.ok(
      main(served(await fx.visit(path), "after the move")).includes(
        '<a href="http://localhost/md-parent/md-renamed/">the target</a>',
      ),
    );
    ok(await fx.api("PATCH", `/pages/${target}`, { status: "draft" }), "unpublish");
    assert.equal(main(served(await fx.visit(path), "after the unpublish")), "<p>Read the target.</p>\n");
  });

  it("a linked page renamed: the feed of the linking page's parent holds the new address", async () => {
    await fx.page("md-feed-target", "md-layout");
    await fx.page("md-news", "md-layout", { feed: true });
    await fx.page("md-post", "md-layout", {
      parent: "md-news",
      content_format: "markdown",
      content: "See [the target](page:md-feed-target).",
    });
    const feed = "/md-news/feed.xml";
    assert.ok((await fx.primed(feed)).text.includes("http://localhost/md-feed-target/"));
    ok(await fx.api("PATCH", "/pages/md-feed-target", { slug: "md-feed-renamed" }), "rename");
    const after = served(await fx.visit(feed), "after the rename");
    assert.ok(after.includes("http://localhost/md-feed-renamed/"), after);
  });

  it("a page made under the name a link waited for: the linking page prints the link", async () => {
    const path = await markdownPage("md-soon", "Soon [the launch](page:md-launch).");
    assert.equal(main((await fx.visit(path)).text), "<p>Soon the launch.</p>\n");
    await fx.page("md-launch", "md-layout");
    assert.equal(
      main(served(await fx.visit(path), "after the page was made")),
      '<p>Soon <a href="http://localhost/md-launch/">the launch</a>.</p>\n',
    );
  });

  it("a shown media file replaced or renamed: the page prints the new file, or nothing for the former name", async () => {
    const file = await upload("md-photo.png", await png(400, 300));
    const path = await markdownPage("md-showing", "![](media:md-photo)");
    assert.ok(main((await fx.visit(path)).text).includes(`src="${file.url}"`));
    const replaced = await upload("md-photo.png", await png(640, 200), "PUT", String(file.id));
    const after = main(served(await fx.visit(path), "after the PUT"));
    assert.ok(after.includes(`src="${replaced.url}"`) && after.includes('width="640" height="200"'), after);
    ok(await fx.api("PATCH", `/media/${file.id}`, { slug: "md-picture" }), "rename the file");
    assert.equal(main(served(await fx.visit(path), "after the rename")), "<p></p>\n");
  });

  it("a media file uploaded under a name a page already shows: the page prints it", async () => {
    const path = await markdownPage("md-waiting", "![Later](media:md-later)");
    assert.equal(main((await fx.visit(path)).text), "<p></p>\n");
    const file = await upload("md-later.png", await png(320, 320));
    assert.ok(main(served(await fx.visit(path), "after the upload")).includes(`src="${file.url}"`));
  });
});
