// A call of the site's API by an address the service answered (a change's `address`, with its
// query), where the typed client's paths are templates known at build time: same origin, the
// session's CSRF token, and a refusal read as the typed client reads it (ApiError).
import { ApiError } from "../src/client/index.ts";
import type { Session } from "./session.ts";

export async function siteCall<T>(session: Session, siteId: number, method: string, address: string): Promise<T> {
  const response = await fetch(`/api/site/${siteId}${address}`, {
    method,
    credentials: "same-origin",
    headers: { "x-csrf-token": session.csrfToken },
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw ApiError.from(body, response);
  return body as T;
}

/** `address` with `/more` before its query: `/data/team?lang=de` → `/data/team/revisions/3?lang=de`. */
export function under(address: string, more: string): string {
  const at = address.indexOf("?");
  return at < 0 ? `${address}${more}` : `${address.slice(0, at)}${more}${address.slice(at)}`;
}
