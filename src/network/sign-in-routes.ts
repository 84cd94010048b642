// Signing in: a login and password traded for a token, or on the admin's host for a session
// cookie (docs/security.md, "Sessions"); the session's own calls (GET /api/session, POST
// /api/logout); and a password change (PATCH /api/users/{id}), which ends the user's other sessions.
import type { TypedFastify } from "../http/typed-fastify.ts";
import type { Limits } from "../http/limits.ts";
import { passwordSignIn } from "../http/guard.ts";
import { fail } from "../http/errors.ts";
import { ok } from "../http/ok.ts";
import { bodyOf } from "../http/request.ts";
import { commonErrors, Obj, Opt, Success, Type } from "../http/schema.ts";
import { clearedSessionCookie, onAdminHost, setSessionCookie } from "../http/session-cookie.ts";
import type { ServiceContext } from "../write/context.ts";
import { login, loginNameOf, passwordOf, userByPassword } from "./tokens-service.ts";
import { endSession, setPassword, startSession } from "./sessions-service.ts";
import { existingUser, userRecord } from "./users-service.ts";
import { caller, User } from "./route-parts.ts";

export function signInRoutes(app: TypedFastify, ctx: ServiceContext, limits: Limits, adminHost: string): void {
  const tags = ["network"];

  app.post(
    "/api/login",
    {
      config: { auth: "none" },
      schema: {
        operationId: "login",
        tags,
        summary:
          "Trade a login and password for a new token; with `session: true`, on the admin's host only, for a session cookie instead (no token in the answer)",
        body: Obj({ login: Opt(Type.String()), password: Opt(Type.String()), session: Opt(Type.Boolean()) }),
        response: {
          200: Success({ user: User, token: Opt(Type.String()), token_id: Opt(Type.Integer()) }),
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const body = bodyOf(request);
      const session = body.session === true;
      if (session && !onAdminHost(request, adminHost))
        throw fail(
          "invalid_field",
          { field: "session", reason: "admin_host_only" },
          `Sessions are signed in on the admin's host (${adminHost}) only; elsewhere sign in for a token.`,
        );
      // Counted per address and per login (docs/security.md "Lockout").
      const address = request.ip;
      if (!session) {
        const result = await passwordSignIn(limits, address, loginNameOf(body), () => login(ctx, body));
        return ok({ user: result.user, token: result.token.token, token_id: result.token.token_id });
      }
      const user = await passwordSignIn(limits, address, loginNameOf(body), () =>
        userByPassword(ctx, loginNameOf(body), passwordOf(body)),
      );
      setSessionCookie(request, reply, await startSession(ctx, user.id));
      return ok({ user: userRecord(user) });
    },
  );

  app.get(
    "/api/session",
    {
      schema: {
        operationId: "getSession",
        tags,
        summary:
          "The admin's session: its user and the csrf_token its writes send as X-CSRF-Token; 401 without a live session",
        response: { 200: Success({ user: User, csrf_token: Type.String() }), ...commonErrors },
      },
    },
    async (request) => {
      if (!request.session) throw fail("session_expired");
      const user = await existingUser(ctx, caller(request).userId);
      return ok({ user: userRecord(user), csrf_token: request.session.csrfToken });
    },
  );

  app.post(
    "/api/logout",
    {
      schema: {
        operationId: "logout",
        tags,
        summary: "End the admin's session (with X-CSRF-Token) and clear its cookie",
        response: { 200: Success({ ended: Type.Boolean() }), ...commonErrors },
      },
    },
    async (request, reply) => {
      if (!request.session) throw fail("session_expired");
      await endSession(ctx, request.session.id);
      reply.header("Set-Cookie", clearedSessionCookie(request));
      return ok({ ended: true });
    },
  );

  app.patch(
    "/api/users/:id",
    {
      schema: {
        operationId: "updateUser",
        tags,
        summary:
          "Set a user's password (`me`: the caller, who sends current_password too; a super-administrator sets anyone's without it); every other session of that user ends",
        params: Obj({ id: Type.String() }),
        body: Obj({ password: Type.String(), current_password: Opt(Type.String()) }),
        response: { 200: Success({ user: User }), ...commonErrors },
      },
    },
    async (request) => {
      const who = caller(request);
      // The current password is checked and counted as a sign-in is: a stolen session cannot guess
      // its way to the password (docs/security.md, "Lockout").
      const checkCurrent = (current: string) =>
        passwordSignIn(limits, request.ip, who.login, () => userByPassword(ctx, who.login, current));
      return ok({ user: await setPassword(ctx, who, request.params.id, bodyOf(request), checkCurrent) });
    },
  );
}
