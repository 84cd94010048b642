// Preview links (docs/preview.md): an address `/_preview/<token>` on a site's domain that shows one
// page as it currently stands, to people without an account, until it expires or is revoked. Only
// the token's SHA-256 is stored (as for API tokens); the page is named by id (its translation
// chosen when the link was made), so a link follows the page through renames and moves.
import type { Build } from "./build.ts";
import { idColumn } from "./build.ts";

export const up: Build = async (db, dialect) => {
  await db.schema
    .createTable("preview_links")
    .addColumn("id", idColumn(dialect).type, idColumn(dialect).build)
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("page_id", "integer", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_by", "integer", (c) => c.notNull())
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addColumn("expires_at_gmt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("preview_links_site")
    .on("preview_links")
    .columns(["site_id", "expires_at_gmt"])
    .execute();
};
