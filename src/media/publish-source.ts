// What the publish engine reads of media (publish/contract.ts PublishSources.media): the files a
// render prints (tokens `media.<ref>.*`, svc/image), by the refs its frames name, in one query.
// Addresses follow the one rule of addresses.ts. Only the rendering site's rows are read, so a
// frame never prints another site's file.
import type { MediaForRender, PublishSources } from "../publish/contract.ts";
import { fileUrl, variantsOf } from "./addresses.ts";
import { parseTexts } from "./texts.ts";

/** A ref that reads as an id: digits without a leading zero, within the id column's range. */
function idOf(ref: string): number | undefined {
  if (!/^[1-9]\d{0,9}$/.test(ref)) return undefined;
  const id = Number(ref);
  return id <= 2_147_483_647 ? id : undefined;
}

export const mediaPublishSource: PublishSources["media"] = {
  async byRefs(db, siteId, refs) {
    const found = new Map<string, MediaForRender>();
    const ids = [...new Set(refs.map(idOf).filter((id) => id !== undefined))];
    const slugs = [...new Set(refs)];
    if (slugs.length === 0) return found;
    const rows = await db
      .selectFrom("media")
      .select(["id", "slug", "filename", "mime", "sha256", "width", "height", "alt_json"])
      .where("site_id", "=", siteId)
      .where((eb) => (ids.length > 0 ? eb.or([eb("id", "in", ids), eb("slug", "in", slugs)]) : eb("slug", "in", slugs)))
      .execute();
    const byId = new Map<number, MediaForRender>();
    const bySlug = new Map<string, MediaForRender>();
    for (const row of rows) {
      const file: MediaForRender = {
        id: row.id,
        slug: row.slug,
        url: fileUrl(row),
        mime: row.mime,
        alt: parseTexts(row.alt_json),
        width: row.width,
        height: row.height,
        variants: variantsOf(row).map(({ url, width }) => ({ url, width })),
      };
      byId.set(row.id, file);
      bySlug.set(row.slug, file);
    }
    // An id wins over a slug that reads as the same digits.
    for (const ref of refs) {
      const id = idOf(ref);
      const file = (id !== undefined ? byId.get(id) : undefined) ?? bySlug.get(ref);
      if (file) found.set(ref, file);
    }
    return found;
  },
};
