// The Pages screen (docs/admin.md): every page of the site, trash included, each a link named by
// its title with its status (Published, Scheduled, Draft or Trash) and language in its row; New page.
import { useEffect, useState } from "preact/hooks";
import { unwrap } from "../../src/client/index.ts";
import { alertOf, shownOf, type Shown } from "../errors.tsx";
import { hrefOf, navigate, onLink } from "../route.ts";
import type { Session } from "../session.ts";
import type { Texts } from "../texts.ts";
import { ScreenHeading } from "../screen-heading.tsx";

type PageOf = { id: number; title: string; status: "publish" | "future" | "draft" | "trash"; lang: string | null };

const STATUS_NAMES = { publish: "published", future: "scheduled", draft: "draft", trash: "trash" } as const;

export function statusName(texts: Texts, status: PageOf["status"]): string {
  return texts[STATUS_NAMES[status]];
}

export function PageList(props: { texts: Texts; session: Session; siteId: number }) {
  const { texts, session, siteId } = props;
  const [pages, setPages] = useState<PageOf[] | null>(null);
  const [error, setError] = useState<Shown | null>(null);

  useEffect(() => {
    setPages(null);
    unwrap(session.client.forSite(siteId).GET("/pages", { params: { query: { status: "any", per_page: 500 } } }))
      .then((answer) => setPages(answer.pages))
      .catch((failure) => setError(shownOf(failure, texts)));
  }, [siteId]);

  const open = (item: string) => ({ siteId, screen: "pages" as const, item });
  return (
    <>
      <ScreenHeading>{texts.pages}</ScreenHeading>
      <p role="alert">{alertOf(error, [])}</p>
      <button type="button" onClick={() => navigate(open("new"))}>
        {texts.newPage}
      </button>
      {pages === null ? (
        <p>{texts.loading}</p>
      ) : pages.length === 0 ? (
        <p>{texts.noPages}</p>
      ) : (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">{texts.title_}</th>
              <th scope="col">{texts.status}</th>
              <th scope="col">{texts.language}</th>
            </tr>
          </thead>
          <tbody>
            {pages.map((page) => (
              <tr key={page.id}>
                <td>
                  <a href={hrefOf(open(String(page.id)))} onClick={onLink(open(String(page.id)))}>
                    {page.title}
                  </a>
                </td>
                <td>{statusName(texts, page.status)}</td>
                <td>{page.lang ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
