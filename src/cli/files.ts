// The JSON files of a folder and the server's records, both ways (docs/cli.md, "The folder").
// A file holds what an author writes, never what the service computes (ids, addresses, dates,
// validity), so a pulled file pushed back is no change and a file is the same on staging and
// production. Pure.
import type { Json } from "./canonical.ts";
import { bad, isRecord, type Rec } from "./file-shape.ts";
import { KIND_MODULES } from "./kinds/index.ts";
import { pageBody } from "./kinds/page-file.ts";

/** What the converters need to know about the site. */
export interface SiteFacts {
  /** The site's public origin (`http://example.org`), what menu links are completed with. */
  origin: string;
  /** The default language, or null (a site without languages). */
  defaultLang: string | null;
  /** The site's language codes in its order; none on a site without languages. */
  languages: string[];
  /** Pages by id: their language and path, and title (a menu item of a page names it by path). */
  pages: Map<number, { lang: string | null; path: string; title: string }>;
}

// ---- pages: kinds/page-file.ts ----

export { PAGE_KEYS, pageBody, pageFile } from "./kinds/page-file.ts";

// ---- menus ----

export interface MenuLocation {
  location: string;
  lang: string | null;
}

/** A page's reference in a menu file: its path, after its language's prefix unless it is the default language's. */
export function pageRef(facts: SiteFacts, id: number): string | null {
  const page = facts.pages.get(id);
  if (!page) return null;
  return page.lang && page.lang !== facts.defaultLang ? `/${page.lang}${page.path}` : page.path;
}

/** A link as written: an address on the site's own origin loses it (`/contact`), so it moves with the site. */
export function linkRef(facts: SiteFacts, url: string): string {
  const origin = facts.origin.replace(/\/+$/, "");
  if (
    origin &&
    (url === origin || url.startsWith(`${origin}/`) || url.startsWith(`${origin}?`) || url.startsWith(`${origin}#`))
  )
    return url.slice(origin.length) || "/";
  return url;
}

/** A menu's items (the flat list GET /menus/{ref} answers) as the file's tree. */
export function menuItemsFile(items: readonly Rec[], facts: SiteFacts): Json[] {
  const children = new Map<number, Rec[]>();
  for (const item of items) {
    const parent = typeof item.parent === "number" ? item.parent : 0;
    children.set(parent, [...(children.get(parent) ?? []), item]);
  }
  const byOrder = (a: Rec, b: Rec) => Number(a.order ?? 0) - Number(b.order ?? 0);
  const tree = (parent: number, seen: Set<number>): Json[] =>
    (children.get(parent) ?? []).sort(byOrder).flatMap((item) => {
      const id = Number(item.id);
      if (seen.has(id)) return [];
      const out: Record<string, Json> = {};
      const pageId = typeof item.page === "number" ? item.page : null;
      const ref = pageId === null ? null : pageRef(facts, pageId);
      const title = typeof item.title === "string" ? item.title : "";
      if (pageId !== null) {
        out.page = ref ?? pageId; // a page the folder cannot name (trashed, deleted) keeps its id
        if (title && title !== facts.pages.get(pageId)?.title) out.title = title;
      } else {
        const url = typeof item.url === "string" ? item.url : "";
        out.url = linkRef(facts, url);
        if (title && title !== url && title !== out.url) out.title = title;
      }
      if (typeof item.target === "string" && item.target) out.target = item.target;
      if (typeof item.classes === "string" && item.classes) out.classes = item.classes;
      const below = tree(id, new Set([...seen, id]));
      if (below.length) out.children = below;
      return [out];
    });
  return tree(0, new Set());
}

/** A menu as its file: `menus/<slug>.json`. */
export function menuFile(menu: Rec, items: readonly Rec[], facts: SiteFacts): Json {
  const assigned = Array.isArray(menu.assigned) ? (menu.assigned as Rec[]) : [];
  const locations = assigned
    .map((a) => ({ location: String(a.location), lang: typeof a.lang === "string" ? a.lang : null }))
    .sort((a, b) => (a.location + (a.lang ?? "")).localeCompare(b.location + (b.lang ?? "")));
  return { name: String(menu.name ?? ""), locations, items: menuItemsFile(items, facts) };
}

export interface MenuInput {
  name: string;
  locations: MenuLocation[];
  items: Json[];
}

/** A menu file read for a write. */
export function menuInput(key: string, value: Json): MenuInput {
  if (!isRecord(value)) throw bad(key, "a menu file is a JSON object {name, locations, items}");
  const unknown = Object.keys(value).filter((k) => !["name", "locations", "items"].includes(k));
  if (unknown.length)
    throw bad(
      key,
      `unknown field${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (a menu file holds name, locations, items)`,
    );
  if (typeof value.name !== "string" || value.name.trim() === "") throw bad(key, "name: a menu needs a name");
  const items = value.items ?? [];
  if (!Array.isArray(items))
    throw bad(key, "items: an array of items ({page} or {url}, title, target, classes, children)");
  const locations = value.locations ?? [];
  if (
    !Array.isArray(locations) ||
    !locations.every(
      (l) =>
        isRecord(l) &&
        typeof l.location === "string" &&
        (l.lang === undefined || l.lang === null || typeof l.lang === "string"),
    )
  ) {
    throw bad(key, 'locations: an array of {"location": "header", "lang": null}');
  }
  return {
    name: value.name,
    items,
    locations: (locations as Rec[]).map((l) => ({
      location: String(l.location),
      lang: typeof l.lang === "string" ? l.lang : null,
    })),
  };
}

// ---- data sets ----

/** A data set's file is its items. */
export function dataItems(key: string, value: Json): Json[] {
  if (!Array.isArray(value) || !value.every(isRecord)) throw bad(key, "a data-set file is a JSON array of objects");
  return value;
}

// ---- settings ----

export const SETTINGS_FIELDS = [
  "name",
  "tagline",
  "theme",
  "default_lang",
  "home_page",
  "not_found_page",
  "menu_locations",
  "iframe_hosts",
] as const;

/** The settings record as `settings.json` (render_model, fixed, is left out). */
export function settingsFile(settings: Rec): Json {
  return Object.fromEntries(SETTINGS_FIELDS.map((key) => [key, (settings[key] ?? null) as Json]));
}

/** The settings that differ between the file and the server's (what PATCH /settings is sent). */
export function settingsChanges(key: string, local: Json, server: Json | undefined): Rec {
  if (!isRecord(local)) throw bad(key, `settings.json is a JSON object {${SETTINGS_FIELDS.join(", ")}}`);
  const unknown = Object.keys(local).filter((k) => !(SETTINGS_FIELDS as readonly string[]).includes(k));
  if (unknown.length)
    throw bad(
      key,
      `unknown setting${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (settings.json holds ${SETTINGS_FIELDS.join(", ")})`,
    );
  const before = isRecord(server) ? server : {};
  const changes: Rec = {};
  for (const field of SETTINGS_FIELDS) {
    if (!(field in local)) continue;
    if (JSON.stringify(local[field]) !== JSON.stringify(before[field] ?? null)) changes[field] = local[field];
  }
  return changes;
}

/** A data set's items as its file's value (the file is the array itself). */
export function dataFileValue(items: readonly Json[]): Json {
  return [...items];
}

/** Checks a JSON file's shape before any write of a push (the same checks the writers make). */
export function checkFile(key: string, kind: string, value: Json): void {
  if (kind === "pages") pageBody(key, value);
  else if (kind === "menus") menuInput(key, value);
  else if (kind === "data") dataItems(key, value);
  else if (kind === "settings") settingsChanges(key, value, undefined);
  else KIND_MODULES[kind as keyof typeof KIND_MODULES]?.check(key, value);
}
