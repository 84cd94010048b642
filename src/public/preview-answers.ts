// Preview-link answers kept a few seconds (docs/security.md, "Fair between sites"). A preview link
// shows a page as it stands, rendered on request and never a static copy; anyone holding the link
// may ask for it, so a link handed around (or hit on purpose) rendered the page again on every
// request and filled the render workers. Answers (a page, or the 503 of a render that failed or
// passed a budget) are kept here per site, page and language for KEEP_MS, and requests that arrive
// while one is being rendered wait for that render instead of starting their own. A flush of the
// site's pages (any publish of a write of that site: page-cache.ts tickets) drops what was rendered
// before it, so an editor who saves and reloads sees the change at once.
import { OverBudget } from "../markup/index.ts";
import { ExecutorUnavailable } from "../publish/executor.ts";
import type { PageCache } from "../publish/page-cache.ts";

/** How long a preview answer is kept. */
export const KEEP_MS = 5_000;
/** Answers kept at most, every site together (oldest first out). */
const MAX_KEPT = 1_000;

export type PreviewOutput = { html: string | null } | { failed: Error };

interface Kept {
  siteId: number;
  ticket: number;
  until: number;
  output: Promise<PreviewOutput>;
}

export class PreviewAnswers {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly pages: PageCache) {}

  /** The kept answer for this page in this language, else `render`'s (shared with requests meanwhile). */
  async answer(
    siteId: number,
    pageId: number,
    lang: string | null,
    render: () => Promise<string | null>,
  ): Promise<PreviewOutput> {
    const key = `${siteId}:${pageId}:${lang ?? ""}`;
    const held = this.kept.get(key);
    if (held !== undefined && held.until > Date.now() && !this.pages.flushedSince(siteId, held.ticket))
      return held.output;
    if (held !== undefined) this.kept.delete(key);
    const ticket = this.pages.ticket();
    const output = render().then(
      (html): PreviewOutput => ({ html }),
      (error: unknown): PreviewOutput => {
        // Only a render that failed is kept (the 503 it answers); any other error is not.
        if (!(error instanceof ExecutorUnavailable || error instanceof OverBudget)) this.kept.delete(key);
        return { failed: error instanceof Error ? error : new Error(String(error)) };
      },
    );
    this.kept.set(key, { siteId, ticket, until: Date.now() + KEEP_MS, output });
    while (this.kept.size > MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
    return output;
  }
}
