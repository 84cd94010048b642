// What menu services need besides plain values: the database, the clock, the public port (item
// addresses are absolute) and the publish step.
import type { AppDeps } from "../app-deps.ts";
import type { Clock } from "../clock.ts";
import type { Change, Rebaked } from "../publish/changes.ts";
import type { Db } from "../store/database.ts";

export interface MenusContext {
  db: Db;
  clock: Clock;
  publicPort: number;
  /** Hands committed changes to the publish step; answers the `rebaked` report. */
  announce(siteId: number, changes: Change[]): Promise<Rebaked>;
}

/**
 * The public port of the app that serves a database. The data seam (`menuSourceItems(db, siteId,
 * query)`) receives no port, yet item addresses are absolute; the menu routes record it here
 * when the app is built. One entry per store, so several apps in one process stay apart.
 */
const portsByDb = new WeakMap<Db, number>();

export const DEFAULT_PUBLIC_PORT = 8080;

export function rememberPublicPort(db: Db, port: number): void {
  portsByDb.set(db, port);
}

export function publicPortOf(db: Db): number {
  return portsByDb.get(db) ?? DEFAULT_PUBLIC_PORT;
}

export function menusContext(deps: AppDeps): MenusContext {
  rememberPublicPort(deps.store.db, deps.config.port);
  return {
    db: deps.store.db,
    clock: deps.clock,
    publicPort: deps.config.port,
    // Read at call time, so the publishing engine (or a test's recorder) can replace it.
    announce: (siteId, changes) => deps.publisher.changed(siteId, changes),
  };
}
