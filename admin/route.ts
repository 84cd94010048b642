// Where the admin is: its address under /admin/ names the site, the screen and the item, so a
// reload, a bookmark and the browser's back button all land on the same screen (docs/admin.md).
import { useEffect, useState } from "preact/hooks";

export const SCREENS = ["pages", "frames", "menus", "media", "history", "settings"] as const;
export type Screen = (typeof SCREENS)[number];

export interface Route {
  siteId: number | null;
  screen: Screen;
  /** The item the screen opens (a page id, a frame slug…), `new` for a new one, or null for the list. */
  item: string | null;
}

const BASE = "/admin/";

/** The route an address names; anything else is the Pages screen of the first site. */
export function routeOf(pathname: string): Route {
  const parts = pathname.startsWith(BASE) ? pathname.slice(BASE.length).split("/").filter(Boolean) : [];
  const siteId = parts[0] === "sites" && /^[1-9]\d{0,9}$/.test(parts[1] ?? "") ? Number(parts[1]) : null;
  const screen = SCREENS.find((name) => name === parts[2]) ?? "pages";
  const item = siteId !== null && parts[3] ? decodeURIComponent(parts[3]) : null;
  return { siteId, screen, item };
}

export function hrefOf(route: Route): string {
  if (route.siteId === null) return BASE;
  const item = route.item === null ? "" : `/${encodeURIComponent(route.item)}`;
  return `${BASE}sites/${route.siteId}/${route.screen}${item}`;
}

const CHANGED = "admin:route";

/** Goes to `route`; `replace` keeps the browser's history as it is (a new page saved gets its address). */
export function navigate(route: Route, replace = false): void {
  const href = hrefOf(route);
  if (replace) history.replaceState(null, "", href);
  else history.pushState(null, "", href);
  window.dispatchEvent(new Event(CHANGED));
}

/** The route of the address, kept up to date through navigate and the back and forward buttons. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(location.pathname));
  useEffect(() => {
    const update = () => setRoute(routeOf(location.pathname));
    window.addEventListener("popstate", update);
    window.addEventListener(CHANGED, update);
    return () => {
      window.removeEventListener("popstate", update);
      window.removeEventListener(CHANGED, update);
    };
  }, []);
  return route;
}

/** A link that moves within the admin without loading it again (a real link otherwise: new tab, copy). */
export function onLink(route: Route) {
  return (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(route);
  };
}
