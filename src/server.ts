// The service process, loaded by main.ts: config, store, first-start bootstrap, app, listen,
// graceful shutdown.
// On PostgreSQL several processes may serve one database: rate limits are counted in the
// database and cache flushes are told to the other processes (publish/invalidation.ts).
import { writeSync } from "node:fs";
import { loadConfig, ConfigError, type Config } from "./config.ts";
import { openStore } from "./store/database.ts";
import { buildApp } from "./app.ts";
import { systemClock } from "./clock.ts";
import { limitsFor } from "./http/limits.ts";
import { serviceContext, wirePublishing, type AppDeps } from "./app-deps.ts";
import { republishMovedOrigins } from "./network/printed-origins.ts";
import { catchUpSearchIndex } from "./search/catch-up.ts";
import { startInvalidation } from "./publish/invalidation.ts";
import { bootstrapNetwork } from "./network/bootstrap.ts";
import { openBlobStore } from "./blobs/open.ts";
import { startPruning } from "./revisions/retention.ts";

/** Every `everyMs`, pays outbox rows older than that: a process that died left them (several processes). */
function sweepOwed(
  engine: { payOwed(olderThanMs?: number): Promise<number> },
  everyMs: number,
  log: { error(object: unknown, message: string): void },
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    engine
      .payOwed(everyMs)
      .catch((error: unknown) => log.error({ err: error }, "paying owed publishes"))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`config error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = configOrExit();
  const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, db: config.db });
  const boot = await bootstrapNetwork(store.db, {
    publicHost: config.publicHost,
    adminToken: config.adminToken,
    dataDir: config.dataDir,
    now: systemClock(),
    front: config,
  });
  if (boot.generatedToken) {
    // Printed once, on the first start only; it is also in $SVC_DATA_DIR/admin-token (0600).
    // Written synchronously: on a pipe process.stdout is asynchronous, and the logger's lines
    // (synchronous) could otherwise overtake it.
    writeSync(1, `admin token: ${boot.generatedToken}\n`);
  }

  const limits = limitsFor(store, config);
  const invalidation = await startInvalidation(store);
  const publishing = wirePublishing(store.db, systemClock, config, {
    invalidation,
    renderWorkers: config.renderWorkers,
  });
  const blobs = await openBlobStore(config);
  const deps: AppDeps = {
    config,
    store,
    clock: systemClock,
    limits,
    publisher: publishing.engine,
    publicSite: publishing.publicSite,
    blobs,
    cpu: publishing.cpu,
  };
  const app = await buildApp(deps, { logger: { level: process.env.LOG_LEVEL ?? "info" } });
  invalidation.useLog?.(app.log);
  const stopPruning = startPruning(
    store.db,
    { keep: config.revisionsKeep, days: config.trashDays },
    systemClock,
    app.log,
  );
  // What committed writes owe the public site and no publish run paid (the process died in
  // between): paid before the service answers, then swept for rows a dead process left (outbox.ts).
  const owedAtStart = await publishing.engine.payOwed();
  if (owedAtStart > 0) app.log.info({ paid: owedAtStart }, "published what writes before the last stop owed");
  // Sites printed under another origin (SVC_PUBLIC_SCHEME or SVC_PUBLIC_PORT changed): republished
  // before the service answers (network/printed-origins.ts).
  const moved = await republishMovedOrigins(serviceContext(deps));
  if (moved > 0) app.log.info({ sites: moved }, "republished the sites whose addresses moved");
  const stopSweeping = sweepOwed(publishing.engine, config.outboxSweepMs, app.log);
  // Search entries for pages that have none (those made before the index was): before it answers.
  const indexed = await catchUpSearchIndex(store.db);
  if (indexed > 0) app.log.info({ pages: indexed }, "made the search entries of pages that had none");
  // An API write answers once its flushes have been told to the other processes, so a client
  // that writes through one process and then reads through another sees what it wrote.
  // (Only with several processes: on SQLite there is nothing to tell, and every hook is a step of each answer.)
  if (store.postgres) {
    app.addHook("onSend", (request, _reply, payload, done) => {
      if (request.method === "GET" || request.method === "HEAD") return done(null, payload);
      invalidation.settled().then(() => done(null, payload), done);
    });
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down: finishing requests in flight");
    try {
      stopPruning();
      stopSweeping();
      await app.close(); // stops accepting, waits for in-flight requests
      await publishing.engine.close(); // the render worker
      await invalidation.close();
      await blobs.close();
      await store.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));

  await app.listen({ host: config.host, port: config.listenPort });
  app.log.info({ admin: config.adminUrl }, `admin: ${config.adminUrl}`);
}

main().catch((error) => {
  process.stderr.write(`start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
