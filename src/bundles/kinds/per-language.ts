// The objects kept per language: data/<name>.json (the shared set) and data/<name>.<lang>.json (a
// language's variant), sidebars/<name>.json and sidebars/<name>.<lang>.json (a language's own
// tree), strings/<lang>.json (`_` on a site without languages). Written with the data, sidebars
// and strings services.
import { DATASET_ITEMS } from "../../data/items-column.ts";
import { putDataset } from "../../data/datasets.ts";
import { deleteDataset } from "../../data/delete-service.ts";
import { deleteSidebar, putSidebar } from "../../sidebars/service.ts";
import { storedItems, type StoredItem } from "../../sidebars/tree.ts";
import { putStrings, readStrings } from "../../strings/service.ts";
import { memoryEntry } from "../archive-write.ts";
import { jsonEntry } from "../format.ts";
import { refOrId, type PageNames } from "../page-names.ts";
import { isRecord, jsonOf, stemIn, type BundleKind, type Reference } from "./kind.ts";

const NAME_LANG = /^([a-z0-9][a-z0-9_-]*)(?:\.([a-z]{2}(?:-[a-z]{2})?))?$/;

/** `<name>` or `<name>.<lang>` in `folder`. */
function nameIn(path: string, folder: string): string | null {
  const stem = stemIn(path, folder, ".json");
  return stem !== null && NAME_LANG.test(stem) ? stem : null;
}

function split(name: string): { name: string; lang: string | null } {
  const match = NAME_LANG.exec(name)!;
  return { name: match[1], lang: match[2] ?? null };
}

export const data: BundleKind = {
  kind: "data",
  async read({ ctx, site }) {
    const rows = await ctx.db
      .selectFrom("datasets")
      .select(["name", "lang", "items_json"])
      .where("site_id", "=", site.id)
      .orderBy("name")
      .orderBy("lang")
      .execute();
    return rows.map((row) => {
      const name = row.lang === "" ? row.name : `${row.name}.${row.lang}`;
      return { name, entry: memoryEntry(`data/${name}.json`, jsonEntry(DATASET_ITEMS.readOr(row.items_json, []))) };
    });
  },
  nameOf: (path) => nameIn(path, "data"),
  async put({ ctx, site }, full, bytes) {
    const { name, lang } = split(full);
    await putDataset(ctx, site, name, { items: jsonOf(bytes), ...(lang ? { lang } : {}) }, { markup: "raw" });
  },
  async remove({ ctx, site }, full) {
    const { name, lang } = split(full);
    await deleteDataset(ctx, site, name, lang ? { lang } : {});
  },
};

/** A stored sidebar tree as its entry: pages by reference, a label only where one was given. */
function sidebarItems(items: readonly StoredItem[], names: PageNames): Record<string, unknown>[] {
  return items.map((item) => {
    const out: Record<string, unknown> = {};
    if (item.kind === "page") out.page = refOrId(names, item.page!);
    if (item.kind === "link") out.url = item.url ?? "";
    if (item.label !== null) out.label = item.label;
    if (item.open === true) out.open = true;
    if (item.items && item.items.length > 0) out.items = sidebarItems(item.items, names);
    else if (item.kind === "section") out.items = [];
    return out;
  });
}

function pageRefsIn(items: unknown): string[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((item) =>
    isRecord(item) ? [...(typeof item.page === "string" ? [item.page] : []), ...pageRefsIn(item.items)] : [],
  );
}

export const sidebars: BundleKind = {
  kind: "sidebars",
  async read({ ctx, site, pages }) {
    const rows = await ctx.db
      .selectFrom("sidebar_trees")
      .selectAll()
      .where("site_id", "=", site.id)
      .orderBy("name")
      .orderBy("lang")
      .execute();
    return rows.map((row) => {
      const name = row.lang === "" ? row.name : `${row.name}.${row.lang}`;
      const file =
        row.root_id !== null ? { root: refOrId(pages, row.root_id) } : { items: sidebarItems(storedItems(row), pages) };
      return { name, entry: memoryEntry(`sidebars/${name}.json`, jsonEntry(file)) };
    });
  },
  nameOf: (path) => nameIn(path, "sidebars"),
  references(_name, bytes): Reference[] {
    const file = jsonOf(bytes);
    if (!isRecord(file)) return [];
    const refs = typeof file.root === "string" ? [file.root] : pageRefsIn(file.items);
    return refs.map((name) => ({ kind: "pages", name }));
  },
  async put({ ctx, site }, full, bytes) {
    const { name, lang } = split(full);
    const file = jsonOf(bytes);
    const tree = isRecord(file) ? file : {};
    await putSidebar(
      ctx,
      site,
      name,
      {
        ...(tree.root !== undefined ? { root: tree.root as string } : { items: tree.items }),
        ...(lang ? { lang } : {}),
      },
      { allowInvalid: true },
    );
  },
  async remove({ ctx, site }, full) {
    const { name, lang } = split(full);
    // A language's own tree has no call of its own to delete it; the default tree takes the sidebar.
    if (lang === null) await deleteSidebar(ctx, site, name);
  },
};

const NO_LANG = "_";

export const strings: BundleKind = {
  kind: "strings",
  async read({ ctx, site, pages }) {
    const { strings: byLang } = await readStrings(ctx, site, {});
    return Object.entries(byLang)
      .filter(([, texts]) => Object.keys(texts).length > 0)
      .map(([lang, texts]) => {
        const name = pages.state.active ? lang : NO_LANG;
        return { name, entry: memoryEntry(`strings/${name}.json`, jsonEntry(texts)) };
      });
  },
  nameOf: (path) => stemIn(path, "strings", ".json"),
  async put({ ctx, site }, name, bytes) {
    const texts = jsonOf(bytes) as Record<string, string>;
    await putStrings(ctx, site, { strings: texts, ...(name === NO_LANG ? {} : { lang: name }) });
  },
  async remove({ ctx, site }, name) {
    await putStrings(ctx, site, { strings: {}, ...(name === NO_LANG ? {} : { lang: name }) });
  },
};
