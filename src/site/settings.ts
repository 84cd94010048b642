// Settings and language rows of one site, as stored (the settings feature writes them).
import type { Selectable } from "kysely";
import { Type } from "@sinclair/typebox";
import type { Db } from "../store/database.ts";
import { jsonColumn } from "../store/json-column.ts";
import type { LanguagesTable, SiteSettingsTable } from "../store/schema.ts";

export type SettingsRow = Selectable<SiteSettingsTable>;
export type LanguageRow = Selectable<LanguagesTable>;

export const DEFAULT_THEME = "default";

/** The stored settings, or the defaults of a site that never wrote any. */
export async function settingsOf(db: Db, siteId: number): Promise<SettingsRow> {
  const row = await db.selectFrom("site_settings").selectAll().where("site_id", "=", siteId).executeTakeFirst();
  return (
    row ?? {
      site_id: siteId,
      tagline: "",
      theme: DEFAULT_THEME,
      default_lang: null,
      home_page_json: null,
      not_found_page_json: null,
      iframe_hosts_json: null,
      menu_locations_json: null,
      updated_at_gmt: "",
    }
  );
}

/** The site's languages in the order they were added. */
export function languagesOf(db: Db, siteId: number): Promise<LanguageRow[]> {
  return db
    .selectFrom("languages")
    .selectAll()
    .where("site_id", "=", siteId)
    .orderBy("position")
    .orderBy("code")
    .execute();
}

/** A page a setting names (`home_page_json`, `not_found_page_json`): an id, or a slug or path as given. */
const PAGE_SETTING = jsonColumn("site_settings.*_page_json", Type.Union([Type.Number(), Type.String()]));

/** The page reference a setting keeps, or null: none set, or one that does not read (every public answer reads it). */
function pageRefOf(json: string | null): number | string | null {
  return json === null ? null : PAGE_SETTING.readOr(json, null);
}

/** The page the `home_page` setting names (an id or a slug as given), or null while none is set. */
export function homePageOf(settings: Pick<SettingsRow, "home_page_json">): number | string | null {
  return pageRefOf(settings.home_page_json);
}

/** The page the `not_found_page` setting names, shown with status 404 for unknown addresses; null while none is set. */
export function notFoundPageOf(settings: Pick<SettingsRow, "not_found_page_json">): number | string | null {
  return pageRefOf(settings.not_found_page_json);
}

/** `iframe_hosts` (docs/roles.md): host names, each as normalised when written. */
const IFRAME_HOSTS = jsonColumn("site_settings.iframe_hosts_json", Type.Array(Type.String()));

/** The host names an editor's `<iframe src>` may name; none while none is set, or when the stored list does not read. */
export function iframeHostsOf(settings: Pick<SettingsRow, "iframe_hosts_json">): string[] {
  return settings.iframe_hosts_json === null ? [] : IFRAME_HOSTS.readOr(settings.iframe_hosts_json, []);
}
