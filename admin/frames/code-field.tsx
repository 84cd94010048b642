// The HTML field of the frame editor: CodeMirror, imported when the field first shows (its own
// chunk, docs/admin.md), with the frame's warnings underlined and listed below it by line and
// column, so a screen reader reaches them too.
import { useEffect, useRef, useState } from "preact/hooks";
import type { Texts } from "../texts.ts";
import type { CodeEditor, PlacedWarning } from "./codemirror.ts";

export function CodeField(props: {
  texts: Texts;
  /** The markup the field opens with; a new value (another frame, or one reloaded) starts it again. */
  initial: string;
  labelId: string;
  describedBy: string;
  readOnly: boolean;
  warnings: readonly PlacedWarning[];
  onChange: (markup: string) => void;
}) {
  const { texts } = props;
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<CodeEditor | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const warnings = useRef(props.warnings);
  warnings.current = props.warnings;
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let gone = false;
    import("./codemirror.ts")
      .then(({ createCodeEditor }) => {
        if (gone || !host.current) return;
        editor.current = createCodeEditor({
          parent: host.current,
          doc: props.initial,
          labelledBy: props.labelId,
          describedBy: props.describedBy,
          readOnly: props.readOnly,
          onChange: (markup) => onChange.current(markup),
        });
        editor.current.showWarnings(warnings.current);
      })
      .catch(() => setFailed(true));
    return () => {
      gone = true;
      editor.current?.destroy();
      editor.current = null;
    };
  }, [props.initial, props.readOnly]);

  useEffect(() => editor.current?.showWarnings(props.warnings), [props.warnings]);

  return (
    <>
      <div ref={host} class="code-field" />
      {failed && <p class="error">{texts.editorFailed}</p>}
    </>
  );
}
