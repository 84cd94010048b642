// Looking rows up by their ids within one site. With both `site_id = ?` and `id in (…)`, SQLite's
// planner (without statistics: nothing runs ANALYZE) prefers the `site_id` index and reads every
// row of the site; the unary plus keeps `site_id` out of index choice, so the lookup goes by
// primary key and costs the ids asked for, not the size of the site (bench/README.md, Scale).
// PostgreSQL reads `+site_id` as the column itself.
import { sql } from "kysely";

/** `site_id` as a value to compare, not an index to use: `.where(siteIdValue, "=", siteId)`. */
export const siteIdValue = sql<number>`+site_id`;
