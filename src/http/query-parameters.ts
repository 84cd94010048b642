// Query parameters a route does not know (docs/foundation.md "Unknown query
// parameters"). `DELETE /frames/footer?dry_run=true` once deleted for real because the parameter
// was ignored without a word; now a parameter is known only if the route's `querystring` schema
// declares it, or if the HTTP layer reads it on every call of that kind of address (the legacy
// site selectors `blog_id` and `domain`, site-scope.ts). Anything else:
// - on a write (POST, PUT, PATCH, DELETE): 400 unknown_parameter naming it in `parameter`, before
//   the body is read and the handler runs, so nothing is written. Handler envelope, as a body
//   field of the wrong type (invalid_field) and a bad query value (invalid_parameter) are answered;
// - on a read (GET, HEAD): the answer as usual, with a warning `unknown_parameter` per parameter
//   in its `warnings`, so a client that sends an extra parameter does not break.
// Wired once, when routes are added (app.ts, onRoute), on every /api/ route; public pages, media
// and stylesheets are not affected, nor calls left out of the API description (schema.hide: the
// removed /frames/defaults answer 410 whatever their query).
import type { FastifyRequest, RouteOptions } from "fastify";
import { warning, type Warning } from "../warnings.ts";
import { fail } from "./errors.ts";

/** What the legacy `/api/…` twin of a site call reads besides its own parameters (site-scope.ts). */
export const LEGACY_SELECTORS: readonly string[] = ["blog_id", "domain"];

const READS = new Set(["GET", "HEAD"]);

declare module "fastify" {
  interface FastifyRequest {
    /** Parameters of a read call its route does not know, warned on its answer. */
    unknownParameters?: string[];
  }
}

type RouteLike = Pick<RouteOptions, "url" | "method" | "schema" | "config">;

/** The query parameters a route knows: its schema's, and the legacy selectors on a legacy address. */
export function knownParameters(route: RouteLike): Set<string> {
  const querystring = route.schema?.querystring as { properties?: Record<string, unknown> } | undefined;
  const known = new Set(Object.keys(querystring?.properties ?? {}));
  if ((route.config as { siteAddressStyle?: string } | undefined)?.siteAddressStyle === "legacy")
    for (const name of LEGACY_SELECTORS) known.add(name);
  return known;
}

/** Whether the check applies to a route: every documented /api/ route. */
export function checksParameters(route: RouteLike): boolean {
  return route.url.startsWith("/api/") && (route.schema as { hide?: boolean } | undefined)?.hide !== true;
}

/** The parameters of `query` not in `known`, in the order sent. Pure. */
export function unknownIn(query: unknown, known: ReadonlySet<string>): string[] {
  if (query === null || typeof query !== "object") return [];
  return Object.keys(query).filter((name) => !known.has(name));
}

function refusal(unknown: string[]) {
  const [parameter] = unknown;
  const message =
    unknown.length === 1
      ? `Query parameter "${parameter}" is not known here; nothing was done.`
      : `Query parameters ${unknown.map((name) => `"${name}"`).join(", ")} are not known here; nothing was done.`;
  return fail("unknown_parameter", { parameter, parameters: unknown }, message);
}

/** The warnings a read answer carries for its unknown parameters. */
export function unknownParameterWarnings(unknown: readonly string[]): Warning[] {
  return unknown.map((parameter) =>
    warning("unknown_parameter", `Query parameter "${parameter}" is not known here and was ignored.`, { parameter }),
  );
}

/** A success body (JSON text) with the warnings added to its `warnings`; anything else as it was. */
function withWarnings(payload: string, unknown: readonly string[]): string {
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return payload;
  }
  if (body === null || typeof body !== "object" || (body as { success?: unknown }).success !== true) return payload;
  const held = (body as { warnings?: unknown }).warnings;
  (body as { warnings: unknown[] }).warnings = [
    ...(Array.isArray(held) ? held : []),
    ...unknownParameterWarnings(unknown),
  ];
  return JSON.stringify(body);
}

/** The check of one route, kept in its config: the app's onRequest and onSend steps run it. */
export class ParameterCheck {
  private known: Set<string> | undefined;

  constructor(
    private readonly route: RouteLike,
    readonly reads: boolean,
  ) {}

  /** Refuses a write's unknown parameters; notes a read's, for `warned`. */
  check(request: FastifyRequest): void {
    // Worked out on the route's first call, once the site addressing (registerSiteRoutes' own
    // onRoute) has been set.
    this.known ??= knownParameters(this.route);
    const unknown = unknownIn(request.query, this.known);
    if (unknown.length === 0) return;
    if (!this.reads) throw refusal(unknown);
    request.unknownParameters = unknown;
  }
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The query parameters' check of an /api/ route (checkQueryParameters). */
    queryParameters?: ParameterCheck;
  }
}

/** A read's answer with the warnings of its unknown parameters (none: as it was). */
export function warned(request: FastifyRequest, payload: unknown): unknown {
  const unknown = request.unknownParameters;
  return unknown && typeof payload === "string" ? withWarnings(payload, unknown) : payload;
}

/**
 * The onRoute hook: gives every /api/ route its check, which the app's one onRequest step runs
 * after its own (so a call without a token is 401 and a foreign site is site_not_found first), and
 * whose warnings its onSend step adds to a read's answer (an app-level step, so before Fastify's
 * own HEAD step sets Content-Length). Steps of the app rather than of each route: each step is a
 * turn of Fastify's hook runner on every call (bench/README.md, "API reads").
 */
export function checkQueryParameters(route: RouteOptions): void {
  if (!checksParameters(route)) return;
  route.config ??= {};
  const config = route.config as NonNullable<RouteOptions["config"]> & { queryParameters?: ParameterCheck };
  if (config.queryParameters) return;
  const methods = [route.method].flat().map((method) => String(method).toUpperCase());
  config.queryParameters = new ParameterCheck(
    route,
    methods.every((method) => READS.has(method)),
  );
}
