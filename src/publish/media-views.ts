// Media files as a render prints them (docs/media.md, "Rendering"): asked for by ref in one query,
// with the alt text in the output's language. Frames' `media.<ref>` sources and Markdown content's
// `media:` references read them alike.
import type { MediaView } from "../markup/index.ts";
import type { Db } from "../store/database.ts";
import { mediaByRefs, type MediaForRender } from "../media/queries.ts";
import type { SiteState } from "./site-state.ts";

/**
 * The alt text of a file in the output's language, else in the default language (where a site
 * without languages keeps its texts, when it has a language setting), else the one stored without
 * a language ("": a site without either when it was written); "" when none was given.
 */
function altIn(alt: MediaForRender["alt"], state: SiteState, lang: string | null): string {
  const { active, defaultLang } = state.addressing.langs;
  for (const key of [active ? lang : null, defaultLang, ""]) {
    if (key !== null && Object.hasOwn(alt, key)) return alt[key]!;
  }
  return "";
}

/** The media files these refs name, in one query, as the renderer prints them. */
export async function mediaViews(
  db: Db,
  state: SiteState,
  refs: readonly string[],
  lang: string | null,
): Promise<Array<[string, MediaView]>> {
  if (refs.length === 0) return [];
  const found = await mediaByRefs(db, state.site.id, refs);
  return [...found].map(([ref, file]): [string, MediaView] => [
    ref,
    {
      url: file.url,
      alt: altIn(file.alt, state, lang),
      width: file.width,
      height: file.height,
      image: file.mime.startsWith("image/"),
      variants: file.variants,
    },
  ]);
}
