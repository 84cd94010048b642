// What the publish engine reads of sidebars (publish/contract.ts PublishSources.sidebars): a
// sidebar's tree in a language for renders (svc/sidebar, svc/pager), and which sidebars show some
// pages, so that a page change reaches the frames printing them. A site holds few sidebars: all
// of them are looked at; a generated tree is read with the pages under its root.
import type { PublishSources } from "../publish/contract.ts";
import { groupMembers } from "../pages/queries.ts";
import { pageFacts } from "../menus/resolve.ts";
import { answeredItems, flattenStored, generatedItems, storedItems, treeKey } from "./tree.ts";

export const sidebarPublishSource: PublishSources["sidebars"] = {
  async items(db, site, addressing, name, lang) {
    const rows = await db.selectFrom("sidebar_trees").selectAll().where("site_id", "=", site.id).where("name", "=", name).execute();
    const key = treeKey(addressing, lang);
    const row = rows.find((r) => r.lang === key) ?? rows.find((r) => r.lang === "");
    return row ? answeredItems(db, site.id, addressing, row, lang) : undefined;
  },

  async showing(db, siteId, pageIds) {
    if (pageIds.length === 0) return [];
    const rows = await db.selectFrom("sidebar_trees").selectAll().where("site_id", "=", siteId).execute();
    if (rows.length === 0) return [];
    // The pages changed, with their translations: a tree mapped to another language shows those.
    const facts = await pageFacts(db, siteId, pageIds);
    const groups = [...new Set([...facts.values()].map((f) => f.page?.translation_group).filter((g): g is number => g !== null && g !== undefined))];
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
  },
};
