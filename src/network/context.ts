// What network services need besides the database: the clock and how a site's address is made.
import type { Clock } from "../clock.ts";
import type { Db } from "../store/database.ts";

export interface NetworkContext {
  db: Db;
  clock: Clock;
  /** Port the public site is served on; part of every site's home_url. */
  publicPort: number;
}
