// The RenderContext over plain RenderInput data (render-context.ts): what media tokens and
// svc/image read, as the service's thread and the render worker both build it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compileFrame, renderFrame } from "../../src/markup/index.ts";
import { framesByRef, renderContext, type RenderInput } from "../../src/publish/render-context.ts";
import { renderInput } from "./render-input.ts";
import { RenderPool } from "../../src/publish/render-pool.ts";

const hero = {
  url: "/media/0123456789abcdef/hero.png",
  alt: "Sea",
  width: 800,
  height: 600,
  image: true,
  variants: [{ url: "/media/0123456789abcdef/hero-320w.webp", width: 320 }],
};

function input(media: RenderInput["media"], styles: RenderInput["styles"] = []): RenderInput {
  return renderInput("f", [], { media, styles });
}

test("media.<ref>.url|alt|width|height read the file the input holds under that ref (dotted refs too); others are no value", () => {
  const ctx = renderContext(
    input([
      ["hero", hero],
      ["7", hero],
      ["my.photo", { ...hero, alt: "" }],
    ]),
    new Map(),
  );
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

test("a render continued in the render worker prints the media of the input it is sent, as this thread does", async () => {
  const html = `<!-- svc/image {"media": "hero", "sizes": "50vw"} /--><p data-op-bind='{"text": "media.hero.alt", "title": "media.7.url"}'></p><!-- svc/image {"media": "gone"} /-->`;
  const frame = { id: "00000000000000aa", slug: "f", sha256: "a".repeat(64), html };
  const sent = input([
    ["hero", hero],
    ["7", { ...hero, url: "/media/x/seven.png" }],
  ]);
  const here = renderFrame(
    compileFrame(html),
    renderContext(sent, framesByRef([{ ...frame, compiled: compileFrame(html) }])),
    { slug: "f" },
  );
  assert.match(
    here.html,
    /<img src="\/media\/0123456789abcdef\/hero.png" srcset="[^"]*hero-320w.webp 320w, [^"]*hero.png 800w" sizes="50vw" width="800" height="600" alt="Sea" decoding="async">/,
  );
  assert.match(here.html, /<p title="\/media\/x\/seven.png">Sea<\/p>/);
  const pool = new RenderPool();
  try {
    const there = await pool.render(
      1,
      { input: sent, frames: [frame], bytes: 1_000_000, expansions: 100, timeMs: 5_000, measure: false },
      10_000,
    );
    assert.equal(there.html, here.html);
    assert.deepEqual(
      there.warnings.map((w) => w.code),
      ["media_not_found"],
    );
  } finally {
    await pool.close();
  }
});

test("a render continued in the render worker links the stylesheets of the input it is sent, as this thread does", async () => {
  const html = `<head><!-- svc/styles {"names": ["reset", "gone", "main"]} /--></head>`;
  const frame = { id: "00000000000000ab", slug: "f", sha256: "b".repeat(64), html };
  const sent = input(
    [],
    [
      ["main", "/styles/main.0123456789abcdef.css"],
      ["reset", "/styles/reset.fedcba9876543210.css"],
    ],
  );
  const here = renderFrame(
    compileFrame(html),
    renderContext(sent, framesByRef([{ ...frame, compiled: compileFrame(html) }])),
    { slug: "f" },
  );
  assert.equal(
    here.html,
    `<head><!-- op/styles {"names": ["reset", "gone", "main"]} --><link rel="stylesheet" href="/styles/reset.fedcba9876543210.css"><link rel="stylesheet" href="/styles/main.0123456789abcdef.css"><!-- /op/styles --></head>`,
  );
  const pool = new RenderPool();
  try {
    const there = await pool.render(
      1,
      { input: sent, frames: [frame], bytes: 1_000_000, expansions: 100, timeMs: 5_000, measure: false },
      10_000,
    );
    assert.equal(there.html, here.html);
  } finally {
    await pool.close();
  }
});
