// Markup and content the scenarios write through the API: a realistic small site (layout
// frames with a menu, a baked page and a page that renders on request), a 4 KB frame, embedding
// chains for the rebake scenario, menu trees, and the 10 KB frames of the memory scenario.

const bind = (target: string, token: string) => `data-op-bind='{"${target}": "${token}"}'`;

/** Text paragraphs up to about `bytes`. */
export function filler(bytes: number, seed = 0): string {
  const out: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const p = `<p class="para p${(i + seed) % 7}">Paragraph ${i} of section ${seed}: plain words &amp; a <a href="/docs/${i}/">link</a> to fill a realistic page body with text.</p>\n`;
    out.push(p);
    size += p.length;
  }
  return out.join("");
}

export const HEADER = `<header class="site-header"><a class="brand" href="/" ${bind("text", "site.name")}>Site</a>
<nav><!-- svc/menu {"location": "header", "depth": 2, "class": "menu"} /--></nav></header>`;

export const FOOTER = `<footer class="site-footer"><p ${bind("text", "site.tagline")}>Tagline</p><p>&copy; The authors</p></footer>`;

function documentOf(head: string, main: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title ${bind("text", "site.name")}>Site</title>${head}<link rel="stylesheet" href="/assets/site.css"></head>
<body><!-- svc/frame {"name": "site-header"} /-->
<main>${main}</main>
<!-- svc/frame {"name": "site-footer"} /-->
</body></html>
`;
}

/** A page frame that reads nothing of the page: baked, its pages get static copies. About 10 KB out. */
export const PAGE_STATIC = documentOf("", `<article><h1>About us</h1>${filler(9_000, 1)}</article>`);

/** A page frame that prints the page's title and content: it renders on request. */
export const PAGE_LIVE = documentOf(
  "",
  `<article><h1 ${bind("text", "page.title")}>Title</h1><div class="content" ${bind("html", "page.content")}></div>${filler(6_000, 2)}</article>`,
);

/** A 4 KB frame, read back through the API in scenario 3. */
export const CARD_4K = (() => {
  let html = `<section class="card"><h2 ${bind("text", "site.name")}>Card</h2>\n`;
  html += filler(4096 - html.length - 12, 3);
  return `${html}</section>\n`;
})();

/** A small frame of an embedding chain: it embeds `child` (or nothing) and prints a line. */
export function chainFrame(i: number, child: string | null): string {
  return `<div class="part part-${i}">${child ? `<!-- svc/frame {"name": "${child}"} /-->` : ""}<p>Part ${i}: a few words of text.</p></div>\n`;
}

/** A 10 KB frame that prints the site's name (so a settings change rebakes it). */
export function frame10k(i: number): string {
  let html = `<section class="block b${i}"><h2 ${bind("text", "site.name")}>Name</h2>\n`;
  html += filler(10_240 - html.length - 12, i);
  return `${html}</section>\n`;
}

/** A menu tree of `n` items, three levels (10 at the top, each with children and grandchildren), pages and links mixed. */
export function menuTree(n: number, pageIds: number[]): unknown[] {
  const item = (i: number) =>
    i % 2 === 0
      ? { page: pageIds[i % pageIds.length], title: `Item ${i}` }
      : { url: `/section/${i}/`, title: `Link ${i}` };
  const top: Array<Record<string, unknown> & { children: any[] }> = [];
  let made = 0;
  const perTop = Math.ceil(n / 10);
  for (let t = 0; t < 10 && made < n; t++) {
    const node = { ...item(made++), children: [] as any[] };
    top.push(node);
    let under = 1;
    while (under < perTop && made < n) {
      const child = { ...item(made++), children: [] as any[] };
      node.children.push(child);
      under++;
      for (let g = 0; g < 9 && under < perTop && made < n; g++, under++) child.children.push(item(made++));
    }
  }
  return top;
}
