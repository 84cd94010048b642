// Sidebars' history (docs/revisions.md): kept by the sidebar's name, through all its languages. A restore
// writes every language's tree of the revision at once (sidebars/state-service.ts); a sidebar
// brought back from the trash gets its trees and item ids back. A sidebar made again by a PUT
// meanwhile took its history over (it left the trash then); one made otherwise: 409 slug_taken.
import { fail } from "../errors.ts";
import { leaveTrash } from "../revisions/trash.ts";
import { sidebarNameFrom } from "../sidebars/input.ts";
import { currentSidebarSnapshot, sidebarStateOf } from "../sidebars/revision.ts";
import { writeSidebarState } from "../sidebars/state-service.ts";
import type { HistoryKind } from "./kind.ts";

export const sidebarHistory: HistoryKind = {
  kind: "sidebars",
  written: "sidebar",
  path: "/sidebars/:name",
  param: "name",
  noun: "sidebar",

  async locate(call, ref) {
    const name = sidebarNameFrom(ref);
    const current = await currentSidebarSnapshot(call.ctx.db, call.site.id, name);
    if (!current) throw fail("sidebar_not_found", { name });
    return { id: name, current };
  },

  async restore(call, id, state) {
    return writeSidebarState(call.ctx, call.site, sidebarStateOf(id, state.fields), { create: false });
  },

  async undelete(call, entry, state) {
    return writeSidebarState(call.ctx, call.site, sidebarStateOf(entry.id, state.fields), {
      create: true,
      within: (trx) => leaveTrash(trx, call.site.id, "sidebars", entry.id),
    });
  },
};
