// The admin's screens: sign-in until the service accepts a sign-in, then the Pages screen (a
// placeholder until its list and editor are built; docs/admin.md).
import { useEffect, useRef, useState } from "preact/hooks";
import type { SignedInUser } from "./api.ts";
import { SignIn } from "./sign-in.tsx";
import type { Texts } from "./texts.ts";

function Pages(props: { texts: Texts; user: SignedInUser }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The new screen's heading takes the focus, so a screen reader starts reading there.
  useEffect(() => heading.current?.focus(), []);
  return (
    <main>
      <h1 ref={heading} tabIndex={-1}>
        {props.texts.pages}
      </h1>
      <p>{props.texts.signedInAs(props.user.login)}</p>
    </main>
  );
}

export function App(props: { texts: Texts }) {
  const [user, setUser] = useState<SignedInUser | null>(null);
  if (user === null) return <SignIn texts={props.texts} onSignedIn={setUser} />;
  return <Pages texts={props.texts} user={user} />;
}
