// Helpers for the menu tests: short calls for menus and languages, and a store trigger that
// makes location-map writes vanish (to see `menu_assignment_not_stored`).
import assert from "node:assert/strict";
import { sql } from "kysely";
import type { Change } from "../../src/write/change.ts";
import type { Publisher } from "../../src/write/context.ts";
import type { TestApp } from "../support/app.ts";
import { S } from "../support/site.ts";

export const M = `${S}/menus`;
export const enc = encodeURIComponent;

/** POST /menus; asserts 201 and answers the body. */
export async function makeMenu(t: TestApp, body: Record<string, unknown>, site = S): Promise<any> {
  const r = await t.call("POST", `${site}/menus`, { body });
  assert.equal(r.status, 201, `menu ${JSON.stringify(body).slice(0, 200)}: ${r.text}`);
  return r.body;
}

export async function addLanguage(
  t: TestApp,
  code: string,
  extra: Record<string, unknown> = {},
  site = S,
): Promise<void> {
  const r = await t.call("POST", `${site}/languages`, { body: { code, ...extra } });
  assert.ok(r.status === 200 || r.status === 201, `language ${code}: ${r.status} ${r.text}`);
}

/** GET /data/menu.<location>; asserts 200. */
export async function menuSource(t: TestApp, location: string, lang?: string, site = S): Promise<any> {
  const r = await t.call("GET", `${site}/data/menu.${location}${lang ? `?lang=${lang}` : ""}`);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

/** Titles of a nested tree, children in brackets: `A, B[C, D]`. */
export function shape(items: any[]): string {
  return items.map((item) => `${item.title}${item.children?.length ? `[${shape(item.children)}]` : ""}`).join(", ");
}

/** While installed, every write to menu_locations is lost (a trigger, in either dialect). */
export async function dropLocationWrites(t: TestApp): Promise<() => Promise<void>> {
  const db = t.store.db;
  if (t.store.dialect === "postgres") {
    await sql`CREATE FUNCTION menu_locations_lost() RETURNS trigger AS $$ BEGIN RETURN NULL; END $$ LANGUAGE plpgsql`.execute(
      db,
    );
    await sql`CREATE TRIGGER menu_locations_lost BEFORE INSERT OR UPDATE ON menu_locations FOR EACH ROW EXECUTE FUNCTION menu_locations_lost()`.execute(
      db,
    );
    return async () => {
      await sql`DROP TRIGGER menu_locations_lost ON menu_locations`.execute(db);
      await sql`DROP FUNCTION menu_locations_lost()`.execute(db);
    };
  }
  await sql`CREATE TRIGGER menu_locations_lost_insert AFTER INSERT ON menu_locations BEGIN DELETE FROM menu_locations WHERE rowid = NEW.rowid; END`.execute(
    db,
  );
  await sql`CREATE TRIGGER menu_locations_lost_update AFTER UPDATE ON menu_locations BEGIN DELETE FROM menu_locations WHERE rowid = NEW.rowid; END`.execute(
    db,
  );
  return async () => {
    await sql`DROP TRIGGER menu_locations_lost_insert`.execute(db);
    await sql`DROP TRIGGER menu_locations_lost_update`.execute(db);
  };
}

/** While installed, inserting a menu item with url `/boom` fails (a trigger, in either dialect). */
export async function failItemInserts(t: TestApp): Promise<() => Promise<void>> {
  const db = t.store.db;
  if (t.store.dialect === "postgres") {
    await sql`CREATE FUNCTION menu_items_boom() RETURNS trigger AS $$ BEGIN IF NEW.url = '/boom' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`.execute(
      db,
    );
    await sql`CREATE TRIGGER menu_items_boom BEFORE INSERT ON menu_items FOR EACH ROW EXECUTE FUNCTION menu_items_boom()`.execute(
      db,
    );
    return async () => {
      await sql`DROP TRIGGER menu_items_boom ON menu_items`.execute(db);
      await sql`DROP FUNCTION menu_items_boom()`.execute(db);
    };
  }
  await sql`CREATE TRIGGER menu_items_boom BEFORE INSERT ON menu_items WHEN NEW.url = '/boom' BEGIN SELECT RAISE(ABORT, 'boom'); END`.execute(
    db,
  );
  return async () => void (await sql`DROP TRIGGER menu_items_boom`.execute(db));
}

/** Wraps the app's publisher to record every announced change (it still publishes). */
export function recordChanges(t: TestApp): { changes: Change[]; restore(): void } {
  const real = t.deps.publisher;
  const changes: Change[] = [];
  const spy: Publisher = {
    check: (trx, siteId, list, options) => real.check(trx, siteId, list, options),
    async changed(siteId, list, options) {
      changes.push(...list);
      return real.changed(siteId, list, options);
    },
  };
  t.deps.publisher = spy;
  const restore = () => {
    t.deps.publisher = real;
  };
  return { changes, restore };
}
