// One file's details (docs/admin.md): what it is, its Alt text in the site's default language with
// Save, and where it is used (the frames reading it and the pages showing it).
import { useEffect, useState } from "preact/hooks";
import { unwrap } from "../../src/client/index.ts";
import { alertOf, FieldError, shownOf } from "../errors.tsx";
import { useAction } from "../action.ts";
import { ScreenHeading } from "../screen-heading.tsx";
import type { Session } from "../session.ts";
import type { Texts } from "../texts.ts";

interface FileRecord {
  id: number;
  filename: string;
  mime: string;
  bytes: number;
  width: number | null;
  height: number | null;
  url: string;
  alt: Record<string, string>;
  used_by: { frames: Array<{ id: string; slug: string }>; pages: Array<{ id: number; path: string }> };
}

export function MediaDetails(props: { texts: Texts; session: Session; siteId: number; item: string }) {
  const { texts, session, siteId, item } = props;
  const { busy, error, setError, notice, setNotice, run } = useAction(texts);
  const site = session.client.forSite(siteId);
  const [file, setFile] = useState<FileRecord | null>(null);
  const [defaultLang, setDefaultLang] = useState("");
  const [alt, setAlt] = useState("");

  useEffect(() => {
    setError(null);
    setNotice("");
    Promise.all([unwrap(site.GET("/media/{ref}", { params: { path: { ref: item } } })), unwrap(site.GET("/languages"))])
      .then(([answer, languages]) => {
        const lang = languages.default_lang ?? "";
        setDefaultLang(lang);
        setFile(answer.media);
        setAlt(answer.media.alt[lang] ?? "");
      })
      .catch((failure) => setError(shownOf(failure, texts)));
  }, [siteId, item]);

  const save = () =>
    run(async () => {
      if (file === null) return "";
      const body = { alt: { [defaultLang]: alt === "" ? null : alt } };
      const done = await unwrap(site.PATCH("/media/{ref}", { params: { path: { ref: String(file.id) } }, body }));
      setFile(done.media);
      return texts.saved;
    });

  return (
    <>
      <ScreenHeading>
        {texts.media}: {file?.filename ?? ""}
      </ScreenHeading>
      <p role="alert" class="error">
        {alertOf(error, ["alt"])}
      </p>
      <p role="status">{notice}</p>
      {file && (
        <>
          <p>
            <a href={file.url}>{file.filename}</a>{" "}
            <span class="meta">
              {file.mime}, {texts.kilobytes(file.bytes)}
              {file.width !== null && file.height !== null ? `, ${file.width} × ${file.height}` : ""}
            </span>
          </p>
          <form
            class="editor"
            onSubmit={(event) => {
              event.preventDefault();
              void save();
            }}
          >
            <label htmlFor="media-alt">{texts.altText}</label>
            <input
              id="media-alt"
              value={alt}
              aria-describedby="media-alt-error"
              aria-invalid={error?.field === "alt"}
              onInput={(event) => setAlt(event.currentTarget.value)}
            />
            <FieldError id="media-alt-error" field="alt" shown={error} />
            <div class="actions">
              <button type="submit" disabled={busy}>
                {texts.save}
              </button>
            </div>
          </form>
          <section aria-labelledby="used-heading">
            <h2 id="used-heading">{texts.usedBy}</h2>
            {file.used_by.frames.length === 0 && file.used_by.pages.length === 0 ? (
              <p>{texts.notUsed}</p>
            ) : (
              <ul>
                {file.used_by.frames.map((frame) => (
                  <li key={`f${frame.id}`}>{texts.usedInFrame(frame.slug)}</li>
                ))}
                {file.used_by.pages.map((page) => (
                  <li key={`p${page.id}`}>{texts.usedOnPage(page.path)}</li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </>
  );
}
