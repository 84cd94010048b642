// The site's languages (docs/content-model.md): inactive until one is added; the first added is
// the default; `default: true` on a later one moves the default. Writes announce `languages` (and
// `settings` when the default moves) to the publish step.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Change, Rebaked, Written } from "../write/change.ts";
import { nothingRebaked } from "../write/change.ts";
import { runWrite } from "../write/pipeline.ts";
import type { ServiceContext } from "../write/context.ts";
import {
  defaultLanguageName,
  languageCodeFrom,
  languageRecords,
  languageState,
  type LanguageRecord,
  type LanguageState,
} from "../site/languages.ts";
import { recordLanguageMoves } from "../pages/moves.ts";
import { writeSettings } from "./write.ts";
import { offlineNow } from "../pages/offline.ts";
import { stringSetting, type DryRunMark } from "./settings-service.ts";

const MAX_LANGUAGE_NAME = 100;

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
        const moved = defaultMoves ? await recordLanguageMoves(trx, site.id, now, before) : undefined;
        const wrote: Written[] = [
          ...(!existing || renamed
            ? [{ kind: "language", id: code, action: existing ? "updated" : "created" } as const]
            : []),
          ...(becomesDefault ? [{ kind: "settings", id: "default_lang", action: "updated" } as const] : []),
          ...(moved?.wrote ?? []),
        ];
        return {
          value: null,
          wrote,
          changes: [{ kind: "languages" }, ...(moved ? [{ kind: "settings" } as const, ...moved.changes] : [])],
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
        ctx.publicFront,
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
        ...moved.wrote,
      ];
      return { value: await languageState(trx, site.id), wrote, changes: [...changes, ...moved.changes] };
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
