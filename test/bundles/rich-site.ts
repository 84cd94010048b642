// A site with something of every kind a bundle carries, built in a running service (the built
// process of test/cli/harness.ts): the starter of `svc init site` (two languages, nested pages,
// Markdown, menus in locations, strings, a stylesheet, a news list paged two by two with its feed,
// SEO defaults), then a draft, a scheduled page, a trashed page, a 404 page, SEO of its own on a
// page, a photo (variants in a srcset) and a PDF with their texts, a sidebar and a data set each
// with a German variant, a form, and redirects, all printed by one frame.
import { join } from "node:path";
import sharp from "sharp";
import { must, svcSite } from "../cli/folder-helpers.ts";
import { runSvc, tempDir, type Served } from "../cli/harness.ts";

/** Prints every kind: the photo and its variants, the PDF's address and alt, the sidebar, the data set, the form. */
const EXTRAS_FRAME = `<!-- svc/layout {"name": "base"} /-->
<article class="extras">
<h1 data-op-bind='{"text": "page.title"}'></h1>
<!-- svc/image {"media": "photo", "sizes": "(min-width: 40em) 40em, 100vw"} /-->
<p><a class="manual" data-op-bind='{"href": "media.manual.url", "text": "media.manual.alt"}'></a></p>
<!-- svc/sidebar {"name": "docs"} /-->
<ul class="team"><!-- svc/repeat {"source": "team"} --><li data-op-bind='{"text": "item.name"}'></li><!-- /svc/repeat --></ul>
<div class="content" data-op-bind='{"html": "page.content"}'></div>
<!-- svc/form {"name": "contact"} /-->
</article>
`;

/** A minimal PDF: not an image, stored as sent, no variants. */
export const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n",
);

async function upload(t: Served, site: number, filename: string, type: string, bytes: Buffer): Promise<void> {
  const answer = await fetch(`${t.url}/api/site/${site}/media?filename=${encodeURIComponent(filename)}`, {
    method: "POST",
    headers: { authorization: `Bearer ${t.token}`, "content-type": type },
    body: new Uint8Array(bytes),
  });
  if (answer.status !== 201) throw new Error(`upload ${filename}: ${answer.status} ${await answer.text()}`);
}

/** Builds the site at `domain` in `t`; its id. */
export async function buildRichSite(t: Served, domain: string): Promise<number> {
  const site = Number((await must(t, 0, "POST", "/api/sites", { name: "Origin", domain })).site.id);
  const root = tempDir("svc-bundle-site-");
  const init = await runSvc(["init", "site"], { cwd: root });
  if (init.code !== 0) throw new Error(init.stdout + init.stderr);
  const pushed = await svcSite(t, site, ["push", join(root, "site")]);
  if (pushed.code !== 0) throw new Error(pushed.stdout + pushed.stderr);

  const photo = await sharp({ create: { width: 900, height: 600, channels: 3, background: "#3366aa" } })
    .png()
    .toBuffer();
  await upload(t, site, "photo.png", "image/png", photo);
  await upload(t, site, "manual.pdf", "application/pdf", PDF);
  await must(t, site, "PATCH", "/media/photo", {
    alt: { en: "The sea at dawn", de: "Das Meer im Morgengrauen" },
    title: { en: "Dawn" },
  });
  await must(t, site, "PATCH", "/media/manual", { alt: { en: "The manual (PDF)", de: "Das Handbuch (PDF)" } });
  const css = await t.api("GET", `/api/site/${site}/styles/main`);
  await must(t, site, "PUT", "/styles/main", {
    css: `${css.body.css}\n.extras { background-image: url(media:photo); }\n`,
  });
  await must(t, site, "POST", "/frames", { slug: "extras", html: EXTRAS_FRAME });

  await must(t, site, "POST", "/forms", {
    name: "contact",
    fields: [
      { name: "email", type: "email", required: true },
      { name: "message", type: "textarea" },
    ],
    redirect: "/contact",
  });
  const extras = (
    await must(t, site, "POST", "/pages", {
      title: "Everything — 全部",
      slug: "extras",
      parent: "/about",
      frame: "extras",
      lang: "en",
      content: "<p>Ελληνικά και 日本語.</p>",
      seo: { title: "All of it", description: "Every kind of object on one page.", noindex: true },
      fields: { summary: "Every kind" },
    })
  ).page;
  const alles = (
    await must(t, site, "POST", "/pages", {
      title: "Alles",
      slug: "alles",
      parent: "/de/ueber-uns",
      frame: "extras",
      lang: "de",
      content: "<p>Grüße</p>",
    })
  ).page;
  await must(t, site, "POST", "/pages/language", { page: extras.id, lang: "de", translation: alles.id });
  await must(t, site, "POST", "/pages", {
    title: "Not here",
    slug: "not-found",
    frame: "page",
    lang: "en",
    content: "<p>This page is not here.</p>",
  });
  await must(t, site, "PATCH", "/settings", { not_found_page: "/not-found" });
  await must(t, site, "POST", "/pages", {
    title: "Draft",
    slug: "draft",
    frame: "page",
    status: "draft",
    lang: "en",
    content: "<p>Not yet.</p>",
  });
  await must(t, site, "POST", "/pages", {
    title: "Later",
    slug: "later",
    parent: "/news",
    frame: "post",
    status: "future",
    date: "2099-01-01T09:00:00Z",
    lang: "en",
    content: "<p>In the future.</p>",
  });
  const gone = (
    await must(t, site, "POST", "/pages", {
      title: "Gone",
      slug: "gone",
      frame: "page",
      lang: "en",
      content: "<p>x</p>",
    })
  ).page;
  await must(t, site, "DELETE", `/pages/${gone.id}`);

  await must(t, site, "PUT", "/sidebars/docs", { items: [{ page: "/about" }, { page: "/about/extras" }] });
  await must(t, site, "PUT", "/sidebars/docs", { lang: "de", items: [{ page: "/de/ueber-uns/alles" }] });
  await must(t, site, "PUT", "/data/team", { items: [{ name: "Ada" }, { name: "Grace" }] });
  await must(t, site, "PUT", "/data/team", { lang: "de", items: [{ name: "Ada (de)" }] });
  await must(t, site, "PUT", "/strings", { lang: "de", strings: { "nav.more": "Mehr" } });
  await must(t, site, "POST", "/seo/redirects", { from: "/old-about", to: "/about" });
  await must(t, site, "POST", "/seo/redirects", { from: "/elsewhere", to: "https://example.com/", status: 302 });
  return site;
}
