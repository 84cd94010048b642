// What the fuzz test (fuzz-suites.ts) throws its requests at: the app from src/ through Fastify's
// inject (fuzz.test.ts), or the build, dist/main.js, as a process over HTTP (fuzz-built.test.ts),
// which bundles the dependencies with the build's patches (scripts/dependency-patches.mjs) and is
// what `npm start` runs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RoutesIndex } from "../../src/http/routes-index.ts";
import { generateToken } from "../../src/tokens.ts";
import { startTestApp } from "../support/app.ts";
import { startAdminApp } from "../support/admin.ts";
import { serviceDatabase } from "../support/process.ts";
import { startBundle, type RawAnswer, type RawRequest } from "../build/start-bundle.ts";

export interface FuzzTarget {
  /** "source" or "built". */
  kind: string;
  adminToken: string;
  /** The routes the app declares, with their request schemas. */
  routes: Pick<RoutesIndex, "list" | "schemas">;
  /** Sends a request; `route`, the `METHOD pattern` it was drawn for, if any. */
  request(request: RawRequest, route?: string): Promise<RawAnswer>;
  /** How often each route answered each caller, by `<caller> <METHOD> <pattern>`. */
  reached: Map<string, number>;
  /** Names the callers (by their tokens) for `reached`. */
  nameCallers(callers: Array<{ name: string; token: string | null }>): void;
  close(): Promise<void>;
}

/** Failed logins would otherwise lock the test's one address out after 20 a minute. */
const FUZZ_ENV = {
  SVC_AUTH_FAILURES_PER_MIN: "10000000",
  SVC_RATE_LIMIT_PER_MIN: "1000000",
  SVC_PUBLIC_RATE_LIMIT_PER_MIN: "1000000",
};

function callerNames() {
  const names = new Map<string | undefined, string>();
  return {
    of: (authorization: string | undefined) => names.get(authorization) ?? "unknown caller",
    set: (callers: Array<{ name: string; token: string | null }>) => {
      for (const caller of callers)
        names.set(caller.token === null ? undefined : `Bearer ${caller.token}`, caller.name);
    },
  };
}

const count = (reached: Map<string, number>, key: string) => reached.set(key, (reached.get(key) ?? 0) + 1);

/**
 * The app from src/, driven through inject; a hook records the route each answer came from. It
 * serves the admin built for the test process (without a build the admin answers 503).
 */
export async function sourceTarget(): Promise<FuzzTarget> {
  const names = callerNames();
  const reached = new Map<string, number>();
  const t = await startAdminApp({
    env: FUZZ_ENV,
    beforeReady: (app) =>
      app.addHook(
        "onResponse",
        async (request) =>
          void count(
            reached,
            `${names.of(request.headers.authorization)} ${request.method} ${request.routeOptions.url ?? "(no route)"}`,
          ),
      ),
  });
  return {
    kind: "source",
    adminToken: t.adminToken,
    routes: t.app.routesIndex,
    reached,
    nameCallers: names.set,
    async request({ method, url, headers, payload }) {
      const answer = await t.app.inject({ method: method as "GET", url, headers, payload });
      return { status: answer.statusCode, headers: answer.headers as RawAnswer["headers"], body: answer.body };
    },
    close: () => t.close(),
  };
}

/** Routes whose own answer is 405: MCP is stateless, GET and DELETE open and end nothing (docs/mcp.md). */
const ANSWER_405 = new Set(["GET /api/mcp", "HEAD /api/mcp", "DELETE /api/mcp"]);

/**
 * Answers of the handler of requests no route takes (http/bodies.ts answerUnrouted). A wildcard
 * route may answer route_not_found itself (/api/docs/* for a file it does not have).
 */
const unrouted = (route: string, answer: RawAnswer) =>
  (answer.status === 405 && !ANSWER_405.has(route)) ||
  (answer.status === 404 &&
    !route.endsWith("*") &&
    /"(?:error|code)":"route_not_found"/.test(answer.body.slice(0, 200)));

/**
 * The build, dist/main.js, on a database of its own. Its routes are the source app's (the build
 * is made from the same source); a route counts as having answered a request drawn for it unless
 * the request reached no route there, which a router that fails to find a route would show.
 */
export async function builtTarget(): Promise<FuzzTarget> {
  const source = await startTestApp({ checkAnswers: false });
  const declared = { list: source.app.routesIndex.list(), schemas: [...source.app.routesIndex.schemas()] };
  await source.close();
  const adminToken = generateToken();
  const dataDir = mkdtempSync(join(tmpdir(), "svc-fuzz-built-"));
  const { env, database } = await serviceDatabase();
  const service = await startBundle("dist/main.js", {
    ...env,
    ...FUZZ_ENV,
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_TOKEN: adminToken,
  });
  const names = callerNames();
  const reached = new Map<string, number>();
  return {
    kind: "built",
    adminToken,
    routes: { list: () => declared.list, schemas: () => declared.schemas },
    reached,
    nameCallers: names.set,
    async request(request, route) {
      // inject's Host, so both targets see the same one.
      const answer = await service.request({ ...request, headers: { host: "localhost:80", ...request.headers } });
      if (route !== undefined && !unrouted(route, answer))
        count(reached, `${names.of(request.headers?.authorization)} ${route}`);
      if (!service.running()) throw new Error(`dist/main.js ended: ${service.output()}`);
      return answer;
    },
    async close() {
      const code = await service.stop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
      if (code !== 0) throw new Error(`dist/main.js stopped with ${code}: ${service.output()}`);
    },
  };
}

/** A JSON call as a caller (the super-administrator by default), for seeding and checks. */
export async function call(
  target: FuzzTarget,
  method: string,
  url: string,
  options: { body?: unknown; payload?: string | Buffer; contentType?: string; token?: string | null } = {},
): Promise<{ status: number; body: any; text: string }> {
  const token = options.token === undefined ? target.adminToken : options.token;
  const payload = options.body === undefined ? options.payload : JSON.stringify(options.body);
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (payload !== undefined) headers["content-type"] = options.contentType ?? "application/json";
  const answer = await target.request({ method, url, headers, payload });
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    body = undefined;
  }
  return { status: answer.status, body, text: answer.body };
}
