// Site 1 of the first service: a small, realistic site written through the API. Two layout
// frames (a header with the menu, a footer), a baked page frame and one that renders on request,
// a 4 KB frame, ten pages and a menu in the header.
import { CARD_4K, FOOTER, HEADER, PAGE_LIVE, PAGE_STATIC } from "./content.ts";
import type { Api } from "./lib.ts";

const S = "/api/site/1";

export async function fillSmallSite(api: Api): Promise<{ pageIds: number[] }> {
  await api.call("PATCH", `${S}/settings`, { tagline: "Pages that publish themselves" });
  for (const [slug, html] of [
    ["site-header", HEADER],
    ["site-footer", FOOTER],
    ["page-static", PAGE_STATIC],
    ["page-live", PAGE_LIVE],
    ["card-4k", CARD_4K],
  ] as const) {
    await api.call("POST", `${S}/frames`, { slug, html });
  }
  const pageIds: number[] = [];
  const about = await api.call("POST", `${S}/pages`, { title: "About", slug: "about", frame: "page-static" });
  const news = await api.call("POST", `${S}/pages`, {
    title: "News",
    slug: "news",
    frame: "page-live",
    content: `<p>${"Latest news, in a few words. ".repeat(40)}</p>`,
  });
  pageIds.push(about.page.id, news.page.id);
  for (let i = 0; i < 8; i++) {
    const page = await api.call("POST", `${S}/pages`, {
      title: `Section ${i}`,
      slug: `section-${i}`,
      frame: i % 2 ? "page-live" : "page-static",
    });
    pageIds.push(page.page.id);
  }
  await api.call("POST", `${S}/menus`, {
    name: "Main",
    location: "header",
    items: [
      { page: about.page.id },
      { page: news.page.id, children: pageIds.slice(2, 6).map((id) => ({ page: id })) },
      { url: "/contact/", title: "Contact" },
    ],
  });
  return { pageIds };
}
