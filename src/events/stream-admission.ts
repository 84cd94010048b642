// Whether an open event stream's caller may still read it (docs/events.md, "The stream"). A
// stream is admitted as GET /events is, when it opens; it then stays open for hours, so before it
// sends events, and at each keep-alive, it asks again: the token it was opened with not revoked
// (or the admin session not ended, signed out, or idle past its time), the same user, and still an
// administrator of the site (the network's stream: still a super-administrator). The token or
// session is read afresh each time, never from what a call kept; the role as every call reads it
// (site/callers.ts: kept until the next write, so a change of role counts at once).
import type { Clock } from "../clock.ts";
import { administers, callerByTokenId, type Caller } from "../site/callers.ts";
import { isLive, sessionById } from "../site/sessions.ts";
import type { Db } from "../store/database.ts";

async function callerNow(db: Db, clock: Clock, caller: Caller): Promise<Caller | null> {
  if (caller.tokenId !== null) return callerByTokenId(db, caller.tokenId);
  if (caller.sessionId === null) return null;
  const session = await sessionById(db, caller.sessionId);
  return session !== null && isLive(session, clock()) ? session.caller : null;
}

/** Whether `caller`, who opened a stream of `siteId`'s events (null: the network's), may still read it. */
export async function stillAdmitted(
  ctx: { db: Db; clock: Clock },
  caller: Caller,
  siteId: number | null,
): Promise<boolean> {
  const now = await callerNow(ctx.db, ctx.clock, caller);
  if (now === null || now.userId !== caller.userId) return false;
  return siteId === null ? now.superAdmin : administers(ctx.db, now, siteId);
}
