// What network services need besides the database: the clock and how a site's address is made.
import type { Clock } from "../clock.ts";
import type { Db } from "../store/database.ts";

export interface NetworkContext {
  db: Db;
  clock: Clock;
  /** Port the public site is served on; part of every site's home_url. */
  publicPort: number;
}

/** `http://<domain>[:port]/`: the address where the site's public pages answer. */
export function homeUrl(domain: string, port: number): string {
  return `http://${domain}${port === 80 || port === 0 ? "" : `:${port}`}/`;
}
