// Site settings and languages (docs/content-model.md). Settings: name (the site's own name), tagline,
// theme, default_lang, home_page (a page reference, kept as written), render_model (always v2).
// Languages: inactive until one is added; the first added is the default; `default: true` on a
// later one moves the default. Writes announce `settings` / `languages` to the publish step.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Change, Rebaked, SettingKey, Written } from "../write/change.ts";
import { nothingRebaked } from "../write/change.ts";
import { runWrite } from "../write/pipeline.ts";
import { findPageByRef } from "../pages/refs.ts";
import type { ServiceContext } from "../write/context.ts";
import {
  defaultLanguageName,
  languageCodeFrom,
  languageRecords,
  languageState,
  type LanguageRecord,
  type LanguageState,
} from "../site/languages.ts";
import { homePageOf, notFoundPageOf, settingsOf } from "../site/settings.ts";
import { recordLanguageMoves } from "../pages/moves.ts";
import { writeSettings } from "./write.ts";
import { writeSiteName } from "../network/sites-service.ts";
import { homeLeaves, offlineNow } from "../pages/offline.ts";

export const RENDER_MODEL = "v2";
export const SETTING_KEYS = [
  "name",
  "tagline",
  "theme",
  "default_lang",
  "home_page",
  "not_found_page",
  "render_model",
] as const;

const MAX_NAME = 200;
const MAX_TAGLINE = 1000;
const THEME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
const MAX_LANGUAGE_NAME = 100;

export interface Settings {
  name: string;
  tagline: string;
  theme: string;
  default_lang: string | null;
  /** The home page reference as written (an id or a slug or path), or null. */
  home_page: number | string | null;
  /** The page shown with status 404 for unknown addresses (docs/seo.md), as written, or null. */
  not_found_page: number | string | null;
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
    render_model: RENDER_MODEL,
  };
}

function stringSetting(value: unknown, key: string, max: number): string {
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
interface DryRunMark {
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

  if (changed.includes("home_page"))
    warnings.push(...(await homeLeaves(ctx.db, site, ctx.publicPort, current.home_page, newHome)));
  // What the write changed; what a new home page moves (its pages, their addresses) effects/ decides.
  const homes = changed.includes("home_page") ? { before: current.home_page, after: newHome } : undefined;
  const changes: Change[] =
    changed.length > 0 ? [{ kind: "settings", keys: changed as SettingKey[], ...(homes ? { homes } : {}) }] : [];
  // A new default language moves addresses: the default has no prefix, the others do.
  if (changed.includes("default_lang") && state.active) changes.push({ kind: "languages" });
  let rebaked = nothingRebaked();
  if (changed.length > 0) {
    // A dry run writes and tries the same, then rolls back: it meets the refusal the write would.
    const done = await runWrite(ctx, {
      siteId: site.id,
      dryRun: options.dryRun === true,
      // A longer name or tagline is printed wherever frames print it: within the render budgets, or not at all.
      trial: changed.includes("name") || changed.includes("tagline"),
      apply: async (trx) => {
        if (name !== undefined) await writeSiteName(trx, site.id, name);
        if (Object.keys(columns).length > 0) await writeSettings(trx, site.id, gmt(ctx.clock()), columns);
        // Pages of the old and the new default language move (prefixes): their old addresses redirect.
        // The work may run twice (a trial rehearsed): the moves are answered, not appended.
        const moves = changed.includes("default_lang")
          ? await recordLanguageMoves(trx, site.id, gmt(ctx.clock()), state)
          : [];
        const wrote = changed.map((key): Written => ({ kind: "settings", id: key, action: "updated" }));
        return { value: null, wrote, changes: [...changes, ...moves] };
      },
    });
    rebaked = done.rebaked;
  }
  if (options.dryRun)
    return { settings: current, changed, rebaked: nothingRebaked(), dry_run: true, applied: false, warnings };
  const settings = await readSettings(ctx, { ...site, name: name ?? site.name });
  return { settings, changed, rebaked, warnings };
}

export interface LanguagesView {
  active: boolean;
  default_lang: string | null;
  languages: LanguageRecord[];
}

function view(state: LanguageState): LanguagesView {
  return { active: state.active, default_lang: state.defaultLang, languages: languageRecords(state) };
}

export async function listLanguages(ctx: Pick<ServiceContext, "db">, site: SiteRow): Promise<LanguagesView> {
  return view(await languageState(ctx.db, site.id));
}

export interface LanguageWriteAnswer extends LanguagesView {
  language: LanguageRecord;
  created: boolean;
  rebaked: Rebaked;
  warnings: Warning[];
}

/**
 * POST /languages `{code, name?, default?}`: adds a language (activating the multilingual mode;
 * the first is the default) or, for a code the site has, renames it / makes it the default.
 */
export async function addLanguage(
  ctx: ServiceContext,
  site: SiteRow,
  body: Record<string, unknown>,
): Promise<LanguageWriteAnswer> {
  const warnings: Warning[] = [];
  for (const key of Object.keys(body)) {
    if (!["code", "name", "default"].includes(key))
      warnings.push(warning("unknown_field", `Field "${key}" is not known here and was ignored.`, { field: key }));
  }
  const code = languageCodeFrom(body.code);
  let name: string | undefined;
  if (body.name !== undefined && body.name !== null) {
    name = stringSetting(body.name, "name", MAX_LANGUAGE_NAME);
    if (name === "") name = undefined;
  }
  if (body.default !== undefined && body.default !== null && typeof body.default !== "boolean") {
    throw fail("invalid_field", { field: "default", expected: "boolean" }, "default must be true or false.");
  }
  const makeDefault = body.default === true;

  const before = await languageState(ctx.db, site.id);
  const existing = before.rows.find((row) => row.code === code);
  const now = gmt(ctx.clock());
  if (!before.active && body.default === false) {
    warnings.push(warning("default_forced", "The first language of a site is its default language.", { code }));
  }
  const becomesDefault = !before.active || makeDefault;
  const renamed = existing !== undefined && name !== undefined && name !== existing.name;
  const defaultMoves = becomesDefault && before.defaultLang !== code;

  let rebaked = nothingRebaked();
  if (!existing || renamed || defaultMoves) {
    const done = await runWrite(ctx, {
      siteId: site.id,
      apply: async (trx) => {
        if (!existing) {
          const last = before.rows.reduce((max, row) => Math.max(max, row.position), 0);
          await trx
            .insertInto("languages")
            .values({
              site_id: site.id,
              code,
              name: name ?? defaultLanguageName(code),
              position: last + 1,
              created_at_gmt: now,
            })
            .execute();
        } else if (renamed) {
          await trx
            .updateTable("languages")
            .set({ name: name as string })
            .where("site_id", "=", site.id)
            .where("code", "=", code)
            .execute();
        }
        if (becomesDefault) await writeSettings(trx, site.id, now, { default_lang: code });
        // The addresses the default language's pages left.
        const moved = defaultMoves ? await recordLanguageMoves(trx, site.id, now, before) : [];
        const wrote: Written[] = [
          ...(!existing || renamed
            ? [{ kind: "language", id: code, action: existing ? "updated" : "created" } as const]
            : []),
          ...(becomesDefault ? [{ kind: "settings", id: "default_lang", action: "updated" } as const] : []),
        ];
        return {
          value: null,
          wrote,
          changes: [{ kind: "languages" }, ...(defaultMoves ? [{ kind: "settings" } as const, ...moved] : [])],
        };
      },
    });
    rebaked = done.rebaked;
  }
  const after = await languageState(ctx.db, site.id);
  const language = languageRecords(after).find((l) => l.code === code) as LanguageRecord;
  return { ...view(after), language, created: !existing, rebaked, warnings };
}

export interface LanguageDeleteAnswer extends LanguagesView, DryRunMark {
  deleted: { code: string; name: string };
  rebaked: Rebaked;
  warnings: Warning[];
}

/**
 * DELETE /languages/{code}. The default moves to the earliest remaining language; removing the
 * last one makes the site monolingual again. Pages keep their `lang`.
 */
export async function removeLanguage(
  ctx: ServiceContext,
  site: SiteRow,
  rawCode: string,
  options: { dryRun?: boolean } = {},
): Promise<LanguageDeleteAnswer> {
  const before = await languageState(ctx.db, site.id);
  if (!before.active) throw fail("multilang_inactive", { lang: rawCode });
  const code = languageCodeFrom(rawCode);
  const row = before.rows.find((r) => r.code === code);
  if (!row) throw fail("unknown_language", { lang: code, languages: before.codes });
  const warnings: Warning[] = [];
  const pages = await ctx.db
    .selectFrom("pages")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("site_id", "=", site.id)
    .where("lang", "=", code)
    .executeTakeFirst();
  const inLanguage = Number(pages?.n ?? 0);
  if (inLanguage > 0) {
    warnings.push(
      warning("language_has_pages", `${inLanguage} page(s) keep lang "${code}"; they are not deleted.`, {
        lang: code,
        pages: inLanguage,
      }),
    );
  }
  const now = gmt(ctx.clock());
  const remaining = before.rows.filter((r) => r.code !== code);
  // Pages keep their language; with other languages left, that one no longer answers (the last
  // one removed, the site is monolingual and they answer where they did).
  if (inLanguage > 0 && remaining.length > 0) {
    const ids = await ctx.db
      .selectFrom("pages")
      .select("id")
      .where("site_id", "=", site.id)
      .where("lang", "=", code)
      .execute();
    warnings.push(
      ...(await offlineNow(
        ctx.db,
        site,
        ctx.publicPort,
        ids.map((r) => r.id),
        `its language ${code} was removed`,
      )),
    );
  }
  const defaultMoves = before.defaultLang === code && remaining.length > 0;
  const changes: Change[] = [{ kind: "languages" }, ...(defaultMoves ? [{ kind: "settings" } as const] : [])];
  // A dry run removes it in the transaction as the delete would and rolls back, so it answers the
  // languages and default that would be left.
  const done = await runWrite(ctx, {
    siteId: site.id,
    dryRun: options.dryRun === true,
    apply: async (trx) => {
      await trx.deleteFrom("languages").where("site_id", "=", site.id).where("code", "=", code).execute();
      if (defaultMoves) await writeSettings(trx, site.id, now, { default_lang: remaining[0].code });
      const moved = await recordLanguageMoves(trx, site.id, now, before);
      const wrote: Written[] = [
        { kind: "language", id: code, action: "deleted" },
        ...(defaultMoves ? [{ kind: "settings", id: "default_lang", action: "updated" } as const] : []),
      ];
      return { value: await languageState(trx, site.id), wrote, changes: [...changes, ...moved] };
    },
  });
  if (options.dryRun)
    return {
      ...view(done.value),
      deleted: { code, name: row.name },
      rebaked: nothingRebaked(),
      dry_run: true,
      applied: false,
      warnings,
    };
  return {
    ...view(await languageState(ctx.db, site.id)),
    deleted: { code, name: row.name },
    rebaked: done.rebaked,
    warnings,
  };
}
