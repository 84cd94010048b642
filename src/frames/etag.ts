// Optimistic concurrency for frame writes: If-Match must name the frame's current ETag.
import { fail } from "../errors.ts";
import { frameEtag, type FrameRow } from "./record.ts";

/** 412 precondition_failed with the current sha256 unless If-Match is absent, `*`, or current. */
export function checkIfMatch(ifMatch: string | undefined, row: Pick<FrameRow, "revision" | "sha256">): void {
  if (ifMatch === undefined || ifMatch.trim() === "") return;
  const current = frameEtag(row);
  const offered = ifMatch.split(",").map((tag) => tag.trim());
  if (offered.includes("*") || offered.includes(current)) return;
  throw fail("precondition_failed", { sha256: row.sha256, etag: current });
}

/**
 * Thrown inside a write's transaction when the frame's revision is no longer the one the write
 * read: another writer got in between (on PostgreSQL; on SQLite writes never interleave).
 */
export class Overtaken extends Error {
  constructor(
    readonly sha256: string,
    readonly what: "write" | "rename" | "delete",
  ) {
    super(`frame ${what} overtaken`);
  }
}

/** Enough for a burst of writers of one frame: each round of them lets at least one through. */
const ATTEMPTS = 16;

/**
 * Runs a frame write that may be overtaken. A conditional one (If-Match naming an ETag) answers
 * 412 precondition_failed: the revision it named is gone. An unconditional one (no If-Match, or
 * `*`) reads the frame again and is written on the new revision, as if the two writes had come
 * one after the other: the last writer wins, and neither answers an error it did not ask for.
 */
export async function unlessOvertaken<T>(ifMatch: string | undefined, attempt: () => Promise<T>): Promise<T> {
  const conditional =
    ifMatch !== undefined && ifMatch.trim() !== "" && !ifMatch.split(",").some((tag) => tag.trim() === "*");
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof Overtaken)) throw error;
      if (conditional || tries >= ATTEMPTS)
        throw fail(
          "precondition_failed",
          { sha256: error.sha256 },
          `The frame changed while this ${error.what} was prepared; read it again.`,
        );
    }
  }
}
