// Menus' history (docs/revisions.md): kept by the menu's id, found by id, slug, name or ~location as
// GET /menus/{ref} finds it. A restore writes the revision's tree and location entries under the
// menu's current name and slug; a menu brought back from the trash gets its id, name, slug, tree
// (item ids kept) and the location entries still free (menus/state-service.ts).
import { fail } from "../errors.ts";
import { leaveTrash } from "../revisions/trash.ts";
import { resolveMenu } from "../menus/refs.ts";
import { currentMenuSnapshot, menuStateOf } from "../menus/revision.ts";
import { recreateMenu, restoreMenuState } from "../menus/state-service.ts";
import type { HistoryKind } from "./kind.ts";

function menuIdOf(id: string): number {
  const n = /^\d{1,15}$/.test(id) ? Number(id) : Number.NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw fail("menu_not_found", { ref: id });
  return n;
}

export const menuHistory: HistoryKind = {
  kind: "menus",
  written: "menu",
  path: "/menus/:ref",
  param: "ref",
  noun: "menu",

  async locate(call, ref) {
    const { menu } = await resolveMenu(call.ctx.db, call.site.id, ref);
    const current = await currentMenuSnapshot(call.ctx.db, call.site.id, menu.id);
    if (!current) throw fail("menu_not_found", { ref });
    return { id: String(menu.id), current };
  },

  async restore(call, id, state) {
    return restoreMenuState(call.ctx, call.site, menuIdOf(id), menuStateOf(state.fields));
  },

  async undelete(call, entry, state) {
    const kept = menuStateOf(state.fields);
    const slug = kept.slug || entry.slug;
    const name = kept.name || (typeof entry.extra.name === "string" ? entry.extra.name : slug);
    return recreateMenu(call.ctx, call.site, menuIdOf(entry.id), { ...kept, name, slug }, (trx) =>
      leaveTrash(trx, call.site.id, "menus", entry.id),
    );
  },
};
