// Two revisions side by side (docs/admin.md): the earlier on the left, the later on the right,
// line by line; removed lines marked on the left (del), added ones on the right (ins), as the
// `diff` package's line diff finds them.
import { diffLines } from "diff";
import type { Texts } from "../texts.ts";

interface Row {
  left: { text: string; removed: boolean } | null;
  right: { text: string; added: boolean } | null;
}

const linesOf = (value: string) => value.replace(/\n$/, "").split("\n");

/** The rows of the two columns: unchanged lines on both sides, a change's removed and added lines paired. */
export function sideBySide(before: string, after: string): Row[] {
  const rows: Row[] = [];
  let removed: string[] = [];
  const flush = (added: string[]) => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++)
      rows.push({
        left: i < removed.length ? { text: removed[i]!, removed: true } : null,
        right: i < added.length ? { text: added[i]!, added: true } : null,
      });
    removed = [];
  };
  for (const part of diffLines(before, after)) {
    if (part.removed) removed.push(...linesOf(part.value));
    else if (part.added) flush(linesOf(part.value));
    else {
      flush([]);
      for (const text of linesOf(part.value))
        rows.push({ left: { text, removed: false }, right: { text, added: false } });
    }
  }
  flush([]);
  return rows;
}

export function SideBySide(props: { texts: Texts; before: string; after: string; from: number; to: number }) {
  const { texts } = props;
  return (
    <table class="diff">
      <caption>{texts.comparing(props.from, props.to)}</caption>
      <thead>
        <tr>
          <th scope="col">{texts.revision(props.from)}</th>
          <th scope="col">{texts.revision(props.to)}</th>
        </tr>
      </thead>
      <tbody>
        {sideBySide(props.before, props.after).map((row, index) => (
          <tr key={index}>
            <td>{row.left === null ? "" : row.left.removed ? <del>{row.left.text}</del> : row.left.text}</td>
            <td>{row.right === null ? "" : row.right.added ? <ins>{row.right.text}</ins> : row.right.text}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
