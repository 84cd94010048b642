// A page's editor (docs/admin.md): Title, Slug, Format and Content (content-field.tsx), Frame,
// Date, Tags and Feed (post-fields.tsx); Save (a new page becomes a draft and the editor stays on
// it; a published or scheduled page keeps its status), Publish, or Schedule while the date is
// ahead, Unschedule, Move to trash with Undo, its Revisions with Restore, and its translations.
import { useEffect, useState } from "preact/hooks";
import { unwrap } from "../../src/client/index.ts";
import { alertOf, FieldError, shownOf, type Shown } from "../errors.tsx";
import { navigate } from "../route.ts";
import { useAction } from "../action.ts";
import { ScreenHeading } from "../screen-heading.tsx";
import type { Session } from "../session.ts";
import type { Texts } from "../texts.ts";
import { ContentField } from "./content-field.tsx";
import { statusName } from "./list.tsx";
import { bodyOf, type EditedPage, type Form, formFieldOf, formOf, isAhead } from "./page-form.ts";
import { PostFields } from "./post-fields.tsx";
import { PageRevisions } from "./revisions.tsx";
import { Translations } from "./translations.tsx";

const FIELDS = ["title", "slug", "content_format", "content", "frame", "date", "tags", "feed"] as const;

type Status = EditedPage["status"];

/** What the status line and the notice say of a page's date: when it goes out, in the browser's time. */
const momentOf = (texts: Texts, page: EditedPage) => texts.moment(new Date(page.date ?? ""));

/** The notice of a write that asked for `status` (none: kept), followed by what the service warned of. */
function noticeOf(
  texts: Texts,
  status: Status | undefined,
  answer: { page: EditedPage; warnings: { message: string }[] },
) {
  const { page } = answer;
  const said =
    page.status === "future"
      ? texts.scheduledFor(momentOf(texts, page))
      : status === undefined
        ? texts.saved
        : page.status === "publish"
          ? texts.publishedNotice
          : page.status === "draft"
            ? texts.savedAsDraft
            : texts.saved;
  return [said, ...answer.warnings.map((warning) => warning.message)].join(" ");
}

export function PageEditor(props: { texts: Texts; session: Session; siteId: number; item: string }) {
  const { texts, session, siteId, item } = props;
  const { busy, error: refusal, setError, notice, setNotice, run } = useAction(texts);
  // A refusal naming an item of a list (`tags.3`) is shown by the list's field.
  const error: Shown | null = refusal && { ...refusal, field: formFieldOf(refusal.field) };
  const site = session.client.forSite(siteId);
  const isNew = item === "new";
  const [page, setPage] = useState<EditedPage | null>(null);
  const [form, setForm] = useState<Form>(formOf(null));
  const [frames, setFrames] = useState<string[]>([]);
  const [trashedFrom, setTrashedFrom] = useState<Status | null>(null);
  const [showRevisions, setShowRevisions] = useState(false);
  const change = (part: Partial<Form>) => setForm((now) => ({ ...now, ...part }));

  const load = async () => {
    const answer = await unwrap(site.GET("/pages/{ref}", { params: { path: { ref: item } } }));
    setPage(answer.page);
    setForm(formOf(answer.page));
  };
  useEffect(() => {
    // A page just made is shown already, with what its write said (its address became the page's).
    if (page !== null && String(page.id) === item) return;
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

  const write = (status?: "publish" | "future" | "draft") => {
    // A partly typed date reads as none: refused here rather than sent as "no date".
    if (form.dateIncomplete) {
      setNotice("");
      setError({ field: "date", message: texts.dateIncomplete });
      return Promise.resolve();
    }
    return run(async () => {
      const fields = bodyOf(form, page);
      if (page === null) {
        const body = { ...fields, status: status ?? "draft" };
        const made = await unwrap(site.POST("/pages", { body }));
        setPage(made.page);
        setForm(formOf(made.page));
        navigate({ siteId, screen: "pages", item: String(made.page.id) }, true);
        return noticeOf(texts, status, made);
      }
      const body = { ...fields, ...(status ? { status } : {}) };
      const changed = await unwrap(site.PATCH("/pages/{ref}", { params: { path: { ref: String(page.id) } }, body }));
      setPage(changed.page);
      setForm(formOf(changed.page));
      return noticeOf(texts, status, changed);
    });
  };
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

  const input = (field: "title" | "slug" | "frame") => ({
    id: `page-${field}`,
    value: form[field],
    "aria-describedby": `page-${field}-error`,
    "aria-invalid": error?.field === field,
    onInput: (event: { currentTarget: { value: string } }) => change({ [field]: event.currentTarget.value }),
  });
  // The date decides what publishing does: a date ahead schedules the page (status future).
  const ahead = isAhead(form.date);
  return (
    <>
      <ScreenHeading>
        {texts.pages}: {page?.title ?? texts.newPage}
      </ScreenHeading>
      {page && (
        <p>
          {texts.status}: {statusName(texts, page.status)}
          {page.status === "future" && page.date !== null && ` · ${texts.goesOut(momentOf(texts, page))}`}
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
          <ContentField
            texts={texts}
            format={form.format}
            content={form.content}
            error={error}
            onFormat={(format) => change({ format })}
            onContent={(content) => change({ content })}
          />
          <label htmlFor="page-frame">{texts.frame}</label>
          <select {...input("frame")} onChange={(event) => change({ frame: event.currentTarget.value })}>
            <option value="">{texts.noFrame}</option>
            {frames.map((slug) => (
              <option key={slug} value={slug}>
                {slug}
              </option>
            ))}
          </select>
          <FieldError id="page-frame-error" field="frame" shown={error} />
          <PostFields texts={texts} form={form} page={page} error={error} onChange={change} />
          <div class="actions">
            <button type="submit" disabled={busy}>
              {texts.save}
            </button>
            {page?.status !== "publish" && (
              <button type="button" onClick={() => write(ahead ? "future" : "publish")} disabled={busy}>
                {ahead ? texts.schedule : texts.publish}
              </button>
            )}
            {page?.status === "future" && (
              <button type="button" onClick={() => write("draft")} disabled={busy}>
                {texts.unschedule}
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
