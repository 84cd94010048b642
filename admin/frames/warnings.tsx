// The frame's analysis warnings (the `warnings` of a frame write or its dry run): those that carry
// a line and a column are underlined in the HTML field; all are listed below it, placed ones by
// line and column, as the field's description.
import type { Texts } from "../texts.ts";
import type { PlacedWarning } from "./codemirror.ts";

export type AnyWarning = { code: string; message: string } & Record<string, unknown>;

const isPlaced = (warning: AnyWarning): warning is AnyWarning & { line: number; column: number } =>
  typeof warning.line === "number" && typeof warning.column === "number";

export function placedOf(warnings: readonly AnyWarning[]): PlacedWarning[] {
  return warnings.filter(isPlaced).map(({ line, column, message }) => ({ line, column, message }));
}

export function WarningList(props: { texts: Texts; id: string; warnings: readonly AnyWarning[] }) {
  const { texts, warnings } = props;
  return (
    <ul id={props.id} class="warnings" aria-label={texts.warnings} hidden={warnings.length === 0}>
      {warnings.map((warning, index) => (
        <li key={`${index}-${warning.code}`}>
          {isPlaced(warning) ? `${texts.lineColumn(warning.line, warning.column)}: ` : ""}
          {warning.message}
        </li>
      ))}
    </ul>
  );
}
