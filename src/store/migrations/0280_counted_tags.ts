// A page's tags weigh in `stored_bytes` as its title, content and fields do (quotas/bytes.ts,
// `pageBytes`). The sites that exist now get their pages' tags (`tags_json`, `[]` for most)
// counted here, once; from then on the page writes move the counter (src/quotas/usage.ts).
// Portable SQL; only the byte length of a text differs, as in 0140_counted_history.
import { sql } from "kysely";
import type { Build } from "./build.ts";

export const up: Build = async (db, dialect) => {
  const bytes = dialect === "postgres" ? sql`octet_length(p.tags_json)` : sql`length(cast(p.tags_json as blob))`;
  await sql`
    update site_usage set
      stored_bytes = stored_bytes
        + (select coalesce(sum(${bytes}), 0) from pages p where p.site_id = site_usage.site_id)
  `.execute(db);
};
