// The site's menu locations (setting `menu_locations`, docs/menus.md): a JSON array of location
// names; null while none was set (the default locations: header, footer_1, footer_2, footer_3).
import type { Build } from "./build.ts";

export const up: Build = async (db) => {
  await db.schema.alterTable("site_settings").addColumn("menu_locations_json", "text").execute();
};
