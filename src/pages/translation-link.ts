// Linking two existing pages as translations of each other (docs/content-model.md,
// "Translations"): `POST /pages/language {page, lang, translation}` puts the page `translation`
// (in language `lang`) in the translation group of `page`, writing nothing else of either — where
// `{page, lang}` alone makes a new page (and an `impressum-2` beside the one that already existed).
// Each page's group joins: the translation's partners come along, so a language held on both
// sides is 409 `translation_exists`, and nothing is written.
import { fail } from "../errors.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Rebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { warning, type Warning } from "../warnings.ts";
import { groupMembers, type PageRow } from "./queries.ts";
import { announcedWrite } from "./announced-write.ts";

/** What a link writes nothing of: given with `translation`, it is warned and ignored. */
const NOT_WRITTEN = ["title", "slug", "content", "content_format", "status", "date", "tags", "feed"] as const;

export interface Linked {
  row: PageRow;
  /** Whether any page's group changed (false: they were already translations of each other). */
  changed: boolean;
  rebaked: Rebaked;
}

function exists(lang: string, page: number, holder: number): never {
  throw fail(
    "translation_exists",
    { lang, page, translation: holder },
    `Page ${page} already has a translation in "${lang}" (page ${holder}); unlink or delete it first.`,
  );
}

/**
 * Puts `translation` in `origin`'s group. `origin` has a language other than `lang`; the caller
 * checked both and resolved `translation`.
 */
export async function linkExisting(
  ctx: ServiceContext,
  site: SiteRow,
  origin: PageRow,
  translation: PageRow,
  lang: string,
  body: Record<string, unknown>,
  warnings: Warning[],
): Promise<Linked> {
  for (const key of NOT_WRITTEN)
    if (body[key] !== undefined)
      warnings.push(
        warning("field_ignored", `${key} is not written when an existing page is linked as the translation.`, {
          field: key,
        }),
      );
  if (translation.lang !== lang)
    throw fail(
      "translation_link_failed",
      { reason: "translation_language", translation: translation.id, lang, translation_lang: translation.lang || null },
      `The page linked as the "${lang}" translation is in ${translation.lang ? `"${translation.lang}"` : "no language"}.`,
    );
  const { result, rebaked } = await announcedWrite(
    ctx,
    site.id,
    warnings,
    async (trx) => {
      const groupOf = (page: PageRow) => page.translation_group ?? page.id;
      const ours = await groupMembers(trx, site.id, [groupOf(origin)]);
      const theirs = await groupMembers(trx, site.id, [groupOf(translation)]);
      const alreadyLinked = ours.some((page) => page.id === translation.id);
      if (alreadyLinked) return { result: { row: translation, changed: false, moved: [] as number[] }, wrote: [] };
      const held = new Map(ours.map((page) => [page.lang, page.id]));
      if (!held.has(origin.lang)) held.set(origin.lang, origin.id);
      const joining = theirs.length > 0 ? theirs : [translation];
      for (const page of joining) {
        const holder = held.get(page.lang);
        if (holder !== undefined && holder !== page.id)
          exists(page.lang, page.id === translation.id ? origin.id : page.id, holder);
      }
      const group = groupOf(origin);
      const moved = [...new Set([origin.id, ...joining.map((page) => page.id)])];
      await trx
        .updateTable("pages")
        .set({ translation_group: group })
        .where("site_id", "=", site.id)
        .where("id", "in", moved)
        .execute();
      return { result: { row: translation, changed: true, moved }, wrote: moved };
    },
    () => [],
    {
      enter: origin,
      written: (done) => ({ written: [origin.id, translation.id, ...done.moved], created: [] }),
    },
  );
  return { row: result.row, changed: result.changed, rebaked };
}
