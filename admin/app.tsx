// The admin (docs/admin.md): the sign-in screen until there is a live session (a reload keeps it:
// the session is asked for first), then the screen the address names, in the shell.
import { useEffect, useState } from "preact/hooks";
import { FrameEditor } from "./frames/editor.tsx";
import { FrameList } from "./frames/list.tsx";
import { PageEditor } from "./pages/editor.tsx";
import { PageList } from "./pages/list.tsx";
import { navigate, type Route, useRoute } from "./route.ts";
import { currentSession, signOut, type Session } from "./session.ts";
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

/** The screen the route names (a screen not built yet opens Pages), its list or one of its items. */
function ScreenOf(props: { texts: Texts; session: Session; route: Route & { siteId: number } }) {
  const { texts, session, route } = props;
  const common = { texts, session, siteId: route.siteId };
  if (route.screen === "frames")
    return route.item === null ? <FrameList {...common} /> : <FrameEditor {...common} item={route.item} />;
  return route.item === null ? <PageList {...common} /> : <PageEditor {...common} item={route.item} />;
}
