// One call of each write operation of the network (`/api/sites…`, `/api/users…`, signing in and
// out), on the fixture's site where it names one: the network's half of write-scenarios.ts.
import { ok } from "../seo/helpers.ts";
import { exportBytes } from "../bundles/support.ts";
import { fresh, send, type Fixture, type WriteCall } from "./write-scenarios.ts";

const PASSWORD = "correct horse battery";

/** A site's bundle (docs/bundles.md), as an upload (the fixture's site by default). */
async function exported(f: Fixture, site = f.s.id): Promise<{ bytes: Buffer; type: string }> {
  return { bytes: await exportBytes(f.t, site), type: "application/gzip" };
}

/** An alias of the fixture's site; answers it. */
async function alias(f: Fixture): Promise<string> {
  const domain = `alias-${f.s.host}`;
  ok(await send(f, ["POST", `/api/sites/${f.s.id}/domains`, { domain }]), "alias", 201);
  return domain;
}

/** A user with a password; answers its id and login. */
export async function passwordUser(f: Fixture): Promise<{ id: number; login: string }> {
  const login = fresh("user");
  const made = ok(await send(f, ["POST", "/api/users", { login, password: PASSWORD }]), "user", 201);
  return { id: made.user.id as number, login };
}

/** A user with one token; answers both ids. */
async function userToken(f: Fixture): Promise<{ user: number; token: number }> {
  const { id } = await passwordUser(f);
  const issued = ok(await send(f, ["POST", `/api/users/${id}/tokens`, { label: "ci" }]), "token", 201);
  return { user: id, token: issued.token_id as number };
}

/** A session signed in on the admin's host (by a new user, or `login`): its cookie pair and CSRF token. */
export async function signedIn(f: Fixture, login?: string): Promise<{ cookie: string; csrf: string }> {
  login ??= (await passwordUser(f)).login;
  const options = { token: null, headers: { host: f.t.config.adminHost } };
  const answer = await send(f, ["POST", "/api/login", { login, password: PASSWORD, session: true }, options]);
  ok(answer, "sign-in");
  const cookie = String(answer.headers["set-cookie"]).split(";")[0]!;
  const session = await send(f, [
    "GET",
    "/api/session",
    undefined,
    { ...options, headers: { ...options.headers, cookie } },
  ]);
  return { cookie, csrf: ok(session, "session").csrf_token as string };
}

export const NETWORK_WRITES: Record<string, WriteCall> = {
  // An MCP message (docs/mcp.md): a tools/list writes nothing; its tools' writes are the REST calls'.
  mcp: {
    call: () => [
      "POST",
      "/api/mcp",
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      { headers: { accept: "application/json, text/event-stream" } },
    ],
  },
  createSite: {
    call: () => ["POST", "/api/sites", { name: "Fresh", domain: `${fresh("site")}.localhost` }],
    status: 201,
  },
  patchSite: { call: (f) => ["PATCH", `/api/sites/${f.s.id}`, { name: "Renamed" }] },
  // The fixture's bundle imported back after a setting changed: the one object that differs is updated.
  importSite: {
    prepare: async (f) => {
      const bundle = await exported(f);
      ok(await send(f, ["PATCH", "/settings", { tagline: "Changed since the export" }]), "tagline");
      return bundle;
    },
    call: (f, bundle) => ["POST", `/api/sites/${f.s.id}/import`, undefined, { upload: bundle }],
  },
  // A new site from a bundle of an empty one.
  importNewSite: {
    prepare: async (f) => {
      const empty = { name: "Empty", domain: `${fresh("empty")}.localhost` };
      const made = ok(await send(f, ["POST", "/api/sites", empty]), "site", 201);
      return { bundle: await exported(f, made.site.id), domain: `${fresh("imported")}.localhost` };
    },
    call: (_, made) => ["POST", `/api/sites/import?domain=${made.domain}`, undefined, { upload: made.bundle }],
    status: 201,
  },
  deleteSite: { call: (f) => ["DELETE", `/api/sites/${f.s.id}`] },
  patchSiteQuotas: { call: (f) => ["PATCH", `/api/sites/${f.s.id}/quotas`, { media_bytes: 10_000_000 }] },
  createSiteDomain: {
    call: (f) => ["POST", `/api/sites/${f.s.id}/domains`, { domain: `alias-${f.s.host}` }],
    status: 201,
  },
  updateSiteDomain: {
    prepare: alias,
    call: (f, domain) => ["PATCH", `/api/sites/${f.s.id}/domains/${domain}`, { https: true }],
  },
  deleteSiteDomain: {
    prepare: alias,
    call: (f, domain) => ["DELETE", `/api/sites/${f.s.id}/domains/${domain}`],
  },
  login: {
    prepare: passwordUser,
    call: (_, user) => ["POST", "/api/login", { login: user.login, password: PASSWORD }, { token: null }],
  },
  logout: {
    prepare: (f) => signedIn(f),
    call: (f, session) => [
      "POST",
      "/api/logout",
      undefined,
      { token: null, headers: { host: f.t.config.adminHost, cookie: session.cookie, "x-csrf-token": session.csrf } },
    ],
  },
  updateUser: {
    prepare: passwordUser,
    call: (_, user) => ["PATCH", `/api/users/${user.id}`, { password: "another horse battery" }],
  },
  createUser: { call: () => ["POST", "/api/users", { login: fresh("user") }], status: 201 },
  createUserToken: {
    prepare: passwordUser,
    call: (_, user) => ["POST", `/api/users/${user.id}/tokens`, { label: "ci" }],
    status: 201,
  },
  deleteUserToken: {
    prepare: userToken,
    call: (_, made) => ["DELETE", `/api/users/${made.user}/tokens/${made.token}`],
  },
  reissueUserToken: {
    prepare: userToken,
    call: (_, made) => ["POST", `/api/users/${made.user}/tokens/${made.token}/reissue`],
  },
};
