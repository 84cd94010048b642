// How a bundle names a page: by its reference, its path after its language's prefix unless it is
// the default language's (`/about`, `/de/ueber-uns`), as menu and sidebar items and settings
// name pages in a request (docs/menus.md). Ids are the instance's own; references move with
// the site. Trashed pages have no name here (a bundle leaves them out).
import type { Db } from "../store/database.ts";
import { langPathPrefix, languageState, type LanguageState } from "../site/languages.ts";

export interface NamedPage {
  id: number;
  lang: string | null;
  path: string;
  title: string;
}

export interface PageNames {
  state: LanguageState;
  byId: Map<number, NamedPage>;
  byRef: Map<string, NamedPage>;
  /** A page's reference. */
  refOf(page: Pick<NamedPage, "lang" | "path">): string;
}

export async function pageNames(db: Db, siteId: number): Promise<PageNames> {
  const [state, rows] = await Promise.all([
    languageState(db, siteId),
    db
      .selectFrom("pages")
      .select(["id", "lang", "path", "title"])
      .where("site_id", "=", siteId)
      .where("status", "!=", "trash")
      .execute(),
  ]);
  const refOf = (page: Pick<NamedPage, "lang" | "path">) => `${langPathPrefix(state, page.lang)}${page.path}`;
  const byId = new Map<number, NamedPage>();
  const byRef = new Map<string, NamedPage>();
  for (const row of rows) {
    const page = { id: Number(row.id), lang: row.lang === "" ? null : row.lang, path: row.path, title: row.title };
    byId.set(page.id, page);
    byRef.set(refOf(page), page);
  }
  return { state, byId, byRef, refOf };
}

/** The reference of the page `id`, else the id itself (a page the bundle cannot name). */
export function refOrId(names: PageNames, id: number): string | number {
  const page = names.byId.get(id);
  return page ? names.refOf(page) : id;
}
