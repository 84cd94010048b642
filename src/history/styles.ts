// Stylesheets' history (docs/revisions.md "Stylesheets"): kept under `theme:name`
// (styles/revision.ts), found by the name and `?theme` (default: the site's theme). A restore puts
// the revision's CSS back through PUT /styles/{name} (parsed, imports and media checked, bundled,
// revised, rebaked); so does a stylesheet brought back from the trash, unless one was made under
// its name meanwhile (409 slug_taken with its id). An `@import` of a stylesheet gone since is the
// write's own refusal (422 invalid_css), nothing written.
import { themeFrom } from "../menus/locations.ts";
import { styleNameFrom, styleNotFound } from "../styles/names.ts";
import { sheetsCss } from "../styles/queries.ts";
import { styleObjectId, styleOfObjectId, styleSnapshot } from "../styles/revision.ts";
import { putStyle, type StyleWriteAnswer } from "../styles/write-service.ts";
import type { HistoryKind, RestoreAnswer } from "./kind.ts";

function answerOf(done: StyleWriteAnswer): RestoreAnswer {
  return { body: { style: done.style, created: done.created, rebaked: done.rebaked, warnings: done.warnings } };
}

export const styleHistory: HistoryKind = {
  kind: "styles",
  written: "style",
  path: "/styles/:name",
  param: "name",
  addressOf(id) {
    const { theme, name } = styleOfObjectId(id);
    return `/styles/${encodeURIComponent(name)}?theme=${encodeURIComponent(theme)}`;
  },
  noun: "stylesheet",
  themeVariants: true,

  async locate(call, ref) {
    const name = styleNameFrom(ref);
    const { theme } = await themeFrom(call.ctx.db, call.site.id, call.query.theme);
    const css = (await sheetsCss(call.ctx.db, call.site.id, theme, [name])).get(name);
    if (css === undefined) throw styleNotFound(name, theme);
    return { id: styleObjectId(theme, name), current: styleSnapshot(theme, name, css) };
  },

  async restore(call, id, state) {
    const { theme, name } = styleOfObjectId(id);
    return answerOf(await putStyle(call.ctx, call.site, name, { css: state.content, theme }, false));
  },

  async undelete(call, entry, state) {
    // putStyle takes it out of the trash when it makes the stylesheet, in its transaction.
    const { theme, name } = styleOfObjectId(entry.id);
    return answerOf(await putStyle(call.ctx, call.site, name, { css: state.content, theme }, false, { onlyNew: true }));
  },
};
