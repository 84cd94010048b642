// The real app listening on a loopback port, for the typed client's tests: a test app
// (test/support/app.ts: a fresh SQLite store, answers checked against the OpenAPI document) with a
// count of the /api/ calls the server is handling at once, taken by hooks: a call counts from
// `onRequest` until its answer is about to be written (`onSend`), before the client can see it.
import type { FastifyInstance } from "fastify";
import { setTimeout as delay } from "node:timers/promises";
import RateLimiterMemory from "rate-limiter-flexible/lib/RateLimiterMemory.js";
import { FlexibleLimits, MemoryWindows, type Limits } from "../../src/http/limits.ts";
import { startTestApp, type TestApp, type TestAppOptions } from "../support/app.ts";

export interface ServedApp extends TestApp {
  /** The origin the app listens on, e.g. `http://127.0.0.1:40123`. */
  origin: string;
  /** /api/ calls being handled now, the most at once so far, and every status answered. */
  load: { now: number; most: number; statuses: number[] };
}

export interface ServeOptions extends TestAppOptions {
  /** Each /api/ call is held this long before its handler, so calls overlap (default 0). */
  holdMs?: number;
}

export async function serveApp(options: ServeOptions = {}): Promise<ServedApp> {
  const load = { now: 0, most: 0, statuses: [] as number[] };
  const counted = new WeakSet<object>();
  const t = await startTestApp({
    ...options,
    beforeReady(app: FastifyInstance) {
      app.addHook("onRequest", async (request) => {
        if (!request.url.startsWith("/api/")) return;
        counted.add(request);
        load.now++;
        load.most = Math.max(load.most, load.now);
        if (options.holdMs) await delay(options.holdMs);
      });
      app.addHook("onSend", async (request, reply) => {
        if (!counted.has(request)) return;
        counted.delete(request);
        load.now--;
        load.statuses.push(reply.statusCode);
      });
      options.beforeReady?.(app);
    },
  });
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = t.app.server.address() as { port: number };
  return Object.assign(t, { origin: `http://127.0.0.1:${port}`, load });
}

/** The service's limits with the API window `windowSeconds` long instead of a minute (the same limiter class). */
export function shortWindowLimits(perWindow: number, windowSeconds: number): Limits {
  const settings = {
    rateLimitPerMin: perWindow,
    authFailuresPerMin: 1000,
    authFailuresPerLogin: 1000,
    publicRateLimitPerMin: 1_000_000,
  };
  return new FlexibleLimits(
    new MemoryWindows(perWindow, windowSeconds),
    new RateLimiterMemory({ points: settings.authFailuresPerMin, duration: 60, keyPrefix: "authfail" }),
    new MemoryWindows(settings.publicRateLimitPerMin),
    settings,
    new RateLimiterMemory({ points: 1000, duration: 900, keyPrefix: "authlogin" }),
  );
}
