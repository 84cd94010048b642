// A page's Format and Content (docs/admin.md, "Pages"): HTML is edited as rich text
// (rich-text.tsx); Markdown as its source in a plain text area, which keeps every character, so
// the source goes back as written (docs/content-model.md, "Markdown"). Changing the format keeps
// the text as it stands: the user edits it, and the service decides what is stored.
import { FieldError, type Shown } from "../errors.tsx";
import { RichText } from "../rich-text.tsx";
import type { Texts } from "../texts.ts";
import type { ContentFormat } from "./page-form.ts";

export function ContentField(props: {
  texts: Texts;
  format: ContentFormat;
  content: string;
  error: Shown | null;
  onFormat: (format: ContentFormat) => void;
  onContent: (content: string) => void;
}) {
  const { texts, error } = props;
  return (
    <>
      <label htmlFor="page-format">{texts.format}</label>
      <select
        id="page-format"
        value={props.format}
        aria-describedby="page-content_format-error"
        aria-invalid={error?.field === "content_format"}
        onChange={(event) => props.onFormat(event.currentTarget.value === "markdown" ? "markdown" : "html")}
      >
        <option value="html">{texts.formatHtml}</option>
        <option value="markdown">{texts.formatMarkdown}</option>
      </select>
      <FieldError id="page-content_format-error" field="content_format" shown={error} />
      {props.format === "markdown" ? (
        <>
          <label htmlFor="page-content">{texts.content}</label>
          <textarea
            id="page-content"
            class="source"
            rows={16}
            spellcheck={false}
            value={props.content}
            aria-describedby="page-content-hint page-content-error"
            aria-invalid={error?.field === "content"}
            onInput={(event) => props.onContent(event.currentTarget.value)}
          />
          <p id="page-content-hint" class="meta">
            {texts.markdownHint}
          </p>
        </>
      ) : (
        <>
          <span id="page-content-label" class="label">
            {texts.content}
          </span>
          <RichText
            texts={texts}
            labelId="page-content-label"
            describedBy="page-content-error"
            invalid={error?.field === "content"}
            html={props.content}
            onInput={props.onContent}
          />
        </>
      )}
      <FieldError id="page-content-error" field="content" shown={error} />
    </>
  );
}
