// Which pages a frame's markup reaches: the pages on it, and the pages on every frame that embeds
// it or is printed inside it as its layout, however deep (docs/frames.md). The frame editor shows
// them beside Save and offers them to the preview.

export interface FrameLinks {
  slug: string;
  frame_refs: readonly string[];
  layout?: string | null;
}

export interface PageOnFrame {
  id: number;
  title: string;
  frame: string | null;
  status: "publish" | "future" | "draft" | "trash";
  lang: string | null;
}

/** The slugs of `slug` and of every frame that uses it, directly or through others. */
export function framesUsing(slug: string, frames: readonly FrameLinks[]): Set<string> {
  const found = new Set([slug]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const frame of frames) {
      if (found.has(frame.slug)) continue;
      if (frame.frame_refs.some((used) => found.has(used)) || (frame.layout && found.has(frame.layout))) {
        found.add(frame.slug);
        grew = true;
      }
    }
  }
  return found;
}

/** The pages (trash left out) whose output the frame's markup is part of, those on the frame itself first. */
export function pagesReached(
  slug: string,
  frames: readonly FrameLinks[],
  pages: readonly PageOnFrame[],
): PageOnFrame[] {
  const using = framesUsing(slug, frames);
  const live = pages.filter((page) => page.status !== "trash" && page.frame !== null && using.has(page.frame));
  return [...live.filter((page) => page.frame === slug), ...live.filter((page) => page.frame !== slug)];
}
