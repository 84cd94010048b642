// A page's content, edited as rich text and kept as clean HTML (docs/admin.md): an editable region
// named by its label, with Bold, Italic, Heading and List buttons. What it is given is cleaned with
// DOMPurify before it enters the admin's document, so markup stored in a page never runs here (the
// admin's CSP would refuse its scripts too); what it gives back is its HTML as edited.
import DOMPurify from "dompurify";
import { useEffect, useRef } from "preact/hooks";
import type { Texts } from "./texts.ts";

export function RichText(props: {
  texts: Texts;
  labelId: string;
  describedBy: string;
  invalid: boolean;
  html: string;
  onInput: (html: string) => void;
}) {
  const { texts } = props;
  const region = useRef<HTMLDivElement>(null);
  // Set only when the content comes from outside (a page opened, a revision restored): setting it
  // on every keystroke would move the caret.
  useEffect(() => {
    if (region.current && region.current.innerHTML !== props.html)
      region.current.innerHTML = DOMPurify.sanitize(props.html);
  }, [props.html]);

  const apply = (command: string, value?: string) => {
    region.current?.focus();
    document.execCommand(command, false, value);
    if (region.current) props.onInput(region.current.innerHTML);
  };
  return (
    <div class="rich-text">
      <div role="toolbar" aria-label={texts.formatting} class="toolbar">
        <button type="button" onClick={() => apply("bold")}>
          {texts.bold}
        </button>
        <button type="button" onClick={() => apply("italic")}>
          {texts.italic}
        </button>
        <button type="button" onClick={() => apply("formatBlock", "h2")}>
          {texts.heading}
        </button>
        <button type="button" onClick={() => apply("insertUnorderedList")}>
          {texts.list}
        </button>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: an editable rich-text region has no native element */}
      <div
        ref={region}
        class="editable"
        role="textbox"
        aria-multiline="true"
        aria-labelledby={props.labelId}
        aria-describedby={props.describedBy}
        aria-invalid={props.invalid}
        contentEditable
        tabIndex={0}
        onInput={(event) => props.onInput(event.currentTarget.innerHTML)}
      />
    </div>
  );
}
