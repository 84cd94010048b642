// A sidebar's tree in one language, as reads answer it and renders print it (docs/sidebars.md): the
// language's own tree, else the default language's with each page mapped to its translation in
// that language (pages without one left out; sections and links kept); a tree written by hand,
// or generated from the pages under a root page (nested, ordered by menu_order then title).
// Labels are the given ones, else the page's current title; validity follows the pages, as for
// menu items: a draft, trashed, deleted page, or one under an unpublished parent, is not valid.
import { completeUrl } from "../menus/input.ts";
import { pageFacts } from "../menus/resolve.ts";
import { descendantsOf, groupMembers, type PageLite } from "../pages/queries.ts";
import { linkUrl, type SiteAddressing } from "../site/addresses.ts";
import { Type, type Static } from "@sinclair/typebox";
import type { Db } from "../store/database.ts";
import { jsonColumn } from "../store/json-column.ts";
import type { SiteRow } from "../site/sites.ts";
import type { SidebarTreesTable } from "../store/schema.ts";
import type { Selectable } from "kysely";

export type TreeRow = Selectable<SidebarTreesTable>;

/** An item as stored (`items_json`): page items hold page ids. */
const StoredItemSchema = Type.Recursive((Item) =>
  Type.Object({
    id: Type.Integer(),
    kind: Type.Union([Type.Literal("page"), Type.Literal("link"), Type.Literal("section")]),
    page: Type.Optional(Type.Integer()),
    url: Type.Optional(Type.String()),
    label: Type.Union([Type.String(), Type.Null()]),
    open: Type.Optional(Type.Boolean()),
    items: Type.Optional(Type.Array(Item)),
  }),
);
export type StoredItem = Static<typeof StoredItemSchema>;

const STORED_ITEMS = jsonColumn("sidebar_trees.items_json", Type.Array(StoredItemSchema));

/** An item as answered (`{id, label, page, url, valid, open, items}`). */
export interface SidebarItem {
  id: number;
  label: string;
  page: number | null;
  url: string | null;
  valid: boolean;
  open: boolean;
  items: SidebarItem[];
}

/** The key a language's tree is stored under: '' for the default language (or a site without languages). */
export function treeKey(addressing: Pick<SiteAddressing, "langs">, lang: string | null): string {
  const { langs } = addressing;
  return lang !== null && langs.active && lang !== langs.defaultLang ? lang : "";
}

/** The tree's stored items; none when they do not read, so a render prints an empty sidebar. */
export function storedItems(row: Pick<TreeRow, "items_json">): StoredItem[] {
  return STORED_ITEMS.readOr(row.items_json, []);
}

/** Every stored item, parents first. */
export function flattenStored(items: readonly StoredItem[]): StoredItem[] {
  const out: StoredItem[] = [];
  const stack = [...items].reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    out.push(item);
    for (let i = (item.items?.length ?? 0) - 1; i >= 0; i--) stack.push(item.items![i]);
  }
  return out;
}

/** The pages under a root as stored items (ids: the page ids), nested, by menu_order then title. */
export async function generatedItems(db: Db, siteId: number, rootId: number): Promise<StoredItem[]> {
  const rows = await descendantsOf(db, siteId, rootId);
  const orders = new Map<number, number>();
  for (let i = 0; i < rows.length; i += 500) {
    const ids = rows.slice(i, i + 500).map((row) => row.id);
    for (const row of await db
      .selectFrom("pages")
      .select(["id", "menu_order"])
      .where("site_id", "=", siteId)
      .where("id", "in", ids)
      .execute())
      orders.set(row.id, row.menu_order);
  }
  const children = new Map<number, PageLite[]>();
  for (const row of rows) children.set(row.parent_id, [...(children.get(row.parent_id) ?? []), row]);
  const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });
  const order = (a: PageLite, b: PageLite) =>
    (orders.get(a.id) ?? 0) - (orders.get(b.id) ?? 0) || collator.compare(a.title, b.title) || a.id - b.id;
  const build = (parent: number, seen: Set<number>): StoredItem[] =>
    [...(children.get(parent) ?? [])]
      .sort(order)
      .filter((row) => !seen.has(row.id))
      .map((row) => {
        seen.add(row.id);
        return { id: row.id, kind: "page", page: row.id, label: null, items: build(row.id, seen) };
      });
  return build(rootId, new Set([rootId]));
}

/** A stored tree with its page items moved to their translations in `lang` (those without one left out, with their items). */
async function translated(db: Db, siteId: number, items: readonly StoredItem[], lang: string): Promise<StoredItem[]> {
  const pageIds = flattenStored(items).flatMap((item) =>
    item.kind === "page" && item.page !== undefined ? [item.page] : [],
  );
  if (pageIds.length === 0) return [...items];
  const facts = await pageFacts(db, siteId, pageIds);
  const groups = [
    ...new Set(
      [...facts.values()]
        .map((f) => f.page?.translation_group)
        .filter((g): g is number => g !== null && g !== undefined),
    ),
  ];
  const inLang = new Map<number, number>();
  for (const member of await groupMembers(db, siteId, groups)) {
    if (member.lang === lang && member.translation_group !== null && !inLang.has(member.translation_group))
      inLang.set(member.translation_group, member.id);
  }
  const map = (list: readonly StoredItem[]): StoredItem[] =>
    list.flatMap((item): StoredItem[] => {
      if (item.kind !== "page") return [{ ...item, items: item.items ? map(item.items) : item.items }];
      const page = facts.get(item.page!)?.page;
      const target =
        page?.lang === lang
          ? page.id
          : page?.translation_group != null
            ? inLang.get(page.translation_group)
            : undefined;
      return target === undefined ? [] : [{ ...item, page: target, items: item.items ? map(item.items) : item.items }];
    });
  return map(items);
}

/**
 * The items of a tree row in `lang` (mapped to translations when the row is another language's),
 * answered: labels, addresses and validity from the pages as they are now.
 */
export async function answeredItems(
  db: Db,
  siteId: number,
  addressing: SiteAddressing,
  row: TreeRow,
  lang: string | null,
): Promise<SidebarItem[]> {
  let items = row.root_id === null ? storedItems(row) : await generatedItems(db, siteId, row.root_id);
  const key = treeKey(addressing, lang);
  if (key !== row.lang && key !== "") items = await translated(db, siteId, items, key);
  const pageIds = flattenStored(items).flatMap((item) =>
    item.kind === "page" && item.page !== undefined ? [item.page] : [],
  );
  const facts = await pageFacts(db, siteId, pageIds);
  const answer = (list: readonly StoredItem[]): SidebarItem[] =>
    list.map((item) => {
      const nested = answer(item.items ?? []);
      if (item.kind === "page") {
        const fact = facts.get(item.page!);
        const page = fact?.page ?? null;
        return {
          id: item.id,
          label: item.label ?? page?.title ?? "",
          page: item.page!,
          url: page ? linkUrl(addressing, page.lang, page.path) : null,
          valid: fact?.valid ?? false,
          open: item.open === true,
          items: nested,
        };
      }
      if (item.kind === "link")
        return {
          id: item.id,
          label: item.label ?? "",
          page: null,
          url: completeUrl(addressing.origin, item.url ?? ""),
          valid: true,
          open: false,
          items: [],
        };
      return {
        id: item.id,
        label: item.label ?? "",
        page: null,
        url: null,
        valid: true,
        open: item.open === true,
        items: nested,
      };
    });
  return answer(items);
}

/** Items counted at every depth. */
export function countItems(items: readonly { items?: readonly unknown[] }[]): number {
  let n = 0;
  const stack: Array<{ items?: readonly unknown[] }> = [...items];
  while (stack.length > 0) {
    const item = stack.pop()!;
    n++;
    for (const child of (item.items ?? []) as Array<{ items?: readonly unknown[] }>) stack.push(child);
  }
  return n;
}

/** A sidebar's tree in a language as renders read it (svc/sidebar, svc/pager); undefined: no such sidebar. */
export async function sidebarForRender(
  db: Db,
  site: Pick<SiteRow, "id">,
  addressing: SiteAddressing,
  name: string,
  lang: string | null,
): Promise<SidebarItem[] | undefined> {
  const rows = await db
    .selectFrom("sidebar_trees")
    .selectAll()
    .where("site_id", "=", site.id)
    .where("name", "=", name)
    .execute();
  const key = treeKey(addressing, lang);
  const row = rows.find((r) => r.lang === key) ?? rows.find((r) => r.lang === "");
  return row ? answeredItems(db, site.id, addressing, row, lang) : undefined;
}

/**
 * The sidebars showing any of these pages (or, for generated ones, standing over them), by name,
 * so that a page change reaches the frames printing them. A site holds few sidebars: all of them
 * are looked at; a generated tree is read with the pages under its root.
 */
export async function sidebarsShowing(db: Db, siteId: number, pageIds: readonly number[]): Promise<string[]> {
  if (pageIds.length === 0) return [];
  const rows = await db.selectFrom("sidebar_trees").selectAll().where("site_id", "=", siteId).execute();
  if (rows.length === 0) return [];
  // The pages changed, with their translations: a tree mapped to another language shows those.
  const facts = await pageFacts(db, siteId, pageIds);
  const groups = [
    ...new Set(
      [...facts.values()]
        .map((f) => f.page?.translation_group)
        .filter((g): g is number => g !== null && g !== undefined),
    ),
  ];
  const touched = new Set<number>([...pageIds, ...(await groupMembers(db, siteId, groups)).map((row) => row.id)]);
  const names = new Set<string>();
  for (const row of rows) {
    if (names.has(row.name)) continue;
    const items = row.root_id === null ? storedItems(row) : await generatedItems(db, siteId, row.root_id);
    const shown = flattenStored(items).flatMap((item) => (item.page === undefined ? [] : [item.page]));
    if (row.root_id !== null) shown.push(row.root_id);
    if (shown.some((id) => touched.has(id))) names.add(row.name);
  }
  return [...names].sort();
}
