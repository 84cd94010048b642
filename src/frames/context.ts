// What frame services need: the database, the clock and the publish step.
import type { Clock } from "../clock.ts";
import type { Publisher } from "../publish/changes.ts";
import type { Db } from "../store/database.ts";

export interface FramesContext {
  db: Db;
  clock: Clock;
  publisher: Publisher;
  publicPort: number;
}
