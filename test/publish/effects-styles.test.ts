// Effect table, stylesheets (docs/publishing.md; pattern in effects-helpers.ts): every stylesheet
// write reaches the pages of exactly the frames linking it (`svc/styles`), or linking a stylesheet
// that imports it, on the next request; the addresses they print answer the bundles, and an
// address replaced keeps answering its own bytes.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import sharp from "sharp";
import { call } from "../cluster/helpers.ts";
import { effects, ok, served, SITE, suite } from "./effects-helpers.ts";

/** The stylesheet addresses a page links, in order. */
const links = (html: string) => [...html.matchAll(/<link rel="stylesheet" href="([^"]*)">/g)].map((m) => m[1]!);

/** A frame linking the stylesheets `names`, in order. */
const linking = (...names: string[]) =>
  `<!DOCTYPE html><html><head><!-- svc/styles {"names": ${JSON.stringify(names)}} /--></head><body><p>x</p></body></html>`;

describe(suite("styles"), () => {
  const fx = effects();
  /** PUT /styles/{name} on site 1, created or replaced; answers the body. */
  const put = async (name: string, css: string, extra: Record<string, unknown> = {}) => {
    const reply = await fx.api("PUT", `/styles/${name}`, { css, ...extra });
    assert.ok(reply.status === 200 || reply.status === 201, `PUT ${name}: ${reply.status} ${reply.text.slice(0, 300)}`);
    return reply.body;
  };
  const urlOf = async (name: string) => ok(await fx.api("GET", `/styles/${name}`), `GET ${name}`).style.url as string;
  /** A stylesheet address fetched through the reading process: its bytes. */
  const sheet = async (url: string, host = "localhost") => {
    const reply = await fx.visit(url, host);
    assert.equal(reply.status, 200, `${url}: ${reply.status}`);
    assert.equal(reply.headers["content-type"], "text/css; charset=utf-8");
    return reply.text;
  };
  const rebakedSlugs = (body: any) => body.rebaked.frames.map((frame: { slug: string }) => frame.slug).sort();

  it("PUT /styles/{name} (new): frames that linked the name before it existed print its link", async () => {
    const path = await fx.shown("sx-new", linking("sx-new-sheet"));
    assert.deepEqual(links((await fx.visit(path)).text), []);
    const written = await put("sx-new-sheet", "body { color: rgb(1, 2, 3) }");
    assert.deepEqual(rebakedSlugs(written), ["sx-new"]);
    const html = served(await fx.visit(path), path, "static");
    assert.deepEqual(links(html), [written.style.url]);
    assert.equal(await sheet(written.style.url), "body{color:#010203}");
  });

  it("PUT /styles/{name} (replaced): exactly the frames linking it or a stylesheet importing it print new addresses; old addresses answer their own bytes", async () => {
    await put("sx-reset", "p { margin: 0 }");
    await put("sx-main", `@import "sx-reset";\nh1 { color: red }`);
    await put("sx-other", "em { color: blue }");
    const both = await fx.shown("sx-both", linking("sx-reset", "sx-main"));
    const main = await fx.shown("sx-main-only", linking("sx-main"));
    const embeds = await fx.shown("sx-embeds", `<div><!-- svc/frame {"name": "sx-main-only"} /--></div>`);
    const other = await fx.shown("sx-other-only", linking("sx-other"));
    const before = { reset: await urlOf("sx-reset"), main: await urlOf("sx-main"), other: await urlOf("sx-other") };
    assert.deepEqual(links((await fx.visit(both)).text), [before.reset, before.main]);
    const otherBefore = (await fx.visit(other)).text;

    const written = await put("sx-reset", "p { margin: 2px }");
    assert.deepEqual(
      rebakedSlugs(written),
      ["sx-both", "sx-embeds", "sx-main-only"],
      "the frames linking it or an importer, and only those",
    );
    const after = { reset: await urlOf("sx-reset"), main: await urlOf("sx-main") };
    assert.notEqual(after.reset, before.reset);
    assert.notEqual(after.main, before.main, "the importer's bundle holds it: a new address too");
    assert.deepEqual(links(served(await fx.visit(both), both, "static")), [after.reset, after.main]);
    assert.deepEqual(links(served(await fx.visit(main), main, "static")), [after.main]);
    assert.deepEqual(links(served(await fx.visit(embeds), embeds, "static")), [after.main]);
    assert.equal(served(await fx.visit(other), other, "static"), otherBefore);
    assert.equal(await sheet(after.main), "p{margin:2px}h1{color:red}");
    assert.equal(
      await sheet(before.main),
      "p{margin:0}h1{color:red}",
      "the old address answers its previous copy, never the new one",
    );
    assert.equal(await sheet(before.reset), "p{margin:0}");
    assert.equal(await sheet(before.other), "em{color:#00f}");
  });

  it("PUT /styles/{name} with another theme than the site's rebakes nothing: frames print the site's theme's stylesheets", async () => {
    await put("sx-themed", "a { color: red }");
    const path = await fx.shown("sx-themed", linking("sx-themed"));
    const url = await urlOf("sx-themed");
    const written = await put("sx-themed", "a { color: green }", { theme: "sx-elsewhere" });
    assert.equal(written.style.theme, "sx-elsewhere");
    assert.deepEqual(rebakedSlugs(written), []);
    assert.deepEqual(links(served(await fx.visit(path), path, "static")), [url]);
  });

  it("DELETE /styles/{name}?force=1: frames linking it print nothing there, frames linking an importer print its new address (bundled without it)", async () => {
    await put("sx-gone", "b { color: red }");
    await put("sx-keeps", `@import "sx-gone";\ni { color: blue }`);
    const alone = await fx.shown("sx-gone-alone", linking("sx-gone"));
    const pair = await fx.shown("sx-gone-pair", linking("sx-gone", "sx-keeps"));
    const old = await urlOf("sx-keeps");
    const refused = await fx.api("DELETE", "/styles/sx-gone");
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, "style_in_use");
    assert.equal(links((await fx.visit(alone)).text).length, 1, "refused: nothing changed");
    const deleted = ok(await fx.api("DELETE", "/styles/sx-gone?force=1"), "DELETE force");
    assert.deepEqual(rebakedSlugs(deleted), ["sx-gone-alone", "sx-gone-pair"]);
    assert.deepEqual(links(served(await fx.visit(alone), alone, "static")), []);
    const keeps = await urlOf("sx-keeps");
    assert.notEqual(keeps, old);
    assert.deepEqual(links(served(await fx.visit(pair), pair, "static")), [keeps]);
    assert.equal(await sheet(keeps), "i{color:#00f}");
  });

  it("PUT /media/{ref} of a file a stylesheet points to: frames linking it (or an importer) print new addresses whose bundles hold the file's new address", async () => {
    const png = (r: number) =>
      sharp({ create: { width: 8, height: 8, channels: 3, background: { r, g: 0, b: 0 } } })
        .png()
        .toBuffer();
    const port = fx.cluster.processes[0].port;
    const upload = await call(port, "POST", `${SITE}/media?filename=sx-bg.png`, {
      token: fx.cluster.token,
      payload: await png(10),
      headers: { "content-type": "image/png" },
    });
    const media = ok(upload, "upload", 201).media;
    await put("sx-bg", `.hero { background: url(media:sx-bg) }`);
    await put("sx-bg-importer", `@import "sx-bg";`);
    const path = await fx.shown("sx-bg", linking("sx-bg", "sx-bg-importer"));
    const before = links((await fx.visit(path)).text);
    assert.equal(await sheet(before[0]!), `.hero{background:url(${media.url})}`);
    const replaced = await call(port, "PUT", `${SITE}/media/sx-bg?filename=sx-bg.png`, {
      token: fx.cluster.token,
      payload: await png(200),
      headers: { "content-type": "image/png" },
    });
    const next = ok(replaced, "PUT bytes").media;
    assert.notEqual(next.url, media.url);
    const after = links(served(await fx.visit(path), path, "static"));
    assert.equal(after.length, 2);
    assert.notEqual(after[0], before[0]);
    assert.notEqual(after[1], before[1]);
    assert.equal(await sheet(after[0]!), `.hero{background:url(${next.url})}`);
    assert.equal(await sheet(after[1]!), `.hero{background:url(${next.url})}`);
    assert.equal(await sheet(before[0]!), `.hero{background:url(${media.url})}`, "the old bundle keeps its bytes");
  });

  it("PATCH /settings theme: frames linking a stylesheet print the new theme's stylesheet of that name, or nothing", async () => {
    const site = await fx.site("Themed styles", "sx-themes.localhost");
    const host = "sx-themes.localhost";
    const plain = ok(
      await fx.api("PUT", "/styles/sx-look", { css: "body { color: red }" }, site),
      "default look",
      201,
    ).style;
    const dark = ok(
      await fx.api("PUT", "/styles/sx-look", { css: "body { color: white }", theme: "sx-dark" }, site),
      "dark look",
      201,
    ).style;
    ok(await fx.api("PUT", "/styles/sx-only-default", { css: "b { color: red }" }, site), "default only", 201);
    await fx.frame("sx-look", linking("sx-look", "sx-only-default"), site);
    await fx.page("sx-look-page", "sx-look", {}, site);
    assert.deepEqual(links((await fx.primed("/sx-look-page/", host)).text), [
      plain.url,
      (await fx.api("GET", "/styles/sx-only-default", undefined, site)).body.style.url,
    ]);
    const patched = ok(await fx.api("PATCH", "/settings", { theme: "sx-dark" }, site), "PATCH theme");
    assert.ok(rebakedSlugs(patched).includes("sx-look"));
    assert.deepEqual(links(served(await fx.visit("/sx-look-page/", host), "/sx-look-page/", "static")), [dark.url]);
    assert.equal(await sheet(dark.url, host), "body{color:#fff}");
    assert.equal((await fx.visit(dark.url)).status, 404, "on its own site's domain only");
  });
});
