// The admin (docs/admin.md): the sign-in screen until there is a live session (a reload keeps it:
// the session is asked for first), then the screen the address names, in the shell.
import { useEffect, useState } from "preact/hooks";
import { FrameEditor } from "./frames/editor.tsx";
import { FrameList } from "./frames/list.tsx";
import { PageEditor } from "./pages/editor.tsx";
import { PageList } from "./pages/list.tsx";
import { HistoryScreen } from "./history/screen.tsx";
import { MediaDetails } from "./media/details.tsx";
import { MediaList } from "./media/list.tsx";
import { MenuEditor } from "./menus/editor.tsx";
import { MenuList } from "./menus/list.tsx";
import { navigate, useRoute, type Route } from "./route.ts";
import { currentSession, signOut, type Session } from "./session.ts";
import { SettingsScreen } from "./settings/screen.tsx";
import { Shell } from "./shell.tsx";
import { SignIn } from "./sign-in.tsx";
import type { Texts } from "./texts.ts";

export function App(props: { texts: Texts }) {
  const { texts } = props;
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const route = useRoute();
  useEffect(() => {
    currentSession()
      .then(setSession)
      .catch(() => setSession(null));
  }, []);

  if (session === undefined) return <p>{texts.loading}</p>;
  if (session === null)
    return (
      <SignIn
        texts={texts}
        onSignedIn={(started) => {
          setSession(started);
          const first = started.sites[0];
          if (first) navigate({ siteId: first.id, screen: "pages", item: null }, true);
        }}
      />
    );
  const reachable = session.sites.find((site) => site.id === route.siteId) ?? session.sites[0];
  if (!reachable) return <p role="alert">{texts.noSites}</p>;
  const here = { ...route, siteId: reachable.id };
  const leave = () => {
    signOut(session)
      .catch(() => {})
      .finally(() => {
        setSession(null);
        navigate({ siteId: null, screen: "pages", item: null }, true);
      });
  };
  return (
    <Shell texts={texts} session={session} route={here} onSignOut={leave}>
      <ScreenOf texts={texts} session={session} route={here} />
    </Shell>
  );
}

/** The screen the route names: its list, or the item it opens. */
function ScreenOf(props: { texts: Texts; session: Session; route: Route & { siteId: number } }) {
  const { texts, session, route } = props;
  const common = { texts, session, siteId: route.siteId };
  const { item } = route;
  switch (route.screen) {
    case "history":
      return <HistoryScreen {...common} />;
    case "settings":
      return <SettingsScreen {...common} />;
    case "frames":
      return item === null ? <FrameList {...common} /> : <FrameEditor {...common} item={item} />;
    case "menus":
      return item === null ? <MenuList {...common} /> : <MenuEditor {...common} item={item} />;
    case "media":
      return item === null ? <MediaList {...common} /> : <MediaDetails {...common} item={item} />;
    default:
      return item === null ? <PageList {...common} /> : <PageEditor {...common} item={item} />;
  }
}
