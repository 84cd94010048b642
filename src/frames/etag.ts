// Optimistic concurrency for frame writes: If-Match must name the frame's current ETag.
import { fail } from "../http/errors.ts";
import { frameEtag, type FrameRow } from "./record.ts";

/** 412 precondition_failed with the current sha256 unless If-Match is absent, `*`, or current. */
export function checkIfMatch(ifMatch: string | undefined, row: Pick<FrameRow, "revision" | "sha256">): void {
  if (ifMatch === undefined || ifMatch.trim() === "") return;
  const current = frameEtag(row);
  const offered = ifMatch.split(",").map((tag) => tag.trim());
  if (offered.includes("*") || offered.includes(current)) return;
  throw fail("precondition_failed", { sha256: row.sha256, etag: current });
}
