// The menu items a page delete leaves pointing nowhere: the items of the site's menus
// that point to the page deleted or trashed (such an item is invalid and prints nothing; the
// menus feature reports it with `invalid_reason`). Read from the menus feature's table, as
// frames/pages.ts reads pages: the pages feature stands below menus and cannot import it, and it
// writes nothing there. An item keeps its page id, so a page brought back from the trash under
// its id is pointed at again.
import type { Db } from "../store/database.ts";
import type { PageRow } from "./queries.ts";

export interface OrphanedItem {
  menu_id: number;
  id: number;
  /** The item's own title, else the page's (the title the menu showed). */
  title: string;
}

/** The items pointing to this page, by menu and item id. */
export async function menuItemsPointingAt(
  db: Db,
  siteId: number,
  page: Pick<PageRow, "id" | "title">,
): Promise<OrphanedItem[]> {
  const rows = await db
    .selectFrom("menu_items")
    .select(["menu_id", "id", "title"])
    .where("site_id", "=", siteId)
    .where("page_id", "=", page.id)
    .orderBy("menu_id")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ menu_id: row.menu_id, id: row.id, title: row.title ?? page.title }));
}
