// Where a submission came from and where its visitor goes next (docs/forms.md, "Submitting"). The
// page is the one the time token names (signed when the page was served, so a visitor cannot name
// another); its language is the submission's. After a submission the visitor is sent to the form's
// `redirect`: a page (kept as its id) at its address in the submission's language — its
// translation in that language when it has one — or a path as written; without one, or when the
// page named is not public, back to the page the form was sent from with `?sent=1`.
import { withHomes } from "../pages/home.ts";
import { groupMembers, pageById, type PageRow } from "../pages/queries.ts";
import { linkUrl, type SiteAddressing } from "../site/addresses.ts";
import { languageState } from "../site/languages.ts";
import type { Db } from "../store/database.ts";

/** The page a form was sent from, as the submission keeps it. */
export interface SentFrom {
  pageId: number | null;
  lang: string | null;
  /** The page's public address on its site (`/de/kontakt/`); null when it is not public. */
  address: string | null;
}

export const NOWHERE: SentFrom = Object.freeze({ pageId: null, lang: null, address: null });

/** The site's addressing without an origin: links made with it are paths on the site's own host. */
async function pathAddressing(db: Db, siteId: number): Promise<SiteAddressing> {
  return withHomes(db, siteId, { origin: "", langs: await languageState(db, siteId) });
}

function publicAddress(addressing: SiteAddressing, page: PageRow): string | null {
  return page.status === "publish" ? linkUrl(addressing, page.lang || null, page.path) : null;
}

export async function sentFrom(db: Db, siteId: number, pageId: number | null): Promise<SentFrom> {
  const page = pageId === null ? undefined : await pageById(db, siteId, pageId);
  if (!page) return NOWHERE;
  return { pageId: page.id, lang: page.lang || null, address: publicAddress(await pathAddressing(db, siteId), page) };
}

/** The page of a reference kept as an id, in the submission's language when it has a public translation there. */
async function pageIn(db: Db, siteId: number, id: number, lang: string | null): Promise<PageRow | undefined> {
  const page = await pageById(db, siteId, id);
  if (!page || page.translation_group === null || lang === null || page.lang === lang) return page;
  const members = await groupMembers(db, siteId, [page.translation_group]);
  const translated = members.find((member) => member.lang === lang && member.status === "publish");
  return translated ? await pageById(db, siteId, translated.id) : page;
}

/** Where the visitor is sent after a submission (303 See Other). */
export async function redirectAfter(db: Db, siteId: number, redirect: string | null, from: SentFrom): Promise<string> {
  if (redirect?.startsWith("/")) return redirect;
  if (redirect !== null && /^[0-9]+$/.test(redirect)) {
    const page = await pageIn(db, siteId, Number(redirect), from.lang);
    const address = page ? publicAddress(await pathAddressing(db, siteId), page) : null;
    if (address !== null) return address;
  }
  return `${from.address ?? "/"}?sent=1`;
}
