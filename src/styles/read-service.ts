// GET /styles and GET /styles/{name} (docs/styles.md): a theme's stylesheets (the site's current
// theme, or `?theme=` another), each with the current address of its bundle; one with its CSS as
// uploaded.
import type { ServiceContext } from "../write/context.ts";
import { themeFrom } from "../menus/locations.ts";
import type { SiteRow } from "../site/sites.ts";
import { refreshCopies } from "./copies.ts";
import { styleNameFrom, styleNotFound } from "./names.ts";
import { sheetsCss, siteThemes, themeSheets } from "./queries.ts";
import { styleRecord, type StyleRecord } from "./record.ts";

export interface StyleList {
  theme: string;
  styles: StyleRecord[];
  /** Every theme the site has stylesheets in (the one read among them when it has any). */
  themes: string[];
}

/** The theme's stylesheets by name. Their addresses are brought up to date first (a media file they point to may have changed). */
export async function listStyles(ctx: ServiceContext, site: SiteRow, query: { theme?: unknown }): Promise<StyleList> {
  const { theme } = await themeFrom(ctx.db, site.id, query.theme);
  const sheets = await themeSheets(ctx.db, site.id, theme);
  const { current } = await refreshCopies(ctx.db, ctx.clock(), site.id, theme, [...sheets.keys()], { refuse: false });
  return {
    theme,
    styles: [...sheets.values()].map((sheet) => styleRecord(theme, sheet, current.get(sheet.name))),
    themes: await siteThemes(ctx.db, site.id),
  };
}

/** One stylesheet with `css` exactly as uploaded; 404 style_not_found when the theme has none by that name. */
export async function readStyle(
  ctx: ServiceContext,
  site: SiteRow,
  rawName: string,
  query: { theme?: unknown },
): Promise<StyleRecord & { css: string }> {
  const name = styleNameFrom(rawName);
  const { theme } = await themeFrom(ctx.db, site.id, query.theme);
  const sheet = (await themeSheets(ctx.db, site.id, theme)).get(name);
  if (!sheet) throw styleNotFound(name, theme);
  const { current } = await refreshCopies(ctx.db, ctx.clock(), site.id, theme, [name], { refuse: false });
  const css = (await sheetsCss(ctx.db, site.id, theme, [name])).get(name);
  if (css === undefined) throw styleNotFound(name, theme); // deleted meanwhile
  return { ...styleRecord(theme, sheet, current.get(name)), css };
}
