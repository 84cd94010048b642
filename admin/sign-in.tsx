// The sign-in screen: Login, Password, Sign in (Enter submits too). A refusal shows the API's
// message in the alert, which screen readers announce; nothing else is shown before sign-in.
import { useState } from "preact/hooks";
import type { TargetedSubmitEvent } from "preact";
import { signIn, type Session } from "./session.ts";
import type { Texts } from "./texts.ts";

export function SignIn(props: { texts: Texts; onSignedIn: (session: Session) => void }) {
  const { texts } = props;
  const [login, setLogin] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError("");
    const result = await signIn(login, password);
    setBusy(false);
    if (result.ok) props.onSignedIn(result.session);
    else setError(result.message ?? texts.unreachable);
  }

  return (
    <main class="sign-in">
      <h1>{texts.signInHeading}</h1>
      <form onSubmit={submit}>
        <label htmlFor="login">{texts.login}</label>
        <input
          id="login"
          name="login"
          autocomplete="username"
          required
          value={login}
          onInput={(event) => setLogin(event.currentTarget.value)}
        />
        <label htmlFor="password">{texts.password}</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onInput={(event) => setPassword(event.currentTarget.value)}
        />
        <p role="alert" class="error">
          {error}
        </p>
        <button type="submit" disabled={busy}>
          {texts.signIn}
        </button>
      </form>
    </main>
  );
}
