// When pages were made and last modified, and what their Atom ids were made of, as another
// instance recorded it: a site bundle's import
// (docs/bundles.md, "Round trip") writes each page through the page services, which stamp it with
// the time of that write, then gives it back the times the exported site had, so the sitemap's
// <lastmod>, a feed's <updated> and its ids (which hold the creation date, docs/seo.md "Feeds")
// and `item.modified` print what the exported site printed. One write through the pipeline,
// announcing each page changed, so what prints those times is printed anew.
import { gmt } from "../clock.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Change } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";

export interface PageTimes {
  id: number;
  /** ISO dates (`2024-03-05T09:30:00Z`). */
  created: string;
  modified: string;
  /** What the page's Atom ids were made of there (seo/feed.ts `atomKeyOf`), when known. */
  atomKey?: string;
}

/**
 * Sets each page's creation and last modification, and the key of its Atom ids when given; pages
 * already so are left alone.
 */
export async function keepTimes(ctx: ServiceContext, site: SiteRow, times: readonly PageTimes[]): Promise<void> {
  const wanted = new Map(
    times.map(({ id, created, modified, atomKey }) => [
      id,
      {
        created_at_gmt: gmt(Date.parse(created)),
        updated_at_gmt: gmt(Date.parse(modified)),
        ...(atomKey === undefined ? {} : { atom_key: atomKey }),
      },
    ]),
  );
  if (wanted.size === 0) return;
  const rows = await ctx.db
    .selectFrom("pages")
    .select(["id", "created_at_gmt", "updated_at_gmt", "atom_key"])
    .where("site_id", "=", site.id)
    .where("id", "in", [...wanted.keys()])
    .execute();
  const differ = rows.filter((row) => {
    const want = wanted.get(row.id)!;
    return (
      row.created_at_gmt !== want.created_at_gmt ||
      row.updated_at_gmt !== want.updated_at_gmt ||
      (want.atom_key !== undefined && row.atom_key !== want.atom_key)
    );
  });
  if (differ.length === 0) return;
  await runWrite(ctx, {
    siteId: site.id,
    async apply(trx) {
      for (const row of differ)
        await trx
          .updateTable("pages")
          .set(wanted.get(row.id)!)
          .where("site_id", "=", site.id)
          .where("id", "=", row.id)
          .execute();
      return {
        value: undefined,
        wrote: [],
        changes: differ.map((row): Change => ({ kind: "page", pageId: row.id })),
      };
    },
  });
}
