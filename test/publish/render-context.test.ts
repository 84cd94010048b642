// The RenderContext over plain RenderInput data (render-context.ts): what media tokens and
// svc/image read, as the service's thread and the render worker both build it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { renderContext, type RenderInput } from "../../src/publish/render-context.ts";

const hero = { url: "/media/0123456789abcdef/hero.png", alt: "Sea", width: 800, height: 600, image: true, variants: [{ url: "/media/0123456789abcdef/hero-320w.webp", width: 320 }] };

function input(media: RenderInput["media"]): RenderInput {
  return { slug: "f", items: [], site: { name: "S", tagline: "", url: "/", lang: null }, settings: {}, page: undefined, links: [], media };
}

test("media.<ref>.url|alt|width|height read the file the input holds under that ref (dotted refs too); others are no value", () => {
  const ctx = renderContext(input([["hero", hero], ["7", hero], ["my.photo", { ...hero, alt: "" }]]), new Map());
  assert.equal(ctx.value("media.hero.url"), hero.url);
  assert.equal(ctx.value("media.7.alt"), "Sea");
  assert.equal(ctx.value("media.hero.width"), 800);
  assert.equal(ctx.value("media.hero.height"), 600);
  assert.equal(ctx.value("media.my.photo.alt"), "");
  assert.equal(ctx.value("media.missing.url"), undefined);
  assert.equal(ctx.value("media.hero.variants"), undefined);
  assert.equal(ctx.value("media.hero"), undefined);
  assert.deepEqual(ctx.media("hero"), hero);
  assert.equal(ctx.media("HERO"), undefined, "refs are read as written: slugs are lower case");
});
