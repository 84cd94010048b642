// Writes the settings row of a site (the settings feature owns the site_settings table).
import type { Db } from "../store/database.ts";
import { DEFAULT_THEME, type SettingsRow } from "../site/settings.ts";

/** Writes some settings columns, creating the site's row on its first write. */
export async function writeSettings(
  db: Db,
  siteId: number,
  at: string,
  changes: Partial<
    Pick<
      SettingsRow,
      | "tagline"
      | "theme"
      | "default_lang"
      | "home_page_json"
      | "not_found_page_json"
      | "iframe_hosts_json"
      | "menu_locations_json"
    >
  >,
): Promise<void> {
  await db
    .insertInto("site_settings")
    .values({
      site_id: siteId,
      tagline: "",
      theme: DEFAULT_THEME,
      default_lang: null,
      home_page_json: null,
      not_found_page_json: null,
      iframe_hosts_json: null,
      menu_locations_json: null,
      updated_at_gmt: at,
    })
    .onConflict((oc) => oc.column("site_id").doNothing())
    .execute();
  await db
    .updateTable("site_settings")
    .set({ ...changes, updated_at_gmt: at })
    .where("site_id", "=", siteId)
    .execute();
}
