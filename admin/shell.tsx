// The frame of every screen once signed in (docs/admin.md): the Site control, the navigation
// landmark with a link per screen, Sign out, and the screen itself in the main landmark.
import type { ComponentChildren } from "preact";
import { hrefOf, navigate, onLink, type Route, type Screen } from "./route.ts";
import type { Session } from "./session.ts";
import type { Texts } from "./texts.ts";

/** The screens built so far, in the navigation's order. */
export const BUILT_SCREENS: readonly Screen[] = ["pages", "frames", "menus", "media", "history", "settings"];

export function Shell(props: {
  texts: Texts;
  session: Session;
  route: Route & { siteId: number };
  onSignOut: () => void;
  children: ComponentChildren;
}) {
  const { texts, session, route } = props;
  const names: Partial<Record<Screen, string>> = {
    pages: texts.pages,
    frames: texts.frames,
    menus: texts.menus,
    media: texts.media,
    history: texts.history,
    settings: texts.settings,
  };
  return (
    <div class="shell">
      <header class="bar">
        <label htmlFor="site">{texts.site}</label>
        <select
          id="site"
          value={String(route.siteId)}
          onChange={(event) =>
            navigate({ siteId: Number(event.currentTarget.value), screen: route.screen, item: null })
          }
        >
          {session.sites.map((site) => (
            <option key={site.id} value={String(site.id)}>
              {site.name}
            </option>
          ))}
        </select>
        <span class="who">{texts.signedInAs(session.user.login)}</span>
        <button type="button" onClick={props.onSignOut}>
          {texts.signOut}
        </button>
      </header>
      <nav aria-label={texts.navigation}>
        <ul>
          {BUILT_SCREENS.map((screen) => {
            const to = { siteId: route.siteId, screen, item: null };
            return (
              <li key={screen}>
                <a href={hrefOf(to)} onClick={onLink(to)} aria-current={route.screen === screen ? "page" : undefined}>
                  {names[screen]}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      <main>{props.children}</main>
    </div>
  );
}
