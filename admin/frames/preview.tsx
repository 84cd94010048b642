// The frame editor's live preview (docs/admin.md): a page rendered by the service with the unsaved
// markup (POST /preview, which writes nothing), shown in an iframe through `srcdoc`. The iframe is
// sandboxed with no permission at all, allow-same-origin above all: the author's markup gets an
// opaque origin, so whatever it holds never runs with the admin's origin, its session cookie or
// its CSRF token. (The document also keeps the admin's Content-Security-Policy, which `srcdoc`
// inherits.)
import { useEffect, useState } from "preact/hooks";
import { unwrap } from "../../src/client/index.ts";
import { shownOf, type Shown } from "../errors.tsx";
import type { Session } from "../session.ts";
import type { Texts } from "../texts.ts";
import type { PageOnFrame } from "./reach.ts";

export function FramePreview(props: {
  texts: Texts;
  session: Session;
  siteId: number;
  slug: string;
  /** The markup to show, already debounced; null until the frame's is known. */
  markup: string | null;
  /** The pages the frame reaches; when it reaches none, any page of the site, shown on this frame. */
  reached: readonly PageOnFrame[];
  others: readonly PageOnFrame[];
}) {
  const { texts, session, siteId, slug, markup } = props;
  const choices = props.reached.length > 0 ? props.reached : props.others;
  const [pageId, setPageId] = useState<number | null>(null);
  const [html, setHtml] = useState("");
  const [error, setError] = useState<Shown | null>(null);
  const shown = choices.find((page) => page.id === pageId) ?? choices[0] ?? null;
  const onFrame = props.reached.some((page) => page.id === shown?.id);

  useEffect(() => {
    if (shown === null || markup === null) return;
    let stale = false;
    const body = {
      page: shown.id,
      frames: { [slug]: markup },
      // A page on no frame that reaches this one is shown on it.
      ...(onFrame ? {} : { page_fields: { frame: slug } }),
    };
    unwrap(session.client.forSite(siteId).POST("/preview", { body }))
      .then((answer) => {
        if (stale) return;
        setHtml(answer.html);
        setError(null);
      })
      .catch((failure) => {
        if (!stale) setError(shownOf(failure, texts));
      });
    return () => {
      stale = true;
    };
  }, [siteId, slug, markup, shown?.id, onFrame]);

  return (
    <section class="preview" aria-labelledby="frame-preview-heading">
      <h2 id="frame-preview-heading">{texts.preview}</h2>
      {shown === null ? (
        <p>{texts.noPageToPreview}</p>
      ) : (
        <>
          <label htmlFor="frame-preview-page">{texts.previewPage}</label>
          <select
            id="frame-preview-page"
            value={String(shown.id)}
            onChange={(event) => setPageId(Number(event.currentTarget.value))}
          >
            {choices.map((page) => (
              <option key={page.id} value={String(page.id)}>
                {page.lang ? `${page.title} (${page.lang})` : page.title}
              </option>
            ))}
          </select>
          <p class="error" role="alert">
            {error?.message ?? ""}
          </p>
          <iframe title={texts.preview} sandbox="" srcdoc={html} />
        </>
      )}
    </section>
  );
}
