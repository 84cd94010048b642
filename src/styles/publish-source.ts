// What the publish engine reads of stylesheets (publish/contract.ts PublishSources.styles): the
// current address of each stylesheet a render links (its bundle made again first when what it is
// made from changed, copies.ts), and the stylesheets whose bundles point to given media files.
import type { Clock } from "../clock.ts";
import type { PublishSources } from "../publish/contract.ts";
import { refreshCopies } from "./copies.ts";
import { importersOf } from "./graph.ts";
import { importMapOf, themeSheets } from "./queries.ts";

export function stylePublishSource(clock: Clock): PublishSources["styles"] {
  return {
    async links(db, siteId, theme, names) {
      const { current } = await refreshCopies(db, clock(), siteId, theme, names, { refuse: false });
      return new Map([...current].map(([name, copy]) => [name, copy.url]));
    },
    async usingMedia(db, siteId, theme, refs) {
      const sheets = await themeSheets(db, siteId, theme);
      const wanted = new Set(refs);
      const direct = [...sheets.values()].filter((sheet) => sheet.media.some((ref) => wanted.has(ref))).map((sheet) => sheet.name);
      return direct.length === 0 ? [] : [...direct, ...importersOf(direct, importMapOf(sheets))].sort();
    },
  };
}
