// buildApp(deps): the Fastify instance with its plugins, hooks and every route.
import type { IncomingMessage, ServerResponse } from "node:http";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from "fastify";
import swagger from "@fastify/swagger";
import { serviceContext, type AppDeps } from "./app-deps.ts";
import { errorHandler, sendError } from "./http/error-handler.ts";
import { fail, preFail } from "./http/errors.ts";
import { parseJsonBody } from "./http/json-body.ts";
import { apiGuard } from "./http/guard.ts";
import { keepApiAnswer, noteKeptSince } from "./http/kept-api.ts";
import { checkQueryParameters, warned } from "./http/query-parameters.ts";
import { RoutesIndex } from "./http/routes-index.ts";
import { answerUnrouted, isServicePath, refuseBodyWhereNoneTaken, refuseUnroutedBody } from "./http/bodies.ts";
import { extendForUpload, isUploadRoute, limitConnections, watchBody } from "./http/connections.ts";
import { openApiOptions, SERVICE_DESC_LINK } from "./http/openapi.ts";
import { schemaValidator } from "./http/validation.ts";
import { registerSiteRoutes } from "./http/site-routes.ts";
import { bundleRoutes } from "./bundles/routes.ts";
import { typedRoutes } from "./http/typed-fastify.ts";
import { actAsCaller } from "./http/acting.ts";
import { addressedSiteId, siteScope } from "./http/site-scope.ts";
import { thenOf, type MaybePromise } from "./store/kept-reads.ts";
import { apiDescriptionRoutes } from "./http/api-reference.ts";
import { networkRoutes } from "./network/routes.ts";
import { siteUserRoutes } from "./network/site-users-routes.ts";
import { networkEventRoutes, siteEventRoutes } from "./events/routes.ts";
import { EventStreams, type StreamTimings } from "./events/stream-hub.ts";
import { networkEventStreamRoutes, siteEventStreamRoutes } from "./events/stream-routes.ts";
import { usageRoutes } from "./network/quota-routes.ts";
import { frameRoutes } from "./frames/routes.ts";
import { frameCheckRoutes } from "./frames/check-routes.ts";
import { PAGE_ROUTE, publicRoutes, withinPublicLimit } from "./public/routes.ts";
import { mediaRoutes, variantMakerFor } from "./public/media-routes.ts";
import { searchRoutes } from "./public/search-routes.ts";
import { answersBeforeFastify, type BeforeFastify } from "./public/before-fastify.ts";
import { proxyTrust } from "./http/forwarded.ts";
import { cacheRoutes } from "./cache/routes.ts";
import { pageRoutes } from "./pages/routes.ts";
import { framePageRoutes } from "./frames/page-routes.ts";
import { assignFrame } from "./pages/assign-service.ts";
import { unbindFrame } from "./pages/frame-unbinding.ts";
import { dataRoutes } from "./data/routes.ts";
import { languagesRoutes, settingsRoutes } from "./settings/routes.ts";
import { menuRoutes } from "./menus/routes.ts";
import { mediaApiRoutes } from "./media/routes.ts";
import { styleApiRoutes } from "./styles/routes.ts";
import { seoRoutes } from "./seo/routes.ts";
import { sidebarRoutes } from "./sidebars/routes.ts";
import { formRoutes } from "./forms/routes.ts";
import { formSubmitRoutes } from "./public/form-routes.ts";
import { stringRoutes } from "./strings/routes.ts";
import { historyRoutes } from "./history/routes.ts";
import { ServedStyles } from "./styles/serve.ts";
import { setCssTimeLimit } from "./styles/css.ts";
import { publicStyleRoutes } from "./public/style-routes.ts";
import { previewRoutes } from "./preview/routes.ts";
import { previewLinkRoutes } from "./public/preview-routes.ts";
import { PREVIEW_PATH } from "./preview/links.ts";
import { requestLoggerFactory } from "./http/request-logger.ts";
import { requestIdOf } from "./http/request-id.ts";
import { lineOf, logAnswered, RequestLineLogController, requestLines, type RequestFacts } from "./http/request-line.ts";
import { SHUTTING_DOWN, writeRawAnswer } from "./http/raw-answer.ts";
import { hostOf } from "./site/addresses.ts";
import { redactingLogger } from "./http/log-redaction.ts";
import { adminRoutes } from "./admin/routes.ts";
import { AdminFiles, defaultAdminDir } from "./admin/files.ts";
import { webhookRoutes } from "./webhooks/routes.ts";
import { startBackgroundWork } from "./app-background.ts";
import { mcpBodyLimit, mcpRoutes } from "./mcp/routes.ts";

/**
 * The body limit sits well above the 2 MiB frame limit, so an oversized frame is refused
 * as frame_too_large with max_bytes: six times 2 MiB holds any 2 MiB markup in any JSON
 * escaping (`\u003c` for every character at worst).
 */
export const BODY_LIMIT = 6 * 2 * 1024 * 1024;

declare module "fastify" {
  interface FastifyInstance {
    routesIndex: RoutesIndex;
  }
}

export interface BuildOptions {
  logger?: FastifyServerOptions["logger"];
  /** The folder of the admin's build (default dist/admin/, admin/files.ts); tests build one of their own. */
  adminDir?: string;
  /** How often the event streams look for events and send keep-alives (events/stream-hub.ts); tests shorten them. */
  eventStreams?: Partial<StreamTimings>;
}

/** Fastify's compiler builders; its types name ajv's, which `schemaValidator` is not. */
type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]>;

/**
 * node:http's createServer, taken from the built-in itself: an ES import of node:http builds its
 * ES-module facade, which reads every export, and the lazy fetch/WebSocket ones load undici
 * (30–35 ms of every start; bench/README.md, cold start).
 */
const { createServer } = process.getBuiltinModule("node:http");

export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  // Once shutdown begins, answers close their connection, so a request that was in flight
  // finishes and its keep-alive socket does not hold the process open.
  let closing = false;
  // Public pages held in memory, kept API reads and the redirect to https are answered before
  // Fastify routes the request (public/before-fastify.ts; set once built below). The server is
  // otherwise set up as Fastify sets up its own (keep-alive 72 s), with the limits on slow and
  // greedy clients of http/connections.ts.
  let beforeFastify: BeforeFastify | null = null;
  const trust = proxyTrust(deps.config.trustProxy);
  const connections = deps.config.connections;
  const serverFactory = (handler: (req: IncomingMessage, res: ServerResponse) => void, opts: FastifyServerOptions) => {
    // Node checks the headers' deadline on this interval (30 s by default, too coarse for 20 s).
    const connectionsCheckingInterval = Math.max(50, Math.min(1_000, Math.floor(connections.headersTimeoutMs / 4)));
    const server = createServer({ connectionsCheckingInterval }, (req, res) => {
      watchBody(req, res, connections);
      // Fastify's own 503 once closing (`return503OnClosing`) would carry neither the id nor the line.
      if (closing) return writeRawAnswer(req, res, SHUTTING_DOWN, lineOfUnrouted(req));
      if (beforeFastify === null) return handler(req, res);
      beforeFastify(req, res, () => handler(req, res));
    });
    server.keepAliveTimeout = opts.keepAliveTimeout ?? 72_000;
    server.setTimeout(opts.connectionTimeout ?? 0);
    limitConnections(server, connections);
    if ((opts.maxRequestsPerSocket ?? 0) > 0) server.maxRequestsPerSocket = opts.maxRequestsPerSocket!;
    return server;
  };
  /**
   * The router's own refusals (malformed percent-encoding, a parameter over maxParamLength) answer
   * before any hook runs: Fastify's answer as it sends it, with the request's id and line.
   */
  const refuseUnroutable = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const status = error.statusCode ?? 400;
    reply.header("X-Request-Id", request.id).code(status).type("application/json");
    reply.send({ error: "Bad Request", code: error.code, message: error.message, statusCode: status });
    if (lines.on()) lines.write(lineOf(lines, facts, request, reply));
  };
  const app = Fastify({
    serverFactory,
    // The app's own compilers, given as Fastify's compilersFactory rather than set once it is
    // made, so Fastify never loads the defaults they replace (ajv and fast-json-stringify, about
    // 45 ms of every start). Bodies and parameters are checked by `schemaValidator` (TypeBox);
    // responses are JSON.stringify'd: the route schemas document the answers (OpenAPI) but never
    // drop a field that a schema forgot.
    schemaController: {
      compilersFactory: {
        buildValidator: (() => schemaValidator) as unknown as CompilersFactory["buildValidator"],
        buildSerializer: () => () => (data: unknown) => JSON.stringify(data),
      },
    },
    // No secret in any log line (docs/security.md): preview tokens and secret query values masked
    // in the address, tokens, cookies and passwords censored wherever a line carries them.
    logger: redactingLogger(options.logger, [PREVIEW_PATH]),
    childLoggerFactory: requestLoggerFactory,
    bodyLimit: BODY_LIMIT,
    trustProxy: trust ?? false,
    // The caller's X-Request-Id when it is one, else a new one (http/request-id.ts).
    genReqId: requestIdOf,
    // One line a request, written by the app (http/request-line.ts), instead of Fastify's two.
    logController: new RequestLineLogController(),
    frameworkErrors: (error, request, reply) => refuseUnroutable(error, request, reply as FastifyReply),
    return503OnClosing: true,
    forceCloseConnections: "idle",
    // No timer per plugin: every plugin here is a function that registers routes and returns
    // (what can hang, opening the store, is done before the app is built), and arming and
    // clearing a 10 s timer for each of them is a measurable part of a start.
    pluginTimeout: 0,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  });

  const lines = requestLines(app.log, [PREVIEW_PATH]);
  const facts: RequestFacts = {
    siteOf: (request) =>
      isServicePath(request.url)
        ? addressedSiteId(request)
        : (deps.publicSite.directory.peek(hostOf(request.host))?.id ?? null),
    // The public pages' route takes the API's unknown addresses only to answer them 404.
    routeOf: (request) => {
      const route = request.routeOptions.url;
      return route === PAGE_ROUTE && isServicePath(request.url) ? undefined : route;
    },
  };
  /** The line of a request answered before any route was chosen. */
  const lineOfUnrouted = (req: IncomingMessage) => ({
    lines,
    siteId: null,
    userId: null,
    route: req.url === undefined ? null : lines.unrouted(req.url),
    started: performance.now(),
  });
  app.addHook("onResponse", logAnswered(lines, facts));

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ["application/json", "application/*+json"],
    { parseAs: "string", bodyLimit: BODY_LIMIT },
    parseJsonBody,
  );

  const routes = new RoutesIndex();
  app.addHook("onRoute", (route) => {
    routes.add(route);
    actAsCaller(route);
  });
  app.decorate("routesIndex", routes);
  // Paged lists' links start here, never at the request's Host (http/pagination.ts).
  app.decorate("apiUrl", deps.config.apiUrl);

  await app.register(swagger, openApiOptions(deps.config));

  app.decorateRequest("caller", null);
  app.decorateRequest("session", null);
  app.decorateRequest("keptSince", null);
  app.decorateRequest("answerKept", false);
  // One hook for every request (each hook is a step of Fastify's pipeline on every call). A
  // callback hook, not an async one: an API call whose caller, role and site are kept and whose
  // count is kept in memory passes it without a promise (bench/README.md, "API reads").
  const ctx = serviceContext(deps);
  const guard = apiGuard({ ctx, limits: deps.limits, adminHost: deps.config.adminHost });
  const publicGate = { db: deps.store.db, limits: deps.limits };
  const resolveSite = siteScope(deps.store.db);
  /** The steps of every request; true when one of them has answered it. */
  const admit = (request: FastifyRequest, reply: FastifyReply): MaybePromise<boolean> => {
    reply.header("X-Request-Id", request.id);
    const api = request.url.startsWith("/api/") || request.url === "/api";
    if (api) {
      reply.header("Link", SERVICE_DESC_LINK);
      noteKeptSince(deps.store.db, request);
    }
    if (request.url.includes("%00")) {
      throw preFail(
        "invalid_field",
        { field: "url", reason: "nul_character" },
        "The address contains U+0000, which cannot be stored.",
      );
    }
    // Read once: Fastify builds `routeOptions` anew on each read.
    const { config, url } = request.routeOptions;
    const rest = (): boolean => {
      if (refuseUnroutedBody(routes, request, reply)) return true;
      if (isUploadRoute(request.method, url)) extendForUpload(request.raw, reply.raw, connections);
      config?.queryParameters?.check(request);
      return false;
    };
    if (api) return thenOf(guard(request, reply, config), () => thenOf(resolveSite(request, reply, config), rest));
    // The public site's GET and HEAD are counted by their routes; every other method here.
    if (request.method !== "GET" && request.method !== "HEAD" && !isServicePath(request.url))
      return thenOf(withinPublicLimit(publicGate, request, reply), (within) => !within || rest());
    return rest();
  };
  app.addHook("onRequest", (request, reply, done) => {
    let answered: MaybePromise<boolean>;
    try {
      answered = admit(request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (answered instanceof Promise) answered.then((yes) => yes || done(), done);
    else if (!answered) done();
  });

  // Event streams never end by themselves: closing ends them (their clients reconnect), rather
  // than waiting for them.
  const eventStreams = new EventStreams(ctx, app.log, options.eventStreams);
  app.addHook("preClose", async () => {
    closing = true;
    await eventStreams.close();
  });
  app.addHook("onSend", (request, reply, payload, done) => {
    if (closing) reply.header("Connection", "close");
    const answer = warned(request, payload);
    keepApiAnswer(deps.store.db, request, reply, answer);
    done(null, answer);
  });

  // Query parameters a route does not know: refused on writes, warned on reads (docs/foundation.md).
  app.addHook("onRoute", checkQueryParameters);
  // After the query parameters' check: a body a route does not take is refused unread (docs/security.md).
  app.addHook("onRoute", refuseBodyWhereNoneTaken);

  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) => answerUnrouted(routes, request, reply));

  app.get("/healthz", { schema: { hide: true } }, async (_request, reply) => {
    if (!(await deps.store.ping())) return sendError(reply, fail("database_unavailable"));
    return { ok: true };
  });

  apiDescriptionRoutes(app);
  adminRoutes(app, { host: deps.config.adminHost, files: new AdminFiles(options.adminDir ?? defaultAdminDir()) });

  setCssTimeLimit(deps.config.cssTimeLimitMs);
  networkRoutes(typedRoutes(app), ctx, deps.limits, deps.config.adminHost);
  bundleRoutes(typedRoutes(app), ctx, deps.blobs, deps.config);
  networkEventRoutes(app, ctx);
  networkEventStreamRoutes(app, ctx, eventStreams);
  publicRoutes(app, deps.publicSite, publicGate);
  searchRoutes(app, deps.publicSite, publicGate, deps.config);
  mediaRoutes(
    app,
    deps.publicSite,
    publicGate,
    deps.blobs,
    variantMakerFor(deps.blobs, deps.store.db, app.log, deps.cpu),
  );
  publicStyleRoutes(app, deps.publicSite, publicGate, new ServedStyles(deps.store.db, deps.clock));
  previewLinkRoutes(typedRoutes(app), deps.publicSite, publicGate, ctx);
  // Forms' submissions, and the key of the time tokens pages print (docs/forms.md).
  formSubmitRoutes(app, deps.publicSite, publicGate, ctx);
  beforeFastify = answersBeforeFastify(deps.publicSite, {
    ...publicGate,
    closing: () => closing,
    log: app.log,
    lines,
    trust,
    config: deps.config,
  });
  const media = mediaApiRoutes({ blobs: deps.blobs, maxBytes: deps.config.mediaMaxBytes });
  registerSiteRoutes(
    app,
    ctx,
    [
      frameRoutes,
      frameCheckRoutes,
      framePageRoutes({ assign: assignFrame, unbind: unbindFrame }),
      cacheRoutes,
      settingsRoutes,
      languagesRoutes,
      pageRoutes,
      dataRoutes,
      menuRoutes,
      media,
      styleApiRoutes,
      seoRoutes,
      sidebarRoutes,
      formRoutes,
      stringRoutes,
      previewRoutes,
      historyRoutes,
      usageRoutes,
      webhookRoutes({ allowPrivate: deps.config.webhooksAllowPrivate }),
    ],
    [siteUserRoutes, siteEventRoutes, siteEventStreamRoutes(eventStreams)],
  );

  // MCP for agents (docs/mcp.md): tools over the routes above, sent in-process.
  mcpRoutes(app, ctx, { bodyLimit: mcpBodyLimit(deps.config.mediaMaxBytes, BODY_LIMIT) });

  await startBackgroundWork(app, ctx, deps);

  return app;
}
