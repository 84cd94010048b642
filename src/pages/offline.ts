// "A write says what it takes offline" (docs/publishing.md): the public addresses a write makes
// stop answering, each as a warning `pages_offline` with the page and the address it answered at.
// A page answers when it is published, every ancestor is published and it stands on a frame.
import type { PublicFront } from "../config.ts";
import { languageHomeUrl, pageUrl, siteAddressing, type SiteAddressing } from "../site/addresses.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Db } from "../store/database.ts";
import { withAncestors } from "./queries.ts";
import { lookupPage } from "./refs.ts";
import { PageTree } from "./tree.ts";
import { warning, type Warning } from "../warnings.ts";
import type { PageLite } from "./queries.ts";

/** One page that stops answering at `url`; `because` says which write did it. */
export function offlineWarning(page: Pick<PageLite, "id" | "title">, url: string, because: string): Warning {
  return warning("pages_offline", `"${page.title}" (page ${page.id}) stops answering at ${url}: ${because}.`, {
    page: page.id,
    url,
    because,
  });
}

/** Answers publicly: published, every ancestor published, on a frame. */
function answers(tree: PageTree, id: number): boolean {
  const row = tree.get(id);
  return row !== undefined && row.frame_id !== null && tree.visible(id);
}

/** Pages that answered before the write and do not after it, with the addresses they answered at. */
export function offlineBetween(
  addressing: SiteAddressing,
  before: PageTree,
  after: PageTree,
  because: string,
  within?: ReadonlySet<number>,
): Warning[] {
  return [...before.all()]
    .filter((row) => (!within || within.has(row.id)) && answers(before, row.id) && !answers(after, row.id))
    .sort((a, b) => a.id - b.id)
    .map((row) => offlineWarning(row, pageUrl(addressing, row.lang, row.path), because));
}

/** Of the pages `ids` (about to lose their frame or their language), those that answer now. */
export function offlineOf(
  addressing: SiteAddressing,
  tree: PageTree,
  ids: Iterable<number>,
  because: string,
): Warning[] {
  return [...ids]
    .filter((id) => answers(tree, id))
    .sort((a, b) => a - b)
    .map((id) => tree.get(id)!)
    .map((row) => offlineWarning(row, pageUrl(addressing, row.lang, row.path), because));
}

/** Of the pages `ids`, those answering now, read from the site as it stands. */
export async function offlineNow(
  db: Db,
  site: SiteRow,
  publicFront: PublicFront,
  ids: Iterable<number>,
  because: string,
): Promise<Warning[]> {
  const list = [...ids];
  const [addressing, rows] = await Promise.all([
    siteAddressing(db, site, publicFront),
    withAncestors(db, site.id, list),
  ]);
  return offlineOf(addressing, new PageTree(rows), list, because);
}

/** The page the home_page setting named leaves `/` (its language's home) when the setting moves to another page or is cleared. */
export async function homeLeaves(
  db: Db,
  site: SiteRow,
  publicFront: PublicFront,
  before: unknown,
  newHome: number | null,
): Promise<Warning[]> {
  if (before === null || before === undefined) return [];
  const found = await lookupPage(db, site.id, before);
  if (!("found" in found) || found.found.id === newHome) return [];
  const old = found.found;
  const [addressing, rows] = await Promise.all([
    siteAddressing(db, site, publicFront),
    withAncestors(db, site.id, [old.id]),
  ]);
  if (!answers(new PageTree(rows), old.id)) return [];
  return [
    offlineWarning(
      old,
      languageHomeUrl(addressing, old.lang || addressing.langs.defaultLang),
      "the home_page setting no longer names it",
    ),
  ];
}
