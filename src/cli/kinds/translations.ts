// Translation links of a push (docs/cli.md, "The folder": a page file names its translations).
// After a page is written, each translation its file names that the server does not link yet is
// linked with `POST /pages/language {page, lang, translation}` (docs/content-model.md,
// "Translations"), once the other page exists: of two new pages naming each other, the second
// written links them. A link the file no longer names is left (the API has no call that unlinks
// a page and keeps it): svc pull shows it again.
import { data, type Rec } from "../api.ts";
import type { Json } from "../canonical.ts";
import type { SiteFacts } from "../files.ts";
import type { Warning } from "../output.ts";
import type { WriteContext } from "../write-types.ts";
import { warningsOf } from "../write-types.ts";
import { fileTranslations, translationsOf } from "./page-file.ts";

/** The id of the page at `path` in `lang`, as the push knows the site's pages now. */
export function pageIdAt(facts: SiteFacts, lang: string, path: string): number | null {
  for (const [id, page] of facts.pages) if (page.lang === lang && page.path === path) return id;
  return null;
}

/** Links the page to the translations its file names; the page's record afterwards when any link was made. */
export async function linkTranslations(
  ctx: WriteContext,
  key: string,
  file: Json,
  page: Rec,
): Promise<{ page: Rec; warnings: Warning[] }> {
  const want = fileTranslations(key, (file ?? {}) as Rec);
  const have = translationsOf(page, ctx.facts);
  const warnings: Warning[] = [];
  let linked = false;
  for (const [lang, path] of Object.entries(want)) {
    if (have[lang] === path) continue;
    const other = pageIdAt(ctx.facts, lang, path);
    if (other === null) continue; // not written yet: its own write links the two
    const answer = await data(
      ctx.api,
      ctx.api.site.POST("/pages/language", { body: { page: Number(page.id), lang, translation: other } as never }),
    );
    warnings.push(...warningsOf(answer));
    linked = true;
  }
  if (!linked) return { page, warnings };
  const answer = await data(ctx.api, ctx.api.site.GET("/pages/{ref}", { params: { path: { ref: String(page.id) } } }));
  return { page: (answer.page ?? page) as Rec, warnings };
}
