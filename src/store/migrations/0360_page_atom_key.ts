// Atom ids that move with a page (docs/seo.md "Feeds", docs/bundles.md "Round trip"): a feed's
// and its entries' ids are tag URIs made of the site's domain, the page's creation date and its
// id. `pages.atom_key` holds those three (`<domain>,<YYYY-MM-DD>:<id>`) for a page that came from
// another instance, whose ids are its own: an imported page keeps the key it had there, so feed
// readers see the same entries. Null, every page before and every page made here, is the key
// made of the page as it is.
import type { Build } from "./build.ts";

export const up: Build = async (db) => {
  await db.schema.alterTable("pages").addColumn("atom_key", "text").execute();
};
