// The Frames screen (docs/admin.md): every frame of the site, each a link named by its slug, with
// the pages on it and the frames that embed it.
import { useEffect, useState } from "preact/hooks";
import { unwrap } from "../../src/client/index.ts";
import { alertOf, shownOf, type Shown } from "../errors.tsx";
import { hrefOf, onLink } from "../route.ts";
import { ScreenHeading } from "../screen-heading.tsx";
import type { Session } from "../session.ts";
import type { Texts } from "../texts.ts";

interface ListedFrame {
  slug: string;
  bytes: number;
  pages?: number[];
  updated_at_gmt: string;
}

export function FrameList(props: { texts: Texts; session: Session; siteId: number }) {
  const { texts, session, siteId } = props;
  const [frames, setFrames] = useState<ListedFrame[] | null>(null);
  const [error, setError] = useState<Shown | null>(null);

  useEffect(() => {
    setFrames(null);
    setError(null);
    unwrap(session.client.forSite(siteId).GET("/frames", { params: { query: { per_page: 500 } } }))
      .then((answer) => setFrames(answer.frames))
      .catch((failure) => setError(shownOf(failure, texts)));
  }, [siteId]);

  const open = (slug: string) => ({ siteId, screen: "frames" as const, item: slug });
  return (
    <>
      <ScreenHeading>{texts.frames}</ScreenHeading>
      <p role="alert">{alertOf(error, [])}</p>
      {frames === null ? (
        error === null && <p>{texts.loading}</p>
      ) : frames.length === 0 ? (
        <p>{texts.noFrames}</p>
      ) : (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">{texts.slug}</th>
              <th scope="col">{texts.pagesOnFrame}</th>
              <th scope="col">{texts.updated}</th>
            </tr>
          </thead>
          <tbody>
            {frames.map((frame) => (
              <tr key={frame.slug}>
                <td>
                  <a href={hrefOf(open(frame.slug))} onClick={onLink(open(frame.slug))}>
                    {frame.slug}
                  </a>
                </td>
                <td>{frame.pages?.length ?? 0}</td>
                <td>{frame.updated_at_gmt}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
