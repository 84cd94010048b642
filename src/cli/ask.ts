// A yes-or-no question on a terminal (a push that asks for confirmation: confirm.ts). Only when
// both stdin and stderr are terminals: in CI, or with input piped in, nothing is asked and the
// command refuses instead of waiting.
import { createInterface } from "node:readline/promises";

export interface Terminal {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

export function askOn(io: Terminal): ((question: string) => Promise<boolean>) | undefined {
  if (!io.stdin.isTTY || !io.stderr.isTTY) return undefined;
  return async (question) => {
    const lines = createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream });
    try {
      return /^\s*y(es)?\s*$/i.test(await lines.question(question));
    } finally {
      lines.close();
    }
  };
}
