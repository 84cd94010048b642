// The slug or name an event names its object by (docs/events.md, `object.slug`): read once per
// kind for every object of the write that a table holds by id (frames, pages, menus, media), from
// the trash for one just deleted; a data set's, a stylesheet's and a sidebar's name is in its id.
import { sql } from "kysely";
import type { Db } from "../store/database.ts";
import type { Written, WrittenKind } from "./change.ts";

type Slugged = "frames" | "pages" | "menus" | "media";
const TABLES: Partial<Record<WrittenKind, Slugged>> = { frame: "frames", page: "pages", menu: "menus", media: "media" };
/** The trash's kind of each (revisions/trash.ts). */
const TRASHED: Partial<Record<WrittenKind, string>> = { frame: "frames", page: "pages", menu: "menus" };

const key = (written: Written) => `${written.kind}:${written.id}`;

/** A name kept in the id itself: `name:lang` of a data set, `theme:name` of a stylesheet, a sidebar's name. */
function fromId(written: Written): string | null {
  if (written.kind === "dataset") return written.id.split(":")[0]!;
  if (written.kind === "style") return written.id.slice(written.id.indexOf(":") + 1);
  if (written.kind === "sidebar" || written.kind === "form") return written.id;
  return null;
}

/** Every written object's slug, by `kind:id` (absent: it has none). */
export async function slugsOf(trx: Db, siteId: number | null, wrote: readonly Written[]): Promise<Map<string, string>> {
  const slugs = new Map<string, string>();
  const byTable = new Map<Slugged, Written[]>();
  for (const written of wrote) {
    if (written.slug) slugs.set(key(written), written.slug);
    else if (fromId(written) !== null) slugs.set(key(written), fromId(written)!);
    else {
      const table = TABLES[written.kind];
      if (table && siteId !== null) byTable.set(table, [...(byTable.get(table) ?? []), written]);
    }
  }
  for (const [table, written] of byTable) {
    const ids = written.map((one) => one.id);
    const rows = await trx
      .selectFrom(table)
      .select([sql<string>`cast(id as text)`.as("id"), "slug"])
      .where("site_id", "=", siteId!)
      .where(sql<string>`cast(id as text)`, "in", ids)
      .execute();
    for (const row of rows) slugs.set(`${written[0]!.kind}:${row.id}`, row.slug);
    const gone = written.filter((one) => !slugs.has(key(one)) && TRASHED[one.kind]);
    if (gone.length === 0) continue;
    const trashed = await trx
      .selectFrom("trash")
      .select(["object_id", "slug"])
      .where("site_id", "=", siteId!)
      .where("kind", "=", TRASHED[gone[0]!.kind]!)
      .where(
        "object_id",
        "in",
        gone.map((one) => one.id),
      )
      .execute();
    for (const row of trashed) slugs.set(`${gone[0]!.kind}:${row.object_id}`, row.slug);
  }
  return slugs;
}
