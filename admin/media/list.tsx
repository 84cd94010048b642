// The Media screen (docs/admin.md): a file field labelled Upload (several files at once, each
// with its progress), and every file of the site as a link named by its file name, opening its
// details.
import { useEffect, useState } from "preact/hooks";
import { unwrap } from "../../src/client/index.ts";
import { alertOf, shownOf, type Shown } from "../errors.tsx";
import { hrefOf, navigate, onLink } from "../route.ts";
import { ScreenHeading } from "../screen-heading.tsx";
import type { Session } from "../session.ts";
import type { Texts } from "../texts.ts";
import { uploadFile } from "./upload.ts";

interface FileRow {
  id: number;
  filename: string;
  mime: string;
  bytes: number;
}

export function MediaList(props: { texts: Texts; session: Session; siteId: number }) {
  const { texts, session, siteId } = props;
  const [files, setFiles] = useState<FileRow[] | null>(null);
  const [error, setError] = useState<Shown | null>(null);
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);

  const load = () =>
    unwrap(session.client.forSite(siteId).GET("/media", { params: { query: { per_page: 500 } } }))
      .then((answer) => setFiles(answer.media))
      .catch((failure) => setError(shownOf(failure, texts)));
  useEffect(() => {
    setFiles(null);
    void load();
  }, [siteId]);

  const upload = async (chosen: FileList | null) => {
    if (!chosen || chosen.length === 0) return;
    setError(null);
    let last: number | null = null;
    for (const file of Array.from(chosen)) {
      setProgress({ name: file.name, fraction: 0 });
      try {
        last = (
          await uploadFile(siteId, file, session.csrfToken, (fraction) => setProgress({ name: file.name, fraction }))
        ).id;
      } catch (failure) {
        setError(shownOf(failure, texts));
        break;
      }
    }
    setProgress(null);
    await load();
    if (last !== null && chosen.length === 1) navigate({ siteId, screen: "media", item: String(last) });
  };

  const open = (id: number) => ({ siteId, screen: "media" as const, item: String(id) });
  return (
    <>
      <ScreenHeading>{texts.media}</ScreenHeading>
      <p role="alert" class="error">
        {alertOf(error, [])}
      </p>
      <div class="upload">
        <label htmlFor="upload">{texts.upload}</label>
        <input
          id="upload"
          type="file"
          multiple
          onChange={(event) => {
            const input = event.currentTarget;
            void upload(input.files).finally(() => {
              input.value = "";
            });
          }}
        />
        {progress && (
          <p role="status">
            <label htmlFor="upload-progress">{texts.uploading(progress.name)}</label>{" "}
            <progress id="upload-progress" max={1} value={progress.fraction} />
          </p>
        )}
      </div>
      {files === null ? (
        <p>{texts.loading}</p>
      ) : files.length === 0 ? (
        <p>{texts.noMedia}</p>
      ) : (
        <ul class="files">
          {files.map((file) => (
            <li key={file.id}>
              <a href={hrefOf(open(file.id))} onClick={onLink(open(file.id))}>
                {file.filename}
              </a>{" "}
              <span class="meta">
                {file.mime}, {texts.kilobytes(file.bytes)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
