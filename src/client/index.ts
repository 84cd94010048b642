// The typed client of the service (`site-builder-service/client`; docs/client.md): openapi-fetch
// clients typed by the types generated from the served OpenAPI document (schema.d.ts, by
// `npm run client:types`), with the token, the base URL and pacing set once.
//
//   const svc = createSiteClient({ url: "http://127.0.0.1:8080", site: 2, token });
//   await svc.site.PUT("/frames/{ref}", { params: { path: { ref: "home" } }, body: { html } });
//   await svc.GET("/api/sites");                          // any call, by its full path
//   await svc.forSite(3).GET("/frames");                  // another site, same token and pacing
//
// `svc` is the openapi-fetch client of every path; `svc.site` speaks the site-scoped calls
// (`/api/site/{site_id}/…`) by the rest of their path, with `site_id` filled in from the `site`
// option. This folder is a program of its own that talks HTTP: it imports nothing else of src/
// (the `client` rule of .dependency-cruiser.cjs).
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./schema.d.ts";
import { createPacing, type Pacing, type PacingOptions } from "./pacing.ts";

export type { components, operations, paths } from "./schema.d.ts";
export {
  ApiError,
  unwrap,
  type CallResult,
  type ErrorBody,
  type HandlerErrorBody,
  type PreHandlerErrorBody,
} from "./errors.ts";
export { createPacing, type Pacing, type PacingOptions, type Wait, type WaitReason } from "./pacing.ts";

/** The prefix of every site-scoped path. */
export const SITE_PREFIX = "/api/site/{site_id}";
type Prefix = typeof SITE_PREFIX;

type SitePathKey = Extract<keyof paths, `${Prefix}/${string}`>;
type Unprefixed<K> = K extends `${Prefix}${infer Rest extends `/${string}`}` ? Rest : never;

/** An operation's `parameters` without `path.site_id` (and without `path` when that was all of it). */
type WithoutSiteParameter<P> = P extends { path: infer Path }
  ? Omit<P, "path"> & (keyof Omit<Path, "site_id"> extends never ? { path?: never } : { path: Omit<Path, "site_id"> })
  : P;
type WithoutSiteId<Op> = Op extends { parameters: infer P }
  ? Omit<Op, "parameters"> & { parameters: WithoutSiteParameter<P> }
  : Op;

/**
 * The site-scoped paths by the rest of their path (`/frames/{ref}` for
 * `/api/site/{site_id}/frames/{ref}`), their operations without the `site_id` parameter.
 */
export type SitePaths = {
  [K in SitePathKey as Unprefixed<K>]: {
    [M in keyof paths[K]]: M extends "parameters" ? paths[K][M] : WithoutSiteId<paths[K][M]>;
  };
};

/** The calls of one site. */
export type SiteScopedClient = Client<SitePaths> & {
  /** The site these calls go to. */
  readonly siteId: number;
};

/** The calls of every path, plus the calls of one site (`site`) and of any other (`forSite`). */
export type SiteClient = Client<paths> & {
  /** The calls of the site of the `site` option. */
  readonly site: SiteScopedClient;
  /** The calls of another site, with the same token and pacing. */
  forSite(siteId: number): SiteScopedClient;
  /** The pacing every call goes through, or null when turned off. */
  readonly pacing: Pacing | null;
  /** The service's origin, as given. */
  readonly url: string;
};

export interface SiteClientOptions {
  /** The service's origin, e.g. `http://127.0.0.1:8080` (a path after it is kept: `https://host/svc`). */
  url: string;
  /** The site of `client.site` (default 1, the main site). */
  site?: number;
  /** An API token, sent as `Authorization: Bearer <token>`; or, in the admin, `csrfToken`. */
  token?: string;
  /**
   * In a page on the admin's host, signed in by its session cookie (which the browser sends):
   * the session's `csrf_token` (GET /api/session), sent as `X-CSRF-Token` with every call.
   */
  csrfToken?: string;
  /** The fetch to send with (default: globalThis.fetch). */
  fetch?: (input: Request) => Promise<Response>;
  /**
   * Pacing and retry (pacing.ts): options, a Pacing shared with other clients, or false for none.
   * Default: at most 4 calls in flight, rate-limit headers heeded, 429 and 503
   * database_unavailable retried.
   */
  pacing?: PacingOptions | Pacing | false;
  /** Extra headers sent with every call (e.g. `User-Agent`). */
  headers?: Record<string, string>;
}

function isPacing(value: PacingOptions | Pacing): value is Pacing {
  return typeof (value as Pacing).inFlight === "function" && "middleware" in value;
}

function siteIdOf(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new TypeError(`${what}: a site id is an integer from 1, not ${String(value)}`);
  return value;
}

export function createSiteClient(options: SiteClientOptions): SiteClient {
  const origin = options.url.replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]/i.test(origin))
    throw new TypeError(`url: an http:// or https:// origin, not ${JSON.stringify(options.url)}`);
  const token = options.token?.trim() ?? "";
  const csrfToken = options.csrfToken ?? "";
  if ((token === "") === (csrfToken === ""))
    throw new TypeError("token: an API token is required (or, in the admin, csrfToken instead)");
  const siteId = siteIdOf(options.site ?? 1, "site");
  const pacing =
    options.pacing === false
      ? null
      : isPacing(options.pacing ?? {})
        ? (options.pacing as Pacing)
        : createPacing(options.pacing as PacingOptions | undefined);
  const common = {
    headers: { ...options.headers, ...(token ? { Authorization: `Bearer ${token}` } : { "X-CSRF-Token": csrfToken }) },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };

  function scoped(id: number): SiteScopedClient {
    const client = createClient<SitePaths>({ ...common, baseUrl: `${origin}/api/site/${siteIdOf(id, "forSite")}` });
    if (pacing) client.use(pacing.middleware);
    return Object.assign(client, { siteId: id });
  }

  const root = createClient<paths>({ ...common, baseUrl: origin });
  if (pacing) root.use(pacing.middleware);
  return Object.assign(root, { site: scoped(siteId), forSite: scoped, pacing, url: origin });
}
