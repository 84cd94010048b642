// Retention in the background (docs/revisions.md): a minute after start and then every
// hour, each object keeps its last SVC_REVISIONS_KEEP revisions and deleted objects older than
// SVC_TRASH_DAYS go with their history. Several processes on one database may each prune: a
// pass deletes only what is past the limits, so running it twice removes nothing more. What a
// pass deletes is freed from its site's stored_bytes in the same transaction (trash.ts).
import type { Clock } from "../clock.ts";
import type { Db } from "../store/database.ts";
import { prune } from "./trash.ts";

export interface Retention {
  keep: number;
  days: number;
}

export interface PruneLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

const FIRST_PASS_MS = 60_000;
const EVERY_MS = 3_600_000;

/** Starts the pruning timer (unref'd: it never keeps the process alive); answers its stop. */
export function startPruning(db: Db, retention: Retention, clock: Clock, log: PruneLog): () => void {
  let running = false;
  const pass = async () => {
    if (running) return;
    running = true;
    try {
      const removed = await prune(db, retention.keep, retention.days, new Date(clock()));
      if (removed.revisions + removed.trashed > 0) log.info(removed, "revisions pruned");
    } catch (error) {
      log.error({ err: error }, "pruning revisions failed; tried again in an hour");
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void pass(), FIRST_PASS_MS);
  const every = setInterval(() => void pass(), EVERY_MS);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
