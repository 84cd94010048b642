// Schemes of domains (docs/domains.md, "Schemes"): `site_domains.https` is 1 for a domain served
// over HTTPS, 0 for one served over plain HTTP, null (every domain before) for one that follows
// SVC_PUBLIC_SCHEME; `sites.https` is the primary domain's, copied as `sites.domain` is and written
// in the same transaction (network/ owns both). `sites.printed_origin` is the origin
// (`<scheme>://<domain>[:port]`) the site's kept output was printed with: a start that would print
// another (SVC_PUBLIC_SCHEME or SVC_PUBLIC_PORT changed) republishes the site first
// (network/printed-origins.ts). Null, every site before, is such an origin: the first start
// republishes every site once.
import type { Build } from "./build.ts";

export const up: Build = async (db) => {
  await db.schema.alterTable("site_domains").addColumn("https", "integer").execute();
  await db.schema.alterTable("sites").addColumn("https", "integer").execute();
  await db.schema.alterTable("sites").addColumn("printed_origin", "text").execute();
};
