// The admin's calls to the service: same origin, so the session cookie goes with them and nothing
// else may (docs/admin.md). Errors are the API's own envelope: its `message` is what the admin shows.

export interface SignedInUser {
  id: number;
  login: string;
}

export type SignInResult = { ok: true; user: SignedInUser } | { ok: false; message: string | null };

/** POST /api/login with `session: true`: the service sets the session cookie; no token is kept here. */
export async function signIn(login: string, password: string): Promise<SignInResult> {
  let response: Response;
  try {
    response = await fetch("/api/login", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login, password, session: true }),
    });
  } catch {
    return { ok: false, message: null };
  }
  const body = (await response.json().catch(() => null)) as {
    success?: boolean;
    user?: SignedInUser;
    message?: string;
  } | null;
  if (response.ok && body?.success === true && body.user) return { ok: true, user: body.user };
  return { ok: false, message: typeof body?.message === "string" ? body.message : null };
}
