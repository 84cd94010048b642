// Every kind a bundle holds, in the order an import writes them: what others refer to first
// (languages before anything written in a language, media before the frames and stylesheets
// naming it, frames before the pages standing on them, pages before the menus, sidebars and
// forms naming them). Deletes (replace) run in the reverse order.
import { forms } from "./forms.ts";
import { frames } from "./frames.ts";
import type { BundleKind } from "./kind.ts";
import { media, mediaTexts } from "./media.ts";
import { menus } from "./menus.ts";
import { pages } from "./pages.ts";
import { data, sidebars, strings } from "./per-language.ts";
import { redirects } from "./redirects.ts";
import { languages, seo, settings } from "./site-facts.ts";
import { styles } from "./styles.ts";

export const KINDS: readonly BundleKind[] = [
  languages,
  settings,
  strings,
  media,
  mediaTexts,
  styles,
  frames,
  pages,
  menus,
  sidebars,
  data,
  forms,
  seo,
  redirects,
];

/** The kind an entry belongs to, and the object it names; null when no kind has a place for it. */
export function objectAt(path: string): { kind: BundleKind; name: string } | null {
  for (const kind of KINDS) {
    const name = kind.nameOf(path);
    if (name !== null) return { kind, name };
  }
  return null;
}
