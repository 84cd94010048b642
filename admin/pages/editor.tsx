// A page's editor (docs/admin.md): Title, Slug, Content (rich text), Frame; Save (a new page
// becomes a draft and the editor stays on it; a published page stays published), Publish, Move to
// trash with Undo, its Revisions with Restore, and its translations.
import { useEffect, useState } from "preact/hooks";
import { unwrap } from "../../src/client/index.ts";
import { alertOf, FieldError, shownOf } from "../errors.tsx";
import { RichText } from "../rich-text.tsx";
import { navigate } from "../route.ts";
import { useAction } from "../action.ts";
import { ScreenHeading } from "../screen-heading.tsx";
import type { Session } from "../session.ts";
import type { Texts } from "../texts.ts";
import { statusName } from "./list.tsx";
import { PageRevisions } from "./revisions.tsx";
import { Translations } from "./translations.tsx";

export interface EditedPage {
  id: number;
  title: string;
  slug: string;
  content: string;
  frame: string | null;
  status: "publish" | "future" | "draft" | "trash";
  lang: string | null;
  translations: Record<string, number>;
  url: string;
}

interface Form {
  title: string;
  slug: string;
  content: string;
  frame: string;
}

const FIELDS = ["title", "slug", "content", "frame"] as const;

const formOf = (page: EditedPage | null): Form => ({
  title: page?.title ?? "",
  slug: page?.slug ?? "",
  content: page?.content ?? "",
  frame: page?.frame ?? "",
});

export function PageEditor(props: { texts: Texts; session: Session; siteId: number; item: string }) {
  const { texts, session, siteId, item } = props;
  const { busy, error, setError, notice, setNotice, run } = useAction(texts);
  const site = session.client.forSite(siteId);
  const isNew = item === "new";
  const [page, setPage] = useState<EditedPage | null>(null);
  const [form, setForm] = useState<Form>(formOf(null));
  const [frames, setFrames] = useState<string[]>([]);
  const [trashedFrom, setTrashedFrom] = useState<EditedPage["status"] | null>(null);
  const [showRevisions, setShowRevisions] = useState(false);

  const load = async () => {
    const answer = await unwrap(site.GET("/pages/{ref}", { params: { path: { ref: item } } }));
    setPage(answer.page);
    setForm(formOf(answer.page));
  };
  useEffect(() => {
    setError(null);
    setNotice("");
    setTrashedFrom(null);
    unwrap(site.GET("/frames", { params: { query: { per_page: 500 } } }))
      .then((answer) => setFrames(answer.frames.map((frame) => frame.slug)))
      .catch((failure) => setError(shownOf(failure, texts)));
    if (isNew) {
      setPage(null);
      setForm(formOf(null));
      return;
    }
    load().catch((failure) => setError(shownOf(failure, texts)));
  }, [siteId, item]);

  const fields = () => ({
    title: form.title,
    content: form.content,
    frame: form.frame === "" ? null : form.frame,
    ...(form.slug.trim() === "" ? {} : { slug: form.slug }),
  });
  const write = (status?: "publish" | "draft") =>
    run(async () => {
      if (page === null) {
        const made = await unwrap(site.POST("/pages", { body: { ...fields(), status: status ?? "draft" } }));
        setPage(made.page);
        setForm(formOf(made.page));
        navigate({ siteId, screen: "pages", item: String(made.page.id) }, true);
      } else {
        const body = { ...fields(), ...(status ? { status } : {}) };
        const changed = await unwrap(site.PATCH("/pages/{ref}", { params: { path: { ref: String(page.id) } }, body }));
        setPage(changed.page);
        setForm(formOf(changed.page));
      }
      return status === "publish" ? texts.published : texts.saved;
    });
  const trash = () =>
    run(async () => {
      if (page === null) return "";
      const before = page.status;
      const done = await unwrap(site.DELETE("/pages/{ref}", { params: { path: { ref: String(page.id) } } }));
      setPage(done.page);
      setTrashedFrom(before);
      return texts.movedToTrash;
    });
  const undo = () =>
    run(async () => {
      if (page === null || trashedFrom === null) return "";
      const body = { status: trashedFrom };
      const back = await unwrap(site.PATCH("/pages/{ref}", { params: { path: { ref: String(page.id) } }, body }));
      setPage(back.page);
      setTrashedFrom(null);
      return statusName(texts, back.page.status);
    });

  const input = (field: keyof Form) => ({
    id: `page-${field}`,
    value: form[field],
    "aria-describedby": `page-${field}-error`,
    "aria-invalid": error?.field === field,
    onInput: (event: { currentTarget: { value: string } }) => setForm({ ...form, [field]: event.currentTarget.value }),
  });
  return (
    <>
      <ScreenHeading>
        {texts.pages}: {page?.title ?? texts.newPage}
      </ScreenHeading>
      {page && (
        <p>
          {texts.status}: {statusName(texts, page.status)}
          {page.status === "publish" && (
            <>
              {" · "}
              <a href={page.url}>{texts.view}</a>
            </>
          )}
        </p>
      )}
      <p role="alert" class="error">
        {alertOf(error, FIELDS)}
      </p>
      <p role="status">
        {notice}
        {trashedFrom !== null && (
          <button type="button" onClick={undo} disabled={busy}>
            {texts.undo}
          </button>
        )}
      </p>
      {/* The fields show once the page is read, so nothing typed is overwritten by its arrival. */}
      {!isNew && (page === null || String(page.id) !== item) ? (
        <p>{texts.loading}</p>
      ) : (
        <form
          class="editor"
          onSubmit={(event) => {
            event.preventDefault();
            void write();
          }}
        >
          <label htmlFor="page-title">{texts.title_}</label>
          <input {...input("title")} required />
          <FieldError id="page-title-error" field="title" shown={error} />
          <label htmlFor="page-slug">{texts.slug}</label>
          <input {...input("slug")} />
          <FieldError id="page-slug-error" field="slug" shown={error} />
          <span id="page-content-label" class="label">
            {texts.content}
          </span>
          <RichText
            texts={texts}
            labelId="page-content-label"
            describedBy="page-content-error"
            invalid={error?.field === "content"}
            html={page?.content ?? ""}
            onInput={(content) => setForm((now) => ({ ...now, content }))}
          />
          <FieldError id="page-content-error" field="content" shown={error} />
          <label htmlFor="page-frame">{texts.frame}</label>
          <select {...input("frame")} onChange={(event) => setForm({ ...form, frame: event.currentTarget.value })}>
            <option value="">{texts.noFrame}</option>
            {frames.map((slug) => (
              <option key={slug} value={slug}>
                {slug}
              </option>
            ))}
          </select>
          <FieldError id="page-frame-error" field="frame" shown={error} />
          <div class="actions">
            <button type="submit" disabled={busy}>
              {texts.save}
            </button>
            {page?.status !== "publish" && (
              <button type="button" onClick={() => write("publish")} disabled={busy}>
                {texts.publish}
              </button>
            )}
            {page !== null && page.status !== "trash" && (
              <button type="button" onClick={trash} disabled={busy}>
                {texts.moveToTrash}
              </button>
            )}
            {page !== null && (
              <button type="button" aria-expanded={showRevisions} onClick={() => setShowRevisions(!showRevisions)}>
                {texts.revisions}
              </button>
            )}
          </div>
        </form>
      )}
      {page !== null && showRevisions && (
        <PageRevisions texts={texts} session={session} siteId={siteId} page={page} onRestored={load} />
      )}
      {page !== null && <Translations texts={texts} session={session} siteId={siteId} page={page} />}
    </>
  );
}
