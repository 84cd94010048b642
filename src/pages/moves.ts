// Pages whose public address a write changed (docs/seo.md, "Redirects"): the old address answers
// 301 to the new one (redirects/), and an address a page now answers at is released from any
// redirect standing there. Found, like the changes a write announces, by comparing the page tree
// before and after the write inside its transaction: a slug, a parent (descendants too), a language
// or a default language changed. Only pages visible before and after move; a page that starts
// answering at an address (created, published, moved there) takes it over from a redirect.
import type { Change, Written } from "../write/change.ts";
import { recordMoves, RedirectWrites, releaseAddresses, type Move } from "../redirects/redirects.ts";
import { pageAddress, type SiteAddressing } from "../site/addresses.ts";
import type { Db } from "../store/database.ts";
import { languageState, type LanguageState } from "../site/languages.ts";
import { liteRowsOf, type PageLite } from "./queries.ts";
import { PageTree } from "./tree.ts";

/** What recording moves did: the change to announce (none, or the addresses whose answer changed) and the redirects it wrote. */
export interface AddressChanges {
  changes: Change[];
  /** Each redirect made, changed or removed, named by its address (one event each: docs/events.md). */
  wrote: Written[];
}

const NO_MOVES: AddressChanges = { changes: [], wrote: [] };

/**
 * Records the moves between two trees (`within`: the pages a region holds) and answers what it
 * changed. `addressingAfter` differs from `addressingBefore` when the default language changed
 * (prefixes moved).
 */
export async function recordAddressChanges(
  trx: Db,
  siteId: number,
  now: string,
  trees: { before: PageTree; after: PageTree; within?: ReadonlySet<number> },
  addressingBefore: Pick<SiteAddressing, "langs">,
  addressingAfter: Pick<SiteAddressing, "langs"> = addressingBefore,
): Promise<AddressChanges> {
  const { before, after, within } = trees;
  const moves: Move[] = [];
  const taken: string[] = [];
  const ids = within ?? new Set([...before.all(), ...after.all()].map((row) => row.id));
  for (const id of ids) {
    const row = after.get(id);
    if (!row || !after.visible(id)) continue;
    const address = pageAddress(addressingAfter, row.lang, row.path);
    const was = before.get(id);
    const wasAt = was && before.visible(id) ? pageAddress(addressingBefore, was.lang, was.path) : null;
    if (wasAt === address) continue;
    if (wasAt !== null) moves.push({ from: wasAt, to: address });
    else taken.push(address);
  }
  if (moves.length === 0 && taken.length === 0) return NO_MOVES;
  const writes = new RedirectWrites();
  const addresses = [
    ...(await recordMoves(trx, siteId, moves, now, writes)),
    ...(await releaseAddresses(trx, siteId, taken, writes)),
  ];
  return {
    changes: addresses.length === 0 ? [] : [{ kind: "redirects", addresses: [...new Set(addresses)] }],
    wrote: writes.list().map(({ address, action }): Written => ({ kind: "redirect", id: address, action })),
  };
}

/**
 * The default language moved (a setting, a language added as default, the default removed): the
 * pages of the old default gain its prefix and those of the new one lose theirs. `before` is the
 * language state before the write, read again after it inside `trx`.
 */
export async function recordLanguageMoves(
  trx: Db,
  siteId: number,
  now: string,
  before: LanguageState,
): Promise<AddressChanges> {
  const after = await languageState(trx, siteId);
  if (after.defaultLang === before.defaultLang && after.active === before.active) return NO_MOVES;
  const tree = new PageTree(await liteRowsOf(trx, siteId));
  return recordAddressChanges(trx, siteId, now, { before: tree, after: tree }, { langs: before }, { langs: after });
}

/** The addresses pages answer at by their own paths (the home page's family: pages/home.ts homeFamily). */
export async function ownAddresses(
  db: Db,
  siteId: number,
  pages: ReadonlyArray<Pick<PageLite, "lang" | "path">>,
): Promise<string[]> {
  if (pages.length === 0) return [];
  const addressing = { langs: await languageState(db, siteId) };
  return [...new Set(pages.map((row) => pageAddress(addressing, row.lang, row.path)))];
}
