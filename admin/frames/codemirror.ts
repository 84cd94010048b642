// The frame editor's code field (docs/admin.md): CodeMirror 6 with HTML, loaded only when a frame
// is opened (a chunk of its own, imported by code-field.tsx), so the sign-in and Pages screens
// never load it. Its colours are the admin's own, at WCAG AA contrast or better, and the frame's
// analysis warnings are lint diagnostics underlined at their line and column.
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { html } from "@codemirror/lang-html";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { EditorState, type Text } from "@codemirror/state";
import { EditorView, highlightActiveLine, keymap, lineNumbers } from "@codemirror/view";
import { tags } from "@lezer/highlight";

/** A warning of the frame's analysis: 1-based line and column (UTF-16 units) where it was found. */
export interface PlacedWarning {
  line: number;
  column: number;
  message: string;
}

export interface CodeEditor {
  /** Underlines the warnings, placed in the markup as it stands now. */
  showWarnings(warnings: readonly PlacedWarning[]): void;
  destroy(): void;
}

// Every colour reaches at least 4.5:1 on the white editor and on its grey gutter.
const highlighting = HighlightStyle.define([
  { tag: tags.comment, color: "#4b5563", fontStyle: "italic" },
  { tag: [tags.tagName, tags.angleBracket], color: "#1e3a8a" },
  { tag: tags.attributeName, color: "#7c2d12" },
  { tag: [tags.attributeValue, tags.string], color: "#166534" },
  { tag: [tags.keyword, tags.processingInstruction, tags.documentMeta], color: "#6b21a8" },
  { tag: tags.invalid, color: "#b91c1c" },
]);

const theme = EditorView.theme({
  "&": { color: "#1a1a1a", backgroundColor: "#ffffff", border: "1px solid #6b6b6b", borderRadius: "4px" },
  "&.cm-focused": { outline: "3px solid #1d4ed8", outlineOffset: "2px" },
  ".cm-content": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", minHeight: "16rem" },
  ".cm-scroller": { maxHeight: "32rem", overflow: "auto" },
  ".cm-gutters": { color: "#374151", backgroundColor: "#f3f4f6", borderRight: "1px solid #d1d5db" },
  ".cm-activeLine": { backgroundColor: "#eff6ff" },
  ".cm-activeLineGutter": { backgroundColor: "#dbeafe" },
  ".cm-diagnostic": { color: "#1a1a1a" },
});

/** Where a warning's underline starts and ends: from its column to the end of its tag or comment. */
export function rangeOf(doc: Text, warning: PlacedWarning): { from: number; to: number } | null {
  if (warning.line < 1 || warning.line > doc.lines) return null;
  const line = doc.line(warning.line);
  const from = Math.min(line.from + Math.max(warning.column - 1, 0), line.to);
  const close = line.text.indexOf(">", from - line.from);
  const to = close === -1 ? line.to : line.from + close + 1;
  return { from, to: Math.max(to, Math.min(from + 1, doc.length)) };
}

export function createCodeEditor(options: {
  parent: HTMLElement;
  doc: string;
  /** The id of the visible label that names the editable content ("HTML"). */
  labelledBy: string;
  describedBy: string;
  readOnly: boolean;
  onChange: (markup: string) => void;
}): CodeEditor {
  const view = new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        lineNumbers(),
        highlightActiveLine(),
        history(),
        // Tab is left to move the focus on: no keyboard trap.
        keymap.of([...defaultKeymap, ...historyKeymap]),
        html(),
        syntaxHighlighting(highlighting),
        theme,
        EditorState.readOnly.of(options.readOnly),
        EditorView.editable.of(!options.readOnly),
        // Long lines wrap: the field scrolls only downwards, and its content takes the focus even
        // when read-only (tabindex), so the keyboard can scroll it and reach every line.
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({
          "aria-labelledby": options.labelledBy,
          "aria-describedby": options.describedBy,
          tabindex: "0",
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    showWarnings(warnings) {
      const diagnostics: Diagnostic[] = [];
      for (const warning of warnings) {
        const range = rangeOf(view.state.doc, warning);
        if (range) diagnostics.push({ ...range, severity: "warning", message: warning.message });
      }
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
    destroy: () => view.destroy(),
  };
}
