// One call a screen makes on a button (docs/admin.md): busy while it runs, what it says when it
// went well in the screen's status line, a refusal shown by its field or in the alert (errors.tsx).
import { useState } from "preact/hooks";
import { shownOf, type Shown } from "./errors.tsx";
import type { Texts } from "./texts.ts";

export function useAction(texts: Texts) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Shown | null>(null);
  const [notice, setNotice] = useState("");
  /** Runs `work`, which answers its notice; a refusal is kept for the screen to show. */
  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setError(null);
    setNotice("");
    try {
      setNotice(await work());
    } catch (failure) {
      setError(shownOf(failure, texts));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, notice, setNotice, run };
}
