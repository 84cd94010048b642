// POST /pages/language `{missing: true, lang?}` (docs/content-model.md, "Translations"): every page
// without a language gets one, through the translations' announced write (translations.ts).
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Rebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import { childPath } from "./paths.ts";
import { inputWarnings } from "./input.ts";
import { slugsUnder, type PageRow } from "./queries.ts";
import { firstFreeSlug } from "./slug.ts";
import { announcedWrite } from "./announced-write.ts";

const MISSING_KEYS = ["missing", "lang"] as const;

export interface MissingAnswer {
  updated: number[];
  lang: string;
  rebaked: Rebaked;
  warnings: Warning[];
}

/**
 * `{missing: true, lang?}`: every page without a language gets `lang` (default: the site's
 * default language). Parents go first, so paths follow; a slug another page already holds
 * there in that language gets -2 (reported as `slug_changed` warnings).
 */
export async function assignMissingLanguage(
  ctx: ServiceContext,
  site: SiteRow,
  body: Record<string, unknown>,
): Promise<MissingAnswer> {
  const warnings = inputWarnings(body, MISSING_KEYS);
  const state = await languageState(ctx.db, site.id);
  const given = checkLangIn(state, body.lang);
  if (!state.active)
    throw fail(
      "multilang_inactive",
      { field: "lang" },
      "The site has no languages yet; add one with POST /languages first.",
    );
  const lang = given ?? (state.defaultLang as string);
  const now = gmt(ctx.clock());

  const { result: updated, rebaked } = await announcedWrite(ctx, site.id, warnings, async (trx) => {
    const rows = await trx
      .selectFrom("pages")
      .selectAll()
      .where("site_id", "=", site.id)
      .where("lang", "=", "")
      .orderBy("id")
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    const newPath = new Map<number, string>();
    const done: number[] = [];
    // Parents before children: a page whose parent is still waiting waits too.
    const depth = (row: PageRow): number => {
      let d = 0;
      const seen = new Set<number>();
      for (let p = byId.get(row.parent_id); p && !seen.has(p.id); p = byId.get(p.parent_id)) {
        seen.add(p.id);
        d++;
      }
      return d;
    };
    const ordered = [...rows].sort((a, b) => depth(a) - depth(b) || a.id - b.id);
    for (const row of ordered) {
      const parentPath =
        row.parent_id === 0 ? "" : (newPath.get(row.parent_id) ?? row.path.slice(0, row.path.lastIndexOf("/")));
      const slug = firstFreeSlug(row.slug, await slugsUnder(trx, site.id, row.parent_id, lang, row.id));
      const path = childPath(parentPath, slug);
      newPath.set(row.id, path);
      await trx
        .updateTable("pages")
        .set({ lang, slug, path, updated_at_gmt: now })
        .where("site_id", "=", site.id)
        .where("id", "=", row.id)
        .execute();
      if (slug !== row.slug)
        warnings.push(
          warning("slug_changed", `Page ${row.id} got the slug "${slug}": "${row.slug}" is taken in "${lang}".`, {
            id: row.id,
            from: row.slug,
            to: slug,
          }),
        );
      done.push(row.id);
    }
    // One revision of each page that got the language (the pages it changes, not the site).
    return { result: done, wrote: done };
  });
  return { updated, lang, rebaked, warnings };
}
