// What `svc dev` changes in the HTML it serves, and only there (never in a file of the folder,
// never on the service): addresses on the site's origin point at the dev server, so links stay in
// the preview; and before `</body>` the overlay of warnings (overlay.ts) and a small script that
// reloads the page when the dev server's event stream (EVENTS_PATH) says a file was saved, and
// closes the overlay on Dismiss or Escape. Pure.
import { OVERLAY_ID } from "./overlay.ts";

/** The dev server's own addresses start here; no page of a site does (page slugs have no `_`). */
export const DEV_PREFIX = "/__svc/";
export const EVENTS_PATH = `${DEV_PREFIX}events`;

const SCRIPT = `<script id="svc-dev-reload">(() => {
  const events = new EventSource(${JSON.stringify(EVENTS_PATH)});
  events.addEventListener("reload", () => location.reload());
  const overlay = document.getElementById(${JSON.stringify(OVERLAY_ID)});
  if (!overlay) return;
  const close = () => overlay.remove();
  document.getElementById(${JSON.stringify(`${OVERLAY_ID}-close`)}).addEventListener("click", close);
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") close(); });
})();</script>`;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `html` with the site's origin made the dev server's, and the overlay and reload script before `</body>`. */
export function injectDev(html: string, siteOrigin: string, devOrigin: string, overlay: string): string {
  let out = siteOrigin
    ? html.replace(new RegExp(`${escapeRegExp(siteOrigin)}(?=[/"'?#\\s<]|$)`, "g"), devOrigin)
    : html;
  const tail = `${overlay}${SCRIPT}`;
  const end = out.toLowerCase().lastIndexOf("</body>");
  out = end === -1 ? `${out}${tail}` : `${out.slice(0, end)}${tail}${out.slice(end)}`;
  return out;
}
