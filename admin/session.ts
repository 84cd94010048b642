// The admin's session with the service (docs/admin.md): the session cookie the browser holds,
// which no script can read, and the CSRF token every call sends (GET /api/session). Calls go
// through the typed client, same origin, so the cookie goes with them and nothing else may.
import { ApiError, createSiteClient, unwrap, type SiteClient } from "../src/client/index.ts";

export interface SignedInUser {
  id: number;
  login: string;
}

export interface Session {
  user: SignedInUser;
  client: SiteClient;
  /** The session's CSRF token, for the calls the typed client cannot make (an upload with progress). */
  csrfToken: string;
  /** The sites the user holds a role on, by id (the first is where the admin opens). */
  sites: Array<{ id: number; name: string; role: string }>;
}

export type SignInResult = { ok: true; session: Session } | { ok: false; message: string | null };

const origin = () => window.location.origin;

/** Answers the body of a JSON answer, or null when the answer was none. */
async function jsonOf(response: Response): Promise<Record<string, unknown> | null> {
  return (await response.json().catch(() => null)) as Record<string, unknown> | null;
}

/** The live session, or null (none, or it ended: the sign-in screen shows). */
export async function currentSession(): Promise<Session | null> {
  const response = await fetch("/api/session", { credentials: "same-origin" });
  if (!response.ok) return null;
  const body = await jsonOf(response);
  const user = body?.user as SignedInUser | undefined;
  const csrfToken = body?.csrf_token;
  if (!user || typeof csrfToken !== "string") return null;
  const client = createSiteClient({ url: origin(), csrfToken, pacing: false });
  const profile = await unwrap(client.GET("/api/profile"));
  const sites = [...profile.sites].sort((a, b) => a.id - b.id);
  return { user, client, csrfToken, sites };
}

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
  const body = await jsonOf(response);
  if (!response.ok) return { ok: false, message: typeof body?.message === "string" ? body.message : null };
  const session = await currentSession();
  return session ? { ok: true, session } : { ok: false, message: null };
}

/** POST /api/logout: the session ends and its cookie is cleared (an ended one is already gone). */
export async function signOut(session: Session): Promise<void> {
  const answer = await session.client.POST("/api/logout");
  if (answer.error && answer.response.status !== 401) throw ApiError.from(answer.error, answer.response);
}

/** Whether the user administers the site: frames, stylesheets and settings are the administrators' to write. */
export function administers(session: Session, siteId: number): boolean {
  return session.sites.find((site) => site.id === siteId)?.role === "administrator";
}
