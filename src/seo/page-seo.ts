// GET and PATCH /seo/pages/{ref} (docs/seo.md): a page's own SEO fields, per translation (a `{ref}`
// names one page; `?lang` picks among pages sharing a slug, as for /pages). PATCH is the `seo`
// field of PATCH /pages: the pages feature writes it, announces the page and answers `rebaked`.
import type { Rebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { patchPage } from "../pages/patch-service.ts";
import { findPageByRef } from "../pages/refs.ts";
import { fail } from "../errors.ts";
import { SEO_KEYS, seoOf, type PageSeo } from "../pages/seo.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Warning } from "../warnings.ts";

export async function pageSeo(
  ctx: Pick<ServiceContext, "db">,
  site: SiteRow,
  ref: string,
  query: { lang?: unknown },
): Promise<{ page: number; seo: PageSeo }> {
  const lang = checkLangIn(await languageState(ctx.db, site.id), query.lang);
  const page = await findPageByRef(ctx.db, site.id, ref, lang !== null ? { lang } : {});
  return { page: page.id, seo: seoOf(page) };
}

export async function patchPageSeo(
  ctx: ServiceContext,
  site: SiteRow,
  ref: string,
  body: Record<string, unknown>,
  query: { lang?: unknown },
): Promise<{ page: number; seo: PageSeo; rebaked: Rebaked; warnings: Warning[] }> {
  if (Object.keys(body).length === 0) throw fail("nothing_to_update", { allowed: SEO_KEYS });
  // Only SEO fields, which hold no HTML (docs/seo.md prints them escaped): nothing to sanitise.
  const written = await patchPage(ctx, site, ref, { seo: body }, query, { markup: "raw" });
  return { page: written.page.id, seo: written.page.seo, rebaked: written.rebaked, warnings: written.warnings };
}
