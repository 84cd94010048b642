// Effect table, media (docs/publishing.md; pattern in effects-helpers.ts): every media write
// reaches the pages of the frames printing the file (tokens media.<ref>.*, svc/image) on the next
// request. The files are real PNGs made here with sharp and uploaded as raw bodies.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import sharp from "sharp";
import { call } from "../cluster/helpers.ts";
import { bind, effects, ok, served, SITE, suite } from "./effects-helpers.ts";

/** A PNG of one colour. */
function png(width: number, height: number, colour: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** What `svc/image` printed between its markers ("" when nothing), and each `<img>` attribute. */
function image(html: string): { printed: string; attrs: Record<string, string> } {
  const printed = /<!-- op\/image [^>]*-->(.*?)<!-- \/op\/image -->/s.exec(html)?.[1];
  assert.ok(printed !== undefined, `no svc/image markers in ${html.slice(0, 300)}`);
  const attrs: Record<string, string> = {};
  for (const [, name, value] of printed.matchAll(/ ([a-z]+)="([^"]*)"/g)) attrs[name!] = value!;
  return { printed, attrs };
}

/** The `src` of the `<img data-op-bind…>` the frames below print (no attribute: no value). */
const boundSrc = (html: string) => /<img class="bound"(?: src="([^"]*)")?/.exec(html)?.[1];

describe(suite("media"), () => {
  const fx = effects();

  async function upload(filename: string, bytes: Buffer, alt?: string, site?: number): Promise<any> {
    const path = `${site === undefined ? SITE : `/api/site/${site}`}/media?filename=${encodeURIComponent(filename)}`;
    const reply = await call(fx.cluster.processes[0].port, "POST", path, {
      token: fx.cluster.token,
      payload: bytes,
      headers: { "content-type": "image/png" },
    });
    const media = ok(reply, `upload ${filename}`, 201).media;
    if (alt !== undefined) ok(await fx.api("PATCH", `/media/${media.id}`, { alt }, site), `alt of ${filename}`);
    return media;
  }

  /** A frame printing the file `ref` by token and by svc/image, a page on it, fetched twice. */
  const showing = (slug: string, ref: string) =>
    fx.shown(
      slug,
      `<img class="bound" ${bind("src", `media.${ref}.url`)}><p ${bind("text", `media.${ref}.alt`)}></p><!-- svc/image {"media": "${ref}", "sizes": "100vw"} /-->`,
    );

  it("POST /media: a frame naming a slug before any file had it prints the file once it is uploaded", async () => {
    const path = await showing("mx-upload", "mx-upload-photo");
    const before = (await fx.visit(path)).text;
    assert.equal(boundSrc(before), undefined);
    assert.equal(image(before).printed, "");
    const media = await upload("mx-upload-photo.png", await png(700, 400, { r: 200, g: 40, b: 40 }));
    assert.equal(media.slug, "mx-upload-photo");
    const html = served(await fx.visit(path), path, "static");
    assert.equal(boundSrc(html), media.url);
    const { attrs } = image(html);
    assert.equal(attrs.src, media.url);
    assert.equal(attrs.width, "700");
    assert.equal(attrs.height, "400");
    assert.equal(
      attrs.srcset,
      [...media.variants.map((v: { url: string; width: number }) => `${v.url} ${v.width}w`), `${media.url} 700w`].join(
        ", ",
      ),
    );
    assert.equal(attrs.sizes, "100vw");
    assert.equal(attrs.decoding, "async");
  });

  it("PUT /media/{ref}: new bytes give a new url, size and variants, printed by the pages of every frame showing the file", async () => {
    const media = await upload("mx-put.png", await png(800, 600, { r: 10, g: 120, b: 10 }));
    await fx.frame("mx-put-inner", `<!-- svc/image {"media": "${media.id}"} /-->`);
    const outer = await fx.shown("mx-put-outer", `<div><!-- svc/frame {"name": "mx-put-inner"} /--></div>`);
    const direct = await showing("mx-put", "mx-put");
    assert.equal(image((await fx.visit(outer)).text).attrs.src, media.url);
    const put = await call(fx.cluster.processes[0].port, "PUT", `${SITE}/media/mx-put?filename=mx-put.png`, {
      token: fx.cluster.token,
      payload: await png(1200, 300, { r: 10, g: 10, b: 200 }),
      headers: { "content-type": "image/png" },
    });
    const replaced = ok(put, "PUT bytes").media;
    assert.equal(replaced.id, media.id);
    assert.notEqual(replaced.url, media.url);
    for (const path of [outer, direct]) {
      const { attrs } = image(served(await fx.visit(path), path, "static"));
      assert.deepEqual([attrs.src, attrs.width, attrs.height], [replaced.url, "1200", "300"], path);
      assert.ok(!attrs.srcset!.includes(media.url.split("/")[2]!), `${path}: no variant of the old bytes`);
    }
    assert.equal(boundSrc((await fx.visit(direct)).text), replaced.url);
  });

  it("PATCH /media/{ref} alt: the pages printing the file print the new alt text", async () => {
    await upload("mx-alt.png", await png(320, 200, { r: 1, g: 2, b: 3 }), "First words");
    const path = await showing("mx-alt", "mx-alt");
    assert.equal(image((await fx.visit(path)).text).attrs.alt, "First words");
    ok(await fx.api("PATCH", "/media/mx-alt", { alt: `Second "words" & more` }), "PATCH alt");
    const html = served(await fx.visit(path), path, "static");
    assert.equal(image(html).attrs.alt, "Second &quot;words&quot; &amp; more");
    assert.match(html, /<p>Second &quot;words&quot; &amp; more<\/p>/);
  });

  it("PATCH /media/{ref} alt on a site with languages: each page prints its language's alt text, else the default language's", async () => {
    const site = await fx.site("Alt texts", "alts.localhost");
    const host = "alts.localhost";
    for (const code of ["en", "de", "fr"])
      ok(await fx.api("POST", "/languages", { code }, site), `language ${code}`, 201);
    await upload("mx-alt-lang.png", await png(330, 100, { r: 5, g: 5, b: 5 }), undefined, site);
    await fx.frame(
      "mx-alt-lang",
      `<!-- svc/image {"media": "mx-alt-lang"} /--><p ${bind("text", "media.mx-alt-lang.alt")}></p>`,
      site,
    );
    const paths: Record<string, string> = {};
    for (const lang of ["en", "de", "fr"]) {
      await fx.page(`mx-alt-${lang}`, "mx-alt-lang", { lang }, site);
      paths[lang] = lang === "en" ? "/mx-alt-en/" : `/${lang}/mx-alt-${lang}/`;
      assert.equal(image((await fx.primed(paths[lang]!, host)).text).attrs.alt, "", `${lang} before`);
    }
    ok(
      await fx.api("PATCH", "/media/mx-alt-lang", { alt: { en: "Harbour", de: "Hafen" } }, site),
      "PATCH alt by language",
    );
    for (const [lang, alt] of [
      ["en", "Harbour"],
      ["de", "Hafen"],
      ["fr", "Harbour"],
    ] as const) {
      const html = served(await fx.visit(paths[lang]!, host), paths[lang]!, "static");
      assert.equal(image(html).attrs.alt, alt, lang);
      assert.match(html, new RegExp(`<p>${alt}</p>`), lang);
    }
  });

  it("PATCH /media/{ref} slug: frames naming the former slug print nothing there, frames naming the new one print it, by id unchanged", async () => {
    const media = await upload("mx-old-name.png", await png(400, 400, { r: 90, g: 90, b: 0 }));
    const byOld = await showing("mx-by-old", "mx-old-name");
    const byNew = await showing("mx-by-new", "mx-new-name");
    const byId = await showing("mx-by-id", String(media.id));
    assert.equal(image((await fx.visit(byNew)).text).printed, "");
    const renamed = ok(await fx.api("PATCH", "/media/mx-old-name", { slug: "mx-new-name" }), "PATCH slug").media;
    assert.equal(renamed.slug, "mx-new-name");
    const old = served(await fx.visit(byOld), byOld, "static");
    assert.equal(image(old).printed, "");
    assert.equal(boundSrc(old), undefined);
    assert.equal(image(served(await fx.visit(byNew), byNew, "static")).attrs.src, media.url);
    assert.equal(image(served(await fx.visit(byId), byId, "static")).attrs.src, media.url);
  });

  it("DELETE /media/{ref}?force=1: the pages that printed the file print nothing in its place", async () => {
    const media = await upload("mx-delete.png", await png(500, 250, { r: 0, g: 0, b: 0 }), "Gone soon");
    const path = await showing("mx-delete", "mx-delete");
    assert.equal(image((await fx.visit(path)).text).attrs.src, media.url);
    ok(await fx.api("DELETE", "/media/mx-delete?force=1"), "DELETE force");
    const html = served(await fx.visit(path), path, "static");
    assert.equal(image(html).printed, "");
    assert.equal(boundSrc(html), undefined);
    assert.match(html, /<p><\/p>/);
  });
});
