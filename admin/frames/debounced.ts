// A value that follows another once it has stopped changing for `ms` (the frame editor's dry run
// and preview run after typing pauses, not on every key).
import { useEffect, useState } from "preact/hooks";

export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
