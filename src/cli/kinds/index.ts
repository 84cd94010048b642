// The kinds whose reading, writing and checking live in a module of their own (kinds/module.ts);
// the first kinds of the folder (frames, stylesheets, media, pages, menus, data sets, settings)
// are read in remote.ts and written by write-bytes.ts and write-content.ts.
import type { Kind } from "../layout.ts";
import { languagesKind } from "./languages.ts";
import { mediaTextsKind } from "./media-texts.ts";
import type { KindModule } from "./module.ts";
import { redirectsKind } from "./redirects.ts";
import { seoKind } from "./seo.ts";
import { sidebarsKind } from "./sidebars.ts";
import { stringsKind } from "./strings.ts";

export const KIND_MODULES: Partial<Record<Kind, KindModule>> = {
  languages: languagesKind,
  strings: stringsKind,
  "media-texts": mediaTextsKind,
  sidebars: sidebarsKind,
  seo: seoKind,
  redirects: redirectsKind,
};
