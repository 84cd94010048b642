// What a page has of a post (docs/admin.md, "Pages"; docs/content-model.md, "Dates, tags and
// feeds"): its Date, typed in the browser's time zone (named beside it) and sent as an instant in
// UTC; its Tags, separated by commas; and whether it publishes a feed, with a link to the feed
// while the page is published.
import { FieldError, type Shown } from "../errors.tsx";
import type { Texts } from "../texts.ts";
import type { EditedPage, Form } from "./page-form.ts";

/** The browser's time zone, as the date is typed and shown in it (`Europe/Berlin`). */
export const localTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

export function PostFields(props: {
  texts: Texts;
  form: Form;
  page: EditedPage | null;
  error: Shown | null;
  onChange: (change: Partial<Form>) => void;
}) {
  const { texts, form, page, error, onChange } = props;
  const described = (field: string, hint = false) => ({
    "aria-describedby": `${hint ? `page-${field}-hint ` : ""}page-${field}-error`,
    "aria-invalid": error?.field === field,
  });
  return (
    <>
      <label htmlFor="page-date">{texts.date}</label>
      <input
        id="page-date"
        type="datetime-local"
        step={1}
        value={form.date}
        {...described("date", true)}
        onInput={(event) =>
          onChange({ date: event.currentTarget.value, dateIncomplete: event.currentTarget.validity.badInput })
        }
      />
      <p id="page-date-hint" class="meta">
        {texts.dateHint(localTimeZone())}
      </p>
      <FieldError id="page-date-error" field="date" shown={error} />
      <label htmlFor="page-tags">{texts.tags}</label>
      <input
        id="page-tags"
        value={form.tags}
        {...described("tags", true)}
        onInput={(event) => onChange({ tags: event.currentTarget.value })}
      />
      <p id="page-tags-hint" class="meta">
        {texts.tagsHint}
      </p>
      <FieldError id="page-tags-error" field="tags" shown={error} />
      <div class="check">
        <input
          id="page-feed"
          type="checkbox"
          checked={form.feed}
          {...described("feed")}
          onChange={(event) => onChange({ feed: event.currentTarget.checked })}
        />
        <label htmlFor="page-feed">{texts.publishesFeed}</label>
        {page?.feed && page.status === "publish" && <a href={`${page.url}feed.xml`}>{texts.viewFeed}</a>}
      </div>
      <FieldError id="page-feed-error" field="feed" shown={error} />
    </>
  );
}
