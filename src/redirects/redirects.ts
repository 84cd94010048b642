// Redirects of a site (docs/seo.md): addresses that answer 301 (302, 307, 308) to
// another. Made by hand (`POST /seo/redirects`, the seo feature) or when a page's address changes
// (the pages and settings features record the move in their write's transaction). Not a feature:
// like quotas/, it sits below the features that write through it, and owns its one table.
//
// The rules kept here, so every writer keeps them:
// - one record per address (`from`, canonical: lower case, with its language prefix, ending `/`;
//   a redirect of one query string has `?` and the query after it, addresses.ts);
// - chains are collapsed: a move from A to B makes every record pointing at A point at B, so the
//   first address of a page always goes straight to its newest;
// - no record points at itself, and no record stands at an address a live page took: a page moved
//   back to an old address, or created or published there, removes the record (`released`).
import type { Db } from "../store/database.ts";

export const REDIRECT_STATUSES = [301, 302, 307, 308] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];

export interface RedirectRecord {
  id: number;
  from: string;
  to: string;
  status: number;
  /** Made because a page's address changed. */
  auto: boolean;
  created_at_gmt: string;
}

/** A page's address before and after a write (canonical site paths, with language prefix). */
export interface Move {
  from: string;
  to: string;
}

/** What a write did to the redirect at an address (its event: docs/events.md). */
export type RedirectAction = "created" | "updated" | "deleted";

/**
 * The redirects one write changed, by address, each with what it came to over the whole write:
 * one made and removed again is nothing, one removed and made again was updated.
 */
export class RedirectWrites {
  private readonly byAddress = new Map<string, RedirectAction>();

  note(address: string, action: RedirectAction): void {
    const was = this.byAddress.get(address);
    if (was === "created" && action === "deleted") this.byAddress.delete(address);
    else if (was === "created") return;
    else if (was === "deleted" && action === "created") this.byAddress.set(address, "updated");
    else this.byAddress.set(address, action);
  }

  list(): Array<{ address: string; action: RedirectAction }> {
    return [...this.byAddress].map(([address, action]) => ({ address, action }));
  }
}

type Row = { id: number; from_path: string; to_target: string; status: number; auto: number; created_at_gmt: string };

function recordOf(row: Row): RedirectRecord {
  return {
    id: row.id,
    from: row.from_path,
    to: row.to_target,
    status: row.status,
    auto: row.auto === 1,
    created_at_gmt: row.created_at_gmt,
  };
}

const COLUMNS = ["id", "from_path", "to_target", "status", "auto", "created_at_gmt"] as const;

/** The redirect answering at this canonical address, if any. */
export async function redirectAt(
  db: Db,
  siteId: number,
  address: string,
): Promise<{ to: string; status: number } | undefined> {
  const row = await db
    .selectFrom("redirects")
    .select(["to_target", "status"])
    .where("site_id", "=", siteId)
    .where("from_path", "=", address)
    .executeTakeFirst();
  return row && { to: row.to_target, status: row.status };
}

/** The addresses of the site's redirects of one query string (`/?page_id=12`), at most `limit`: the public site asks them first. */
export async function queryRedirectAddresses(db: Db, siteId: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom("redirects")
    .select("from_path")
    .where("site_id", "=", siteId)
    .where("from_path", "like", "%?%")
    .limit(limit)
    .execute();
  return rows.map((row) => row.from_path);
}

/** Every redirect of the site, by address. */
export async function listRedirects(db: Db, siteId: number): Promise<RedirectRecord[]> {
  const rows = await db
    .selectFrom("redirects")
    .select(COLUMNS)
    .where("site_id", "=", siteId)
    .orderBy("from_path")
    .orderBy("id")
    .execute();
  return rows.map(recordOf);
}

/** The redirects standing at these addresses (those of them that have one), by address. */
export async function redirectsAt(db: Db, siteId: number, addresses: readonly string[]): Promise<RedirectRecord[]> {
  const out: RedirectRecord[] = [];
  // In slices: a list posted at once names up to 1,000 addresses.
  for (let i = 0; i < addresses.length; i += 500) {
    const rows = await db
      .selectFrom("redirects")
      .select(COLUMNS)
      .where("site_id", "=", siteId)
      .where("from_path", "in", addresses.slice(i, i + 500))
      .execute();
    out.push(...rows.map(recordOf));
  }
  return out;
}

export async function redirectById(db: Db, siteId: number, id: number): Promise<RedirectRecord | undefined> {
  const row = await db
    .selectFrom("redirects")
    .select(COLUMNS)
    .where("site_id", "=", siteId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row && recordOf(row);
}

/** Writes the redirect at `from` (replacing one standing there); answers it and whether it replaced one. */
async function upsert(
  trx: Db,
  siteId: number,
  from: string,
  to: string,
  status: number,
  auto: boolean,
  now: string,
  writes?: RedirectWrites,
): Promise<{ record: RedirectRecord; replaced: boolean }> {
  const before = await trx
    .selectFrom("redirects")
    .select("id")
    .where("site_id", "=", siteId)
    .where("from_path", "=", from)
    .executeTakeFirst();
  const values = { to_target: to, status, auto: auto ? 1 : 0, created_at_gmt: now };
  writes?.note(from, before ? "updated" : "created");
  if (before) {
    await trx.updateTable("redirects").set(values).where("id", "=", before.id).execute();
    return { record: { id: before.id, from, to, status, auto, created_at_gmt: now }, replaced: true };
  }
  const row = await trx
    .insertInto("redirects")
    .values({ site_id: siteId, from_path: from, ...values })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return { record: recordOf(row), replaced: false };
}

/**
 * A redirect made by hand. A site path as `to` is collapsed like a page's move: if a redirect
 * stands at `to`, this one points where that one does (never at itself). `writes`: shared by the
 * redirects of one write (a list posted at once), so each address's event is what it came to.
 */
export async function addRedirect(
  trx: Db,
  siteId: number,
  input: { from: string; to: string; status: RedirectStatus },
  now: string,
  writes = new RedirectWrites(),
): Promise<{
  record: RedirectRecord;
  replaced: boolean;
  addresses: string[];
  writes: Array<{ address: string; action: RedirectAction }>;
}> {
  let to = input.to;
  if (to.startsWith("/")) {
    const next = await redirectAt(trx, siteId, to);
    if (next && next.to !== input.from) to = next.to;
  }
  const written = await upsert(trx, siteId, input.from, to, input.status, false, now, writes);
  // Records that pointed at `from` now go one step further, to `to`.
  const collapsed = await collapse(trx, siteId, input.from, to, writes);
  return { ...written, addresses: [input.from, ...collapsed], writes: writes.list() };
}

export async function deleteRedirect(trx: Db, siteId: number, id: number): Promise<RedirectRecord | undefined> {
  const found = await redirectById(trx, siteId, id);
  if (found) await trx.deleteFrom("redirects").where("site_id", "=", siteId).where("id", "=", id).execute();
  return found;
}

/**
 * Records pointing at `from` point at `to` instead; one that would point at itself goes. Answers
 * the addresses of the records it changed: what they answer changed too.
 */
async function collapse(trx: Db, siteId: number, from: string, to: string, writes?: RedirectWrites): Promise<string[]> {
  const pointing = await trx
    .selectFrom("redirects")
    .select("from_path")
    .where("site_id", "=", siteId)
    .where("to_target", "=", from)
    .execute();
  if (pointing.length === 0) return [];
  for (const row of pointing) writes?.note(row.from_path, row.from_path === to ? "deleted" : "updated");
  await trx
    .deleteFrom("redirects")
    .where("site_id", "=", siteId)
    .where("to_target", "=", from)
    .where("from_path", "=", to)
    .execute();
  await trx
    .updateTable("redirects")
    .set({ to_target: to })
    .where("site_id", "=", siteId)
    .where("to_target", "=", from)
    .execute();
  return pointing.map((row) => row.from_path);
}

/**
 * Pages moved: each old address answers 301 to the new one, chains are collapsed, and records
 * standing at an address a page now takes go (`released`, called with the new addresses).
 * Answers the addresses whose answer changed (the old ones, those whose records now point
 * further, and those released); `writes` notes what each redirect came to.
 */
export async function recordMoves(
  trx: Db,
  siteId: number,
  moves: readonly Move[],
  now: string,
  writes?: RedirectWrites,
): Promise<string[]> {
  const real = moves.filter((move) => move.from !== move.to);
  const changed: string[] = [];
  for (const move of real) {
    changed.push(move.from, ...(await collapse(trx, siteId, move.from, move.to, writes)));
    await upsert(trx, siteId, move.from, move.to, 301, true, now, writes);
  }
  const released = await releaseAddresses(
    trx,
    siteId,
    real.map((move) => move.to),
    writes,
  );
  return [...new Set([...changed, ...released])];
}

/**
 * Live pages stand at these addresses now: a redirect never shadows a live page, so the records
 * standing there go. Answers the addresses that had one.
 */
export async function releaseAddresses(
  trx: Db,
  siteId: number,
  addresses: readonly string[],
  writes?: RedirectWrites,
): Promise<string[]> {
  if (addresses.length === 0) return [];
  const released: string[] = [];
  // In slices: a move of a large section names many addresses.
  for (let i = 0; i < addresses.length; i += 500) {
    const slice = addresses.slice(i, i + 500);
    const gone = await trx
      .deleteFrom("redirects")
      .where("site_id", "=", siteId)
      .where("from_path", "in", slice)
      .returning("from_path")
      .execute();
    released.push(...gone.map((row) => row.from_path));
  }
  for (const address of released) writes?.note(address, "deleted");
  return released;
}
