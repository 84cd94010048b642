// Source names: what a frame reads, as its analysis lists them (`sources`) — `site`, `settings`,
// `page`, `seo`, `languages`, `pages`, `pages.children`, `breadcrumbs`, and the named families
// `data.<set>`, `menu.<location>`, `media.<ref>`, `style.<name>`, `t.<key>`, `sidebar.<name>`, `form.<name>`.
// They are parsed here once into a typed value, which the analysis, the dependency index, the
// render job and the publish planner share instead of matching prefixes of plain strings.

/** A source a frame reads. `text` is the name as analyses list it. */
export type SourceName = { readonly text: string } & (
  | { readonly kind: "site" | "settings" | "page" | "seo" | "languages" | "pages" | "children" | "breadcrumbs" }
  | { readonly kind: "data"; readonly name: string }
  | { readonly kind: "menu"; readonly location: string }
  | { readonly kind: "media"; readonly ref: string }
  | { readonly kind: "style"; readonly name: string }
  | { readonly kind: "text"; readonly key: string }
  | { readonly kind: "sidebar"; readonly name: string }
  | { readonly kind: "form"; readonly name: string }
  /** A name of no family (a stored analysis from before a family existed): read as a data source. */
  | { readonly kind: "other" }
);

export type SourceKind = SourceName["kind"];

const PLAIN: Readonly<Record<string, SourceKind>> = {
  site: "site",
  settings: "settings",
  page: "page",
  seo: "seo",
  languages: "languages",
  pages: "pages",
  "pages.children": "children",
  breadcrumbs: "breadcrumbs",
};

/** The named families, by the prefix before their first dot. */
const FAMILIES: Readonly<Record<string, (rest: string, text: string) => SourceName>> = {
  data: (name, text) => ({ text, kind: "data", name }),
  menu: (location, text) => ({ text, kind: "menu", location }),
  media: (ref, text) => ({ text, kind: "media", ref }),
  style: (name, text) => ({ text, kind: "style", name }),
  t: (key, text) => ({ text, kind: "text", key }),
  sidebar: (name, text) => ({ text, kind: "sidebar", name }),
  form: (name, text) => ({ text, kind: "form", name }),
};

/** Parsed names, kept: a site's frames name the same few sources again and again. */
const parsed = new Map<string, SourceName>();
const KEPT = 10_000;

function parse(text: string): SourceName {
  const plain = PLAIN[text];
  if (plain) return { text, kind: plain } as SourceName;
  const dot = text.indexOf(".");
  const family = dot > 0 ? FAMILIES[text.slice(0, dot)] : undefined;
  return family && dot < text.length - 1 ? family(text.slice(dot + 1), text) : { text, kind: "other" };
}

/** The typed value of a source name (the same object for the same name while it is kept). */
export function sourceName(text: string): SourceName {
  let name = parsed.get(text);
  if (name) return name;
  name = parse(text);
  if (parsed.size >= KEPT) parsed.clear();
  parsed.set(text, name);
  return name;
}

/** The names of each family, as analyses list them. */
export const sourceText = {
  data: (name: string) => `data.${name}`,
  menu: (location: string) => `menu.${location}`,
  media: (ref: string) => `media.${ref}`,
  style: (name: string) => `style.${name}`,
  text: (key: string) => `t.${key}`,
  sidebar: (name: string) => `sidebar.${name}`,
  form: (name: string) => `form.${name}`,
} as const;

/** Sources whose items a render reads as a list (svc/repeat, menus): everything but the page's own fields, media, stylesheets, texts, sidebars and forms. */
export function readsItems(source: SourceName): boolean {
  switch (source.kind) {
    case "site":
    case "settings":
    case "page":
    case "seo":
    case "media":
    case "style":
    case "text":
    case "sidebar":
    case "form":
      return false;
    default:
      return true;
  }
}
