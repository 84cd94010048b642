// What the publish engine reads of a site's SEO (publish/contract.ts PublishSources.seo): the
// defaults `svc/seo` prints, and whether a media file is the site's or a page's image.
import { sql } from "kysely";
import type { PublishSources } from "../publish/contract.ts";
import { siteById } from "../site/sites.ts";
import { seoForRender, siteSeoOf } from "./site-seo.ts";

export const seoPublishSource: PublishSources["seo"] = {
  async site(db, siteId) {
    const site = await siteById(db, siteId);
    return seoForRender(await siteSeoOf(db, { id: siteId, name: site?.name ?? "" }));
  },

  async usesMedia(db, siteId, refs) {
    if (refs.length === 0) return false;
    const own = await db.selectFrom("site_seo").select("site_id").where("site_id", "=", siteId).where("og_image", "in", [...refs]).executeTakeFirst();
    if (own) return true;
    // A page's image is a field of its stored SEO JSON: `"og_image":"<ref>"` (pages/seo.ts writes it so).
    const page = await db
      .selectFrom("pages")
      .select("id")
      .where("site_id", "=", siteId)
      .where((eb) => eb.or(refs.map((ref) => sql<boolean>`seo_json like ${`%"og_image":${JSON.stringify(ref).replace(/[%_\\]/g, (c) => `\\${c}`)}%`} escape '\\'`)))
      .executeTakeFirst();
    return page !== undefined;
  },
};
