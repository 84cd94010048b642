// Effect table, frames: POST, PUT (markup and slug), PATCH (rename), DELETE, assign, rebake and
// `bake: false` (docs/publishing.md; pattern in effects-helpers.ts).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { effects, gone, ok, served, suite } from "./effects-helpers.ts";

const embed = (name: string) => `<!-- svc/frame {"name": "${name}"} /-->`;

describe(suite("frames"), () => {
  const fx = effects();

  it("frame PUT: the pages on the frame print the new markup", async () => {
    const path = await fx.shown("fx-frame", "<p>first</p>");
    ok(await fx.api("PUT", "/frames/fx-frame", { html: "<p>second</p>" }), "PUT frame");
    assert.equal(served(await fx.visit(path), path, "static"), "<p>second</p>");
  });

  it("frame PUT of an embedded frame: the pages of every frame embedding it, transitively, print the new markup", async () => {
    await fx.frame("fx-inner", "<i>inner one</i>");
    await fx.frame("fx-middle", `<div>${embed("fx-inner")}</div>`);
    await fx.frame("fx-outer", `<main>${embed("fx-middle")}</main>`);
    await fx.page("fx-middle-page", "fx-middle");
    await fx.page("fx-outer-page", "fx-outer");
    for (const path of ["/fx-middle-page/", "/fx-outer-page/"]) assert.match((await fx.primed(path)).text, /inner one/);
    ok(await fx.api("PUT", "/frames/fx-inner", { html: "<i>inner two</i>" }), "PUT inner");
    for (const path of ["/fx-middle-page/", "/fx-outer-page/"]) {
      const text = served(await fx.visit(path), path, "static");
      assert.match(text, /inner two/);
      assert.doesNotMatch(text, /inner one/);
    }
  });

  it("frame POST: frames that named the slug while it was missing print the new frame on their pages", async () => {
    await fx.frame("fx-waiting", `<div>before|${embed("fx-later")}|after</div>`);
    await fx.page("fx-waiting-page", "fx-waiting");
    assert.doesNotMatch((await fx.primed("/fx-waiting-page/")).text, /arrived/);
    await fx.frame("fx-later", "<b>arrived</b>");
    assert.match(
      served(await fx.visit("/fx-waiting-page/"), "/fx-waiting-page/", "static"),
      /before\|<!-- op\/frame [^>]*--><b>arrived<\/b>/,
    );
  });

  it("frame PUT with a new slug: its pages, frames that named the former slug (rewritten) and frames waiting for the new one print the new markup", async () => {
    await fx.frame("fx-moved", "<b>moved frame</b>");
    await fx.frame("fx-names-old", `<div>${embed("fx-moved")}</div>`);
    await fx.frame("fx-names-new", `<div>${embed("fx-moved-here")}</div>`);
    await fx.page("fx-names-old-page", "fx-names-old");
    await fx.page("fx-names-new-page", "fx-names-new");
    await fx.page("fx-on-moved", "fx-moved");
    assert.match((await fx.primed("/fx-names-old-page/")).text, /moved frame/);
    assert.doesNotMatch((await fx.primed("/fx-names-new-page/")).text, /moved frame/);
    await fx.primed("/fx-on-moved/");
    ok(
      await fx.api("PUT", "/frames/fx-moved", { slug: "fx-moved-here", html: "<b>moved frame, new markup</b>" }),
      "PUT with slug",
    );
    assert.match(
      served(await fx.visit("/fx-names-old-page/"), "/fx-names-old-page/", "static"),
      /op\/frame \{"name": "fx-moved-here"\} --><b>moved frame, new markup<\/b>/,
    );
    assert.match(
      served(await fx.visit("/fx-names-new-page/"), "/fx-names-new-page/", "static"),
      /moved frame, new markup/,
    );
    assert.match(served(await fx.visit("/fx-on-moved/"), "/fx-on-moved/", "static"), /moved frame, new markup/);
  });

  it("frame PATCH (rename): the pages of frames that embed it by slug print it under its new name; its own pages keep answering", async () => {
    await fx.frame("fx-old-name", "<b>renamed content</b>");
    await fx.frame("fx-embedder", `<div>${embed("fx-old-name")}</div>`);
    await fx.page("fx-embedder-page", "fx-embedder");
    await fx.page("fx-renamed-page", "fx-old-name");
    assert.match((await fx.primed("/fx-embedder-page/")).text, /op\/frame \{"name": "fx-old-name"\}/);
    await fx.primed("/fx-renamed-page/");
    ok(await fx.api("PATCH", "/frames/fx-old-name", { slug: "fx-new-name" }), "PATCH rename");
    const text = served(await fx.visit("/fx-embedder-page/"), "/fx-embedder-page/", "static");
    assert.match(text, /op\/frame \{"name": "fx-new-name"\} --><b>renamed content<\/b>/);
    assert.match(served(await fx.visit("/fx-renamed-page/"), "/fx-renamed-page/", "static"), /renamed content/);
  });

  it("frame DELETE: its pages answer 404 and the pages of frames embedding it print nothing in its place", async () => {
    await fx.frame("fx-doomed", "<b>doomed</b>");
    await fx.frame("fx-survivor", `<div>${embed("fx-doomed")}</div>`);
    await fx.page("fx-doomed-page", "fx-doomed");
    await fx.page("fx-survivor-page", "fx-survivor");
    await fx.primed("/fx-doomed-page/");
    assert.match((await fx.primed("/fx-survivor-page/")).text, /doomed/);
    ok(await fx.api("DELETE", "/frames/fx-doomed"), "DELETE frame");
    gone(await fx.visit("/fx-doomed-page/"), "/fx-doomed-page/", "no_frame");
    assert.match(
      served(await fx.visit("/fx-survivor-page/"), "/fx-survivor-page/", "static"),
      /<div><!-- op\/frame \{"name": "fx-doomed"\} --><!-- \/op\/frame --><\/div>/,
    );
  });

  it("frame assign: put on, a page answers with the frame; moved, it prints the other; cleared, it answers 404", async () => {
    await fx.frame("fx-assign-a", "<p>frame A</p>");
    await fx.frame("fx-assign-b", "<p>frame B</p>");
    const id = await fx.page("fx-assigned", null);
    gone(await fx.visit("/fx-assigned/"), "without a frame", "no_frame");
    ok(await fx.api("POST", "/frames/fx-assign-a/assign", { page: id }), "assign A");
    assert.match(served(await fx.visit("/fx-assigned/"), "after assign A", "static"), /frame A/);
    await fx.primed("/fx-assigned/");
    ok(await fx.api("POST", "/frames/fx-assign-b/assign", { page: id }), "assign B");
    assert.match(served(await fx.visit("/fx-assigned/"), "after assign B", "static"), /frame B/);
    await fx.primed("/fx-assigned/");
    ok(await fx.api("POST", "/frames/fx-assign-b/assign", { page: id, clear: true }), "clear");
    gone(await fx.visit("/fx-assigned/"), "after clear", "no_frame");
  });

  it("frame PUT with bake: false: the pages on it and on its embedders print the new markup, rendered on request", async () => {
    await fx.frame("fx-unbaked", "<b>baked markup</b>");
    await fx.frame("fx-unbaked-outer", `<div>${embed("fx-unbaked")}</div>`);
    await fx.page("fx-unbaked-page", "fx-unbaked");
    await fx.page("fx-unbaked-outer-page", "fx-unbaked-outer");
    for (const path of ["/fx-unbaked-page/", "/fx-unbaked-outer-page/"])
      assert.equal((await fx.primed(path)).headers["x-svc-printed"], "static");
    ok(await fx.api("PUT", "/frames/fx-unbaked", { html: "<b>saved, not baked</b>", bake: false }), "PUT bake false");
    for (const path of ["/fx-unbaked-page/", "/fx-unbaked-outer-page/"]) {
      assert.match(served(await fx.visit(path), path, "on_request"), /saved, not baked/);
    }
  });

  it("POST /frames/rebake: pages left to render on request get their static copies back", async () => {
    await fx.frame("fx-rebaked", "<b>one</b>");
    await fx.page("fx-rebaked-page", "fx-rebaked");
    ok(await fx.api("PUT", "/frames/fx-rebaked", { html: "<b>two</b>", bake: false }), "PUT bake false");
    assert.equal((await fx.primed("/fx-rebaked-page/")).headers["x-svc-printed"], "cache");
    ok(await fx.api("POST", "/frames/rebake", { frames: ["fx-rebaked"] }), "rebake");
    assert.match(served(await fx.visit("/fx-rebaked-page/"), "after rebake", "static"), /two/);
  });
});
