// The box `svc dev` shows over a page whose markup has warnings, or that could not be previewed
// (docs/cli.md, "svc dev"): one entry per warning — its code, the file, line and column, and the
// message. A non-modal dialog named by its heading, with a Dismiss button (Escape closes it too);
// its own colours, with the contrast WCAG AA asks, whatever the page's stylesheets say. Pure.

/** One entry of the overlay. */
export interface OverlayEntry {
  code: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

export const OVERLAY_ID = "svc-dev-overlay";

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

/** Where an entry points: `frames/page.html:5:59`. */
export function placeOf(entry: OverlayEntry): string {
  if (!entry.file) return "";
  return `${entry.file}${entry.line ? `:${entry.line}${entry.column ? `:${entry.column}` : ""}` : ""}`;
}

/**
 * A warning or refusal of the service as an entry: `frame` (or the first frame of a `cycle`) names
 * frames/<slug>.html, a field `frames.<slug>` or `styles.<name>` its file, else `file` given.
 */
export function entryOf(warning: Record<string, unknown>, file?: string): OverlayEntry {
  const cycle = Array.isArray(warning.cycle) ? warning.cycle[0] : undefined;
  const frame = typeof warning.frame === "string" ? warning.frame : typeof cycle === "string" ? cycle : null;
  const field = typeof warning.field === "string" ? /^frames\.(.+)$/.exec(warning.field) : null;
  const styleField = typeof warning.field === "string" ? /^styles\.(.+)$/.exec(warning.field) : null;
  const named = frame
    ? `frames/${frame}.html`
    : field
      ? `frames/${field[1]}.html`
      : styleField
        ? `styles/${styleField[1]}.css`
        : file;
  return {
    code: String(warning.code ?? warning.error ?? "warning"),
    message: String(warning.message ?? ""),
    ...(named ? { file: named } : {}),
    ...(typeof warning.line === "number" ? { line: warning.line } : {}),
    ...(typeof warning.column === "number" ? { column: warning.column } : {}),
  };
}

const BOX =
  "position:fixed;z-index:2147483647;inset:auto 1rem 1rem 1rem;max-height:60vh;overflow:auto;margin:0;padding:1rem 1.25rem;" +
  "background:#1d1d1f;color:#ffffff;font:15px/1.5 system-ui,sans-serif;border:2px solid #ffb000;border-radius:6px;" +
  "box-shadow:0 4px 24px rgba(0,0,0,.4);text-align:left";
const BUTTON =
  "font:inherit;color:#1d1d1f;background:#ffb000;border:0;border-radius:4px;padding:.35rem .9rem;cursor:pointer";

/** The overlay's markup, or "" without entries. */
export function overlayHtml(title: string, entries: readonly OverlayEntry[]): string {
  if (entries.length === 0) return "";
  const items = entries
    .map((entry) => {
      const place = placeOf(entry);
      return `<li style="margin:.4rem 0"><code style="color:#ffd27a;font-weight:bold">${escapeHtml(entry.code)}</code>${place ? ` <span style="color:#cfe3ff">${escapeHtml(place)}</span>` : ""}<br>${escapeHtml(entry.message)}</li>`;
    })
    .join("");
  return `<div id="${OVERLAY_ID}" role="dialog" aria-labelledby="${OVERLAY_ID}-title" style="${BOX}"><h2 id="${OVERLAY_ID}-title" style="margin:0 0 .5rem;font-size:1.1rem;color:#ffffff">${escapeHtml(title)}</h2><ul style="margin:0 0 .75rem;padding-left:1.25rem">${items}</ul><button type="button" id="${OVERLAY_ID}-close" style="${BUTTON}">Dismiss</button></div>`;
}
