// The History screen (docs/admin.md): the site's recent changes (GET /revisions), newest first,
// each with Compare (that revision beside the one before it, side by side) and Restore (a new
// revision with that state, through the kind's own call: a role that may not write the kind is
// told so by the service).
import { useEffect, useState } from "preact/hooks";
import { unwrap } from "../../src/client/index.ts";
import { alertOf, shownOf, type Shown } from "../errors.tsx";
import { ScreenHeading } from "../screen-heading.tsx";
import type { Session } from "../session.ts";
import { siteCall, under } from "../site-call.ts";
import type { Texts } from "../texts.ts";
import { SideBySide } from "./side-by-side.tsx";

interface Change {
  kind: string;
  id: string;
  address: string;
  revision: number;
  created_at_gmt: string;
  created_by: number | null;
  summary: string[];
}

interface Compared {
  change: Change;
  before: string;
  after: string;
}

export function HistoryScreen(props: { texts: Texts; session: Session; siteId: number }) {
  const { texts, session, siteId } = props;
  const [changes, setChanges] = useState<Change[] | null>(null);
  const [compared, setCompared] = useState<Compared | null>(null);
  const [error, setError] = useState<Shown | null>(null);
  const [notice, setNotice] = useState("");

  const load = () =>
    unwrap(session.client.forSite(siteId).GET("/revisions", { params: { query: { per_page: 100 } } }))
      .then((answer) => setChanges(answer.changes))
      .catch((failure) => setError(shownOf(failure, texts)));
  useEffect(() => {
    setChanges(null);
    setCompared(null);
    void load();
  }, [siteId]);

  const contentOf = async (change: Change, n: number) =>
    n < 1
      ? ""
      : (
          await siteCall<{ revision: { content: string } }>(
            session,
            siteId,
            "GET",
            under(change.address, `/revisions/${n}`),
          )
        ).revision.content;

  const compare = async (change: Change) => {
    setError(null);
    try {
      const [before, after] = await Promise.all([
        contentOf(change, change.revision - 1),
        contentOf(change, change.revision),
      ]);
      setCompared({ change, before, after });
    } catch (failure) {
      setError(shownOf(failure, texts));
    }
  };
  const restore = async (change: Change) => {
    setError(null);
    setNotice("");
    try {
      await siteCall(session, siteId, "POST", under(change.address, `/revisions/${change.revision}/restore`));
      setNotice(texts.restored(change.revision));
      await load();
    } catch (failure) {
      setError(shownOf(failure, texts));
    }
  };

  const what = (change: Change) => `${texts.kindName(change.kind)} ${change.address.split("/").pop()}`;
  return (
    <>
      <ScreenHeading>{texts.history}</ScreenHeading>
      <p role="alert" class="error">
        {alertOf(error, [])}
      </p>
      <p role="status">{notice}</p>
      {changes === null ? (
        <p>{texts.loading}</p>
      ) : changes.length === 0 ? (
        <p>{texts.noChanges}</p>
      ) : (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">{texts.when}</th>
              <th scope="col">{texts.what}</th>
              <th scope="col">{texts.revisions}</th>
              <th scope="col">{texts.changedFields}</th>
              <th scope="col">
                <span class="visually-hidden">{texts.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {changes.map((change) => (
              <tr key={`${change.kind}:${change.id}:${change.revision}`}>
                <td>{change.created_at_gmt}</td>
                <td>{what(change)}</td>
                <td>{texts.revision(change.revision)}</td>
                <td>{change.summary.join(", ")}</td>
                <td class="row-actions">
                  <button type="button" class="small" onClick={() => compare(change)}>
                    {texts.compare}
                  </button>{" "}
                  <button
                    type="button"
                    class="small"
                    aria-label={`${texts.restore} ${what(change)} ${texts.revision(change.revision)}`}
                    onClick={() => restore(change)}
                  >
                    {texts.restore}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {compared && (
        <section aria-labelledby="compare-heading">
          <h2 id="compare-heading">{what(compared.change)}</h2>
          <SideBySide
            texts={texts}
            before={compared.before}
            after={compared.after}
            from={compared.change.revision - 1}
            to={compared.change.revision}
          />
        </section>
      )}
    </>
  );
}
