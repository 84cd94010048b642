// A page as `svc dev` serves it (docs/cli.md, "svc dev"): the folder and the server read afresh
// for each page asked for, the address mapped to its page (addresses.ts), the folder's changes
// sent to POST /preview (changes.ts; a page file the service does not have yet as `new_page`,
// new-page.ts), and the answer's HTML served with the overlay of its warnings and the reload script
// (inject.ts). A refusal of the preview and a file that names no object are shown in the overlay
// too, on a page of their own.
import { ApiError } from "../../client/index.ts";
import { failure } from "../api.ts";
import type { Session } from "../commands/common.ts";
import { CliError } from "../errors.ts";
import type { Kind } from "../layout.ts";
import { readFolder } from "../local.ts";
import { readServer } from "../remote.ts";
import { addressMap, pageAddressOf } from "./addresses.ts";
import { previewChanges, type PreviewChanges } from "./changes.ts";
import { fileOfField, newPagePreview, type NewPagePreview } from "./new-page.ts";
import { injectDev } from "./inject.ts";
import { entryOf, overlayHtml, type OverlayEntry } from "./overlay.ts";

/** What a preview can show of the folder: the rest (menus, settings, media) is the server's. */
export const PREVIEWED: ReadonlySet<Kind> = new Set(["pages", "frames", "styles", "data"]);

export interface Rendered {
  status: number;
  html: string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** A page of the dev server's own, saying what went wrong in its overlay. */
function problemPage(status: number, title: string, entries: OverlayEntry[], devOrigin: string): Rendered {
  const body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title.replace(/</g, "&lt;")}</title></head><body><main><h1>svc dev</h1><p>This address could not be previewed; the box below says why.</p></main></body></html>`;
  return { status, html: injectDev(body, "", devOrigin, overlayHtml(title, entries)) };
}

/**
 * The body of POST /preview: the page by id, or a page file the service does not have yet as
 * `new_page` (new-page.ts); what holds nothing left out, so a preview without changes answers the
 * public bytes.
 */
function bodyOf(id: number | null, fresh: NewPagePreview | null, changes: PreviewChanges): Record<string, unknown> {
  const body: Record<string, unknown> = fresh ? { ...fresh.body } : { page: id };
  for (const key of ["frames", "styles", "data"] as const)
    if (Object.keys(changes[key]).length > 0) body[key] = changes[key];
  if (changes.page_fields && !fresh) body.page_fields = changes.page_fields;
  return body;
}

/** The page at `pathname` as the service would show it with the folder's changes; null when no page answers there. */
export async function renderAddress(session: Session, pathname: string, devOrigin: string): Promise<Rendered | null> {
  const folder = readFolder(session.dir, PREVIEWED);
  const server = await readServer(session.api, PREVIEWED);
  const map = addressMap(server.objects.values(), folder.objects.values(), server.facts.defaultLang);
  const page = map.get(pageAddressOf(pathname));
  if (!page) return null;
  const problems = folder.problems.map(
    (p): OverlayEntry => ({ code: "invalid_file", message: p.message, file: p.key }),
  );
  let changes: PreviewChanges;
  let fresh: NewPagePreview | null = null;
  try {
    changes = previewChanges(folder, server, page.key);
    const ref = folder.objects.get(page.key)?.ref;
    if (page.id === null && ref?.kind === "pages") fresh = newPagePreview(folder, server, ref.lang, ref.path);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    const [code, ...rest] = error.line.split(": ");
    return problemPage(422, "svc dev: a file cannot be previewed", [{ code, message: rest.join(": ") }], devOrigin);
  }
  const fileOf = (w: Record<string, unknown>) =>
    String(w.field ?? "").startsWith("page_fields") || w.code === "page_without_frame" ? page.key : undefined;
  // What the service says of a new page's body is its file's, whatever frame it names (frame_not_found).
  const entry = (w: Record<string, unknown>): OverlayEntry => {
    const own = fresh ? fileOfField(fresh, w.field) : undefined;
    const shown = entryOf(w, fileOf(w));
    return own ? { ...shown, file: own } : shown;
  };
  const answer = await session.api.site
    .POST("/preview", { body: bodyOf(page.id, fresh, changes) as never })
    .catch((error: unknown) => {
      throw failure(error, session.target.url);
    });
  if (!answer.response.ok || !answer.data) {
    const refusal = ApiError.from(answer.error, answer.response);
    const warning = { ...refusal.details, code: refusal.code, message: refusal.message };
    return problemPage(
      refusal.status,
      "svc dev: the service refused this preview",
      [entry(warning), ...problems],
      devOrigin,
    );
  }
  const warnings = (answer.data.warnings as Array<Record<string, unknown>>).map(entry);
  const entries = [...problems, ...warnings];
  const overlay = overlayHtml(`svc dev: ${plural(entries.length, "warning")}`, entries);
  return { status: 200, html: injectDev(answer.data.html, server.facts.origin, devOrigin, overlay) };
}
