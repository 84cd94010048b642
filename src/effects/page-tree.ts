// A site's pages as the effects module and the engine walk them: the light columns of a page and
// the tree they form (the pages feature's PageTree implements it), and which pages a step reads.
import type { PageRow } from "../store/schema.ts";

/** The light columns of a page that tree walks need (visibility, descendants, translations, feeds). */
export type PageLite = Pick<
  PageRow,
  "id" | "parent_id" | "status" | "lang" | "slug" | "path" | "title" | "translation_group" | "frame_id" | "feed"
>;

/** A site's pages held in memory (the pages feature's PageTree). */
export interface PageTreeView {
  get(id: number): PageLite | undefined;
  all(): IterableIterator<PageLite>;
  children(id: number): PageLite[];
  descendants(id: number): PageLite[];
  /** Published, and every ancestor published. */
  visible(id: number): boolean;
}

/** Which pages a publish step reads: a write costs what it changes, not the size of the site. */
export interface PageScope {
  /** These pages. */
  pages?: readonly number[];
  /** These pages with their translation partners. */
  partners?: readonly number[];
  /** These pages with their children, descendants and translation partners. */
  families?: readonly number[];
  /** Every page standing on these frames. */
  onFrames?: readonly string[];
}
