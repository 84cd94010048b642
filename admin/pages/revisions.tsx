// A page's revisions, newest first: each in its own row as "Revision N" with Restore, which writes
// that state as the page's next revision at once (docs/revisions.md: never a rewind).
import { useEffect, useState } from "preact/hooks";
import { unwrap } from "../../src/client/index.ts";
import { shownOf, type Shown } from "../errors.tsx";
import type { Session } from "../session.ts";
import type { Texts } from "../texts.ts";
import type { EditedPage } from "./page-form.ts";

interface RevisionRow {
  revision: number;
  created_at_gmt: string;
  summary: string[];
}

export function PageRevisions(props: {
  texts: Texts;
  session: Session;
  siteId: number;
  page: EditedPage;
  onRestored: () => Promise<void>;
}) {
  const { texts, page } = props;
  const site = props.session.client.forSite(props.siteId);
  const ref = String(page.id);
  const [rows, setRows] = useState<RevisionRow[] | null>(null);
  const [error, setError] = useState<Shown | null>(null);
  const [notice, setNotice] = useState("");

  const load = () =>
    unwrap(site.GET("/pages/{ref}/revisions", { params: { path: { ref }, query: { per_page: 100 } } }))
      .then((answer) => setRows(answer.revisions))
      .catch((failure) => setError(shownOf(failure, texts)));
  // Read again whenever the page changes: each save is a revision.
  useEffect(() => void load(), [page]);

  const restore = async (n: number) => {
    setError(null);
    try {
      await unwrap(site.POST("/pages/{ref}/revisions/{n}/restore", { params: { path: { ref, n: String(n) } } }));
      await props.onRestored();
      setNotice(texts.restored(n));
    } catch (failure) {
      setError(shownOf(failure, texts));
    }
  };

  return (
    <section aria-labelledby="revisions-heading">
      <h2 id="revisions-heading">{texts.revisions}</h2>
      <p role="alert" class="error">
        {error?.message ?? ""}
      </p>
      <p role="status">{notice}</p>
      {rows === null ? (
        <p>{texts.loading}</p>
      ) : (
        <ul class="revisions">
          {rows.map((row) => (
            <li key={row.revision}>
              <span>{texts.revision(row.revision)}</span> <span class="meta">{row.created_at_gmt}</span>{" "}
              <span class="meta">{row.summary.join(", ")}</span>{" "}
              <button
                type="button"
                aria-label={`${texts.restore} ${texts.revision(row.revision)}`}
                onClick={() => restore(row.revision)}
              >
                {texts.restore}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
