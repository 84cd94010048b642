// The setting `menu_locations` (docs/menus.md, "Locations"): the names of the places a theme prints
// menus, which menus are assigned to. Written by administrators through PATCH /settings; a
// location a menu is assigned to (in any theme or language map) cannot be removed: the write is
// refused with the assignments to free first (409 location_in_use), so no assignment is left
// pointing at a location the site no longer has.
import { fail } from "../errors.ts";
import { assignmentsAt, DEFAULT_MENU_LOCATIONS, siteMenuLocations } from "../site/menu-locations.ts";
import type { Db } from "../store/database.ts";

export const MAX_MENU_LOCATIONS = 50;
/** A location's name: a slug of lower-case letters and digits, `_` and `-` inside (`footer_1`), at most 50 characters. */
export const LOCATION_NAME = /^[a-z0-9](?:[a-z0-9_-]{0,48}[a-z0-9])?$/;

function refused(field: string, reason: string, message: string, details: Record<string, unknown> = {}): never {
  throw fail("invalid_field", { field, reason, ...details }, message);
}

/** The list PATCH /settings stores: null is the default locations; 1 to 50 unique names, each trimmed. */
export function menuLocationsFrom(value: unknown): string[] {
  if (value === null) return [...DEFAULT_MENU_LOCATIONS];
  if (!Array.isArray(value))
    refused("menu_locations", "not_a_list", "menu_locations must be a list of location names.");
  if (value.length === 0) refused("menu_locations", "empty", "menu_locations needs at least one location.");
  if (value.length > MAX_MENU_LOCATIONS)
    refused("menu_locations", "too_many", `menu_locations holds at most ${MAX_MENU_LOCATIONS} locations.`);
  const names: string[] = [];
  value.forEach((entry, index) => {
    const field = `menu_locations.${index}`;
    const name = typeof entry === "string" ? entry.trim() : "";
    if (!LOCATION_NAME.test(name))
      refused(
        field,
        "not_a_slug",
        `${field} is not a location name: lower-case letters and digits, with _ or - between them (footer_1).`,
        { pattern: LOCATION_NAME.source },
      );
    if (names.includes(name))
      refused(field, "duplicate", `${field} repeats "${name}": each location is named once.`, { location: name });
    names.push(name);
  });
  return names;
}

/**
 * In the settings write's transaction (after the site's counters are taken, so no other write of
 * the site's settings or menu assignments runs meanwhile): the locations the new list removes from
 * the stored one and adds to it, which frames reading menu.<location> of them print anew; 409
 * location_in_use when a menu is assigned to one it removes.
 */
export async function locationsMoved(trx: Db, siteId: number, next: readonly string[]): Promise<string[]> {
  const stored = await siteMenuLocations(trx, siteId);
  const removed = stored.filter((name) => !next.includes(name));
  const held = await assignmentsAt(trx, siteId, removed);
  if (held.length > 0)
    throw fail("location_in_use", {
      field: "menu_locations",
      locations: [...new Set(held.map((entry) => entry.location))],
      assigned: held,
    });
  return [...removed, ...next.filter((name) => !stored.includes(name))];
}
