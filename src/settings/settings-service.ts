// Site settings (docs/content-model.md): name (the site's own name), tagline, theme,
// default_lang, home_page (a page reference, kept as written), not_found_page, iframe_hosts (what
// an editor's iframes may show, docs/roles.md), menu_locations (docs/menus.md), render_model (always v2). A write announces `settings` (and `languages` when it moves the default language)
// to the publish step; the languages themselves are written by languages-service.ts.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Change, Rebaked, SettingKey, Written } from "../write/change.ts";
import { nothingRebaked } from "../write/change.ts";
import { runWrite } from "../write/pipeline.ts";
import { findPageByRef } from "../pages/refs.ts";
import type { ServiceContext } from "../write/context.ts";
import { languageCodeFrom, languageState } from "../site/languages.ts";
import { homePageOf, iframeHostsOf, notFoundPageOf, settingsOf } from "../site/settings.ts";
import { recordLanguageMoves } from "../pages/moves.ts";
import { writeSettings } from "./write.ts";
import { writeSiteName } from "../network/sites-service.ts";
import { homeLeaves } from "../pages/offline.ts";
import { iframeHostsFrom } from "./iframe-hosts.ts";
import { menuLocationsOf } from "../site/menu-locations.ts";
import { locationsMoved, menuLocationsFrom } from "./menu-locations.ts";

export const RENDER_MODEL = "v2";
export const SETTING_KEYS = [
  "name",
  "tagline",
  "theme",
  "default_lang",
  "home_page",
  "not_found_page",
  "iframe_hosts",
  "menu_locations",
  "render_model",
] as const;

const MAX_NAME = 200;
const MAX_TAGLINE = 1000;
const THEME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export interface Settings {
  name: string;
  tagline: string;
  theme: string;
  default_lang: string | null;
  /** The home page reference as written (an id or a slug or path), or null. */
  home_page: number | string | null;
  /** The page shown with status 404 for unknown addresses (docs/seo.md), as written, or null. */
  not_found_page: number | string | null;
  /** The host names an editor's `<iframe src>` may name (docs/roles.md). */
  iframe_hosts: string[];
  /** The locations menus are assigned to, in order (docs/menus.md). */
  menu_locations: string[];
  render_model: typeof RENDER_MODEL;
}

export async function readSettings(ctx: Pick<ServiceContext, "db">, site: SiteRow): Promise<Settings> {
  const [row, state] = await Promise.all([settingsOf(ctx.db, site.id), languageState(ctx.db, site.id)]);
  return {
    name: site.name,
    tagline: row.tagline,
    theme: row.theme,
    default_lang: state.defaultLang,
    home_page: homePageOf(row),
    not_found_page: notFoundPageOf(row),
    iframe_hosts: iframeHostsOf(row),
    menu_locations: menuLocationsOf(row),
    render_model: RENDER_MODEL,
  };
}

/** A string setting, trimmed; 422 invalid_field when it is not a string or is longer than `max`. */
export function stringSetting(value: unknown, key: string, max: number): string {
  if (typeof value !== "string")
    throw fail("invalid_field", { field: key, expected: "string" }, `${key} must be a string.`);
  if (value.length > max)
    throw fail("invalid_field", { field: key, max_length: max }, `${key} is longer than ${max} characters.`);
  return value.trim();
}

/** A page reference setting (`home_page`, `not_found_page`): null, "" or 0 clears it; else it must name a page. */
async function pageSetting(
  ctx: Pick<ServiceContext, "db">,
  site: SiteRow,
  ref: unknown,
  field: string,
): Promise<{ json: string | null; id: number | null }> {
  if (ref === null || ref === "" || ref === 0) return { json: null, id: null };
  if (typeof ref !== "number" && typeof ref !== "string")
    throw fail(
      "invalid_field",
      { field, expected: "page id, slug or path" },
      `${field} must be a page id, a slug or a path.`,
    );
  const value = typeof ref === "string" ? ref.trim() : ref;
  const page = await findPageByRef(ctx.db, site.id, value, { field });
  return { json: JSON.stringify(value), id: page.id };
}

/** `?dry_run=1`: nothing was written; the answer shows what stands and what the write would change. */
export interface DryRunMark {
  dry_run?: boolean;
  applied?: boolean;
}

export interface SettingsAnswer extends DryRunMark {
  settings: Settings;
  changed: string[];
  rebaked: Rebaked;
  warnings: Warning[];
}

/**
 * PATCH /settings. Each known key is checked before anything is written; unknown keys are
 * ignored with `unknown_setting`, `render_model` with `render_model_fixed`. While the site has
 * languages, `default_lang` must be one of them and moves the default language.
 */
export async function patchSettings(
  ctx: ServiceContext,
  site: SiteRow,
  body: Record<string, unknown>,
  options: { dryRun?: boolean } = {},
): Promise<SettingsAnswer> {
  const warnings: Warning[] = [];
  for (const key of Object.keys(body)) {
    if (!(SETTING_KEYS as readonly string[]).includes(key)) {
      warnings.push(
        warning("unknown_setting", `"${key}" is not a setting; it was ignored.`, { key, known: SETTING_KEYS }),
      );
    }
  }
  if (Object.hasOwn(body, "render_model")) {
    warnings.push(
      warning(
        "render_model_fixed",
        `Every site renders with the ${RENDER_MODEL} model; render_model cannot be changed and was ignored.`,
        { render_model: RENDER_MODEL },
      ),
    );
  }
  const current = await readSettings(ctx, site);
  const state = await languageState(ctx.db, site.id);

  let name: string | undefined;
  if (Object.hasOwn(body, "name")) {
    name = stringSetting(body.name, "name", MAX_NAME);
    if (name === "") throw fail("site_name_required", { field: "name" });
  }
  const columns: {
    tagline?: string;
    theme?: string;
    default_lang?: string | null;
    home_page_json?: string | null;
    not_found_page_json?: string | null;
    iframe_hosts_json?: string | null;
    menu_locations_json?: string | null;
  } = {};
  if (Object.hasOwn(body, "tagline"))
    columns.tagline = body.tagline === null ? "" : stringSetting(body.tagline, "tagline", MAX_TAGLINE);
  if (Object.hasOwn(body, "theme")) {
    const theme = body.theme === null ? "default" : stringSetting(body.theme, "theme", 100);
    if (!THEME.test(theme))
      throw fail(
        "invalid_field",
        { field: "theme", pattern: THEME.source },
        "A theme name is letters, digits, dot, dash or underscore.",
      );
    columns.theme = theme;
  }
  if (Object.hasOwn(body, "default_lang")) {
    if (body.default_lang === null || body.default_lang === "") {
      if (state.active)
        throw fail(
          "invalid_field",
          { field: "default_lang", languages: state.codes },
          "While the site has languages one of them is the default; name it.",
        );
      columns.default_lang = null;
    } else {
      const code = languageCodeFrom(body.default_lang, "default_lang");
      if (state.active && !state.codes.includes(code))
        throw fail("unknown_language", { field: "default_lang", lang: code, languages: state.codes });
      columns.default_lang = code;
    }
  }
  let newHome: number | null = null;
  if (Object.hasOwn(body, "home_page")) {
    const set = await pageSetting(ctx, site, body.home_page, "home_page");
    columns.home_page_json = set.json;
    newHome = set.id;
  }
  if (Object.hasOwn(body, "not_found_page"))
    columns.not_found_page_json = (await pageSetting(ctx, site, body.not_found_page, "not_found_page")).json;
  let iframeHosts: string[] | undefined;
  if (Object.hasOwn(body, "iframe_hosts")) {
    iframeHosts = iframeHostsFrom(body.iframe_hosts);
    columns.iframe_hosts_json = iframeHosts.length > 0 ? JSON.stringify(iframeHosts) : null;
  }
  let menuLocations: string[] | undefined;
  if (Object.hasOwn(body, "menu_locations")) {
    menuLocations = menuLocationsFrom(body.menu_locations);
    columns.menu_locations_json = JSON.stringify(menuLocations);
  }

  const changed: string[] = [];
  if (name !== undefined && name !== current.name) changed.push("name");
  if (columns.tagline !== undefined && columns.tagline !== current.tagline) changed.push("tagline");
  if (columns.theme !== undefined && columns.theme !== current.theme) changed.push("theme");
  if (columns.default_lang !== undefined && columns.default_lang !== current.default_lang) changed.push("default_lang");
  if (
    columns.home_page_json !== undefined &&
    columns.home_page_json !== (current.home_page === null ? null : JSON.stringify(current.home_page))
  )
    changed.push("home_page");
  if (
    columns.not_found_page_json !== undefined &&
    columns.not_found_page_json !== (current.not_found_page === null ? null : JSON.stringify(current.not_found_page))
  )
    changed.push("not_found_page");
  if (iframeHosts !== undefined && JSON.stringify(iframeHosts) !== JSON.stringify(current.iframe_hosts))
    changed.push("iframe_hosts");
  if (menuLocations !== undefined && JSON.stringify(menuLocations) !== JSON.stringify(current.menu_locations))
    changed.push("menu_locations");

  if (changed.includes("home_page"))
    warnings.push(...(await homeLeaves(ctx.db, site, ctx.publicFront, current.home_page, newHome)));
  // What the write changed; what a new home page moves (its pages, their addresses) effects/ decides.
  const homes = changed.includes("home_page") ? { before: current.home_page, after: newHome } : undefined;
  // iframe_hosts is read by editors' writes only: no page prints it, nothing to publish. What
  // menu_locations changes (the locations added and removed) is read in the write's transaction.
  const printed = changed.filter((key) => key !== "iframe_hosts" && key !== "menu_locations") as SettingKey[];
  const changesWith = (locations: readonly string[]): Change[] => {
    const keys: SettingKey[] = locations.length > 0 ? [...printed, "menu_locations"] : printed;
    const changes: Change[] =
      keys.length > 0
        ? [{ kind: "settings", keys, ...(homes ? { homes } : {}), ...(locations.length > 0 ? { locations } : {}) }]
        : [];
    // A new default language moves addresses: the default has no prefix, the others do.
    if (changed.includes("default_lang") && state.active) changes.push({ kind: "languages" });
    return changes;
  };
  let rebaked = nothingRebaked();
  if (changed.length > 0) {
    // A dry run writes and tries the same, then rolls back: it meets the refusal the write would.
    const done = await runWrite(ctx, {
      siteId: site.id,
      dryRun: options.dryRun === true,
      // A longer name or tagline is printed wherever frames print it: within the render budgets, or not at all.
      trial: changed.includes("name") || changed.includes("tagline"),
      apply: async (trx) => {
        // Against the list as stored, after the site's counters are taken: no other write of the
        // site's settings or menu assignments runs meanwhile.
        const locations = menuLocations === undefined ? [] : await locationsMoved(trx, site.id, menuLocations);
        if (name !== undefined) await writeSiteName(trx, site.id, name);
        if (Object.keys(columns).length > 0) await writeSettings(trx, site.id, gmt(ctx.clock()), columns);
        // Pages of the old and the new default language move (prefixes): their old addresses redirect.
        // The work may run twice (a trial rehearsed): the moves are answered, not appended.
        const moves = changed.includes("default_lang")
          ? await recordLanguageMoves(trx, site.id, gmt(ctx.clock()), state)
          : undefined;
        const wrote = changed.map((key): Written => ({ kind: "settings", id: key, action: "updated" }));
        return {
          value: null,
          wrote: [...wrote, ...(moves?.wrote ?? [])],
          changes: [...changesWith(locations), ...(moves?.changes ?? [])],
        };
      },
    });
    rebaked = done.rebaked;
  }
  if (options.dryRun)
    return { settings: current, changed, rebaked: nothingRebaked(), dry_run: true, applied: false, warnings };
  const settings = await readSettings(ctx, { ...site, name: name ?? site.name });
  return { settings, changed, rebaked, warnings };
}
