// A frame's editor (docs/admin.md): its markup in the HTML field (CodeMirror, with the analysis'
// warnings underlined), a live preview of a page on it with the unsaved markup, and Save, which
// writes at once. While the markup differs from the saved one, a dry run (PUT ?dry_run=1) checks
// it as the write would, and the pages the change would reach are listed beside Save; after Save,
// the pages it changed. For an editor (the role) everything shows read-only, with no Save.
import { useEffect, useState } from "preact/hooks";
import { unwrap } from "../../src/client/index.ts";
import { alertOf, shownOf, type Shown } from "../errors.tsx";
import { ScreenHeading } from "../screen-heading.tsx";
import { administers, type Session } from "../session.ts";
import type { Texts } from "../texts.ts";
import { CodeField } from "./code-field.tsx";
import type { PlacedWarning } from "./codemirror.ts";
import { useDebounced } from "./debounced.ts";
import { FramePreview } from "./preview.tsx";
import { type FrameLinks, type PageOnFrame, pagesReached } from "./reach.ts";
import { type AnyWarning, placedOf, WarningList } from "./warnings.tsx";

/** How long typing pauses before the dry run and the preview run. */
const SETTLE_MS = 500;

/** The frame as opened: the field starts from its markup (another frame opened starts it again). */
interface Opened {
  slug: string;
  html: string;
}

/** The markup in the field, with the frame it belongs to (a settled one of the last frame is not used). */
interface Draft {
  slug: string;
  markup: string;
}

export function FrameEditor(props: { texts: Texts; session: Session; siteId: number; item: string }) {
  const { texts, session, siteId, item } = props;
  const site = session.client.forSite(siteId);
  const readOnly = !administers(session, siteId);
  const [frame, setFrame] = useState<Opened | null>(null);
  const [saved, setSaved] = useState("");
  const [draft, setDraft] = useState<Draft | null>(null);
  const [frames, setFrames] = useState<FrameLinks[]>([]);
  const [pages, setPages] = useState<PageOnFrame[]>([]);
  const [warnings, setWarnings] = useState<AnyWarning[]>([]);
  const [checked, setChecked] = useState<Shown | null>(null);
  const [error, setError] = useState<Shown | null>(null);
  const [changed, setChanged] = useState<number[] | null>(null);
  const [busy, setBusy] = useState(false);
  const late = useDebounced(draft, SETTLE_MS);
  const settled = late !== null && late.slug === frame?.slug ? late.markup : null;

  useEffect(() => {
    setFrame(null);
    setError(null);
    setChanged(null);
    setWarnings([]);
    Promise.all([
      unwrap(site.GET("/frames/{ref}", { params: { path: { ref: item } } })),
      unwrap(site.GET("/frames", { params: { query: { per_page: 500 } } })),
      unwrap(site.GET("/pages", { params: { query: { status: "any", per_page: 500 } } })),
    ])
      .then(([one, all, listed]) => {
        const html = one.frame.html ?? "";
        setFrame({ slug: one.frame.slug, html });
        setSaved(html);
        setDraft({ slug: one.frame.slug, markup: html });
        setFrames(all.frames);
        setPages(listed.pages);
      })
      .catch((failure) => setError(shownOf(failure, texts)));
  }, [siteId, item]);

  // The dry run: the markup checked as Save would check it, nothing written (administrators only:
  // an editor may not write frames, not even on trial).
  useEffect(() => {
    if (frame === null || settled === null || readOnly) return;
    let stale = false;
    const ref = frame.slug;
    unwrap(site.PUT("/frames/{ref}", { params: { path: { ref }, query: { dry_run: "1" } }, body: { html: settled } }))
      .then((answer) => {
        if (stale) return;
        setWarnings(answer.warnings);
        setChecked(null);
      })
      .catch((failure) => {
        if (!stale) setChecked(shownOf(failure, texts));
      });
    return () => {
      stale = true;
    };
  }, [frame?.slug, settled]);

  const save = async () => {
    if (frame === null || draft === null) return;
    const markup = draft.markup;
    setBusy(true);
    setError(null);
    setChanged(null);
    try {
      const body = { html: markup };
      const answer = await unwrap(site.PUT("/frames/{ref}", { params: { path: { ref: frame.slug } }, body }));
      setWarnings(answer.warnings);
      setChanged(answer.rebaked?.pages ?? []);
      setSaved(markup);
    } catch (failure) {
      setError(shownOf(failure, texts));
    } finally {
      setBusy(false);
    }
  };

  if (frame === null)
    return (
      <>
        <ScreenHeading>{texts.frames}</ScreenHeading>
        <p role="alert">{alertOf(error, [])}</p>
        {error === null && <p>{texts.loading}</p>}
      </>
    );
  const reached = pagesReached(frame.slug, frames, pages);
  const titleOf = (id: number) => pages.find((page) => page.id === id)?.title ?? `#${id}`;
  const unsaved = draft !== null && draft.markup !== saved;
  const placed: PlacedWarning[] = placedOf(warnings);
  const done = changed !== null && !unsaved;
  return (
    <>
      <ScreenHeading>
        {texts.frames}: {frame.slug}
      </ScreenHeading>
      {readOnly && <p>{texts.readOnlyFrame}</p>}
      <p role="alert" class="error">
        {alertOf(error ?? checked, [])}
      </p>
      <div class="frame-editor">
        <div class="frame-code">
          <span id="frame-html-label" class="label">
            {texts.html}
          </span>
          <CodeField
            texts={texts}
            initial={frame.html}
            labelId="frame-html-label"
            describedBy="frame-warnings"
            readOnly={readOnly}
            warnings={placed}
            onChange={(markup) => setDraft({ slug: frame.slug, markup })}
          />
          <WarningList texts={texts} id="frame-warnings" warnings={warnings} />
          {!readOnly && (
            <div class="actions">
              <button type="button" onClick={save} disabled={busy}>
                {texts.save}
              </button>
            </div>
          )}
          <section aria-labelledby="frame-reach-heading" class="reach">
            <h2 id="frame-reach-heading">
              {done ? texts.pagesChanged : unsaved ? texts.pagesToChange : texts.pagesOnFrame}
            </h2>
            <p role="status">{done ? texts.saved : ""}</p>
            <ul>
              {(done ? changed.map(titleOf) : reached.map((page) => page.title)).map((title, index) => (
                <li key={`${index}-${title}`}>{title}</li>
              ))}
            </ul>
          </section>
        </div>
        <FramePreview
          texts={texts}
          session={session}
          siteId={siteId}
          slug={frame.slug}
          markup={settled}
          reached={reached}
          others={pages.filter((page) => page.status !== "trash")}
        />
      </div>
    </>
  );
}
