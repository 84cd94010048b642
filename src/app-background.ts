// The process's work that no request starts, begun and ended with the app: the webhook worker
// (webhooks/worker.ts), woken when this process's writes are published; the scheduler
// (pages/scheduler.ts), which publishes the pages whose date has come from when the app is ready
// (after a start has published what the last stop owed, server.ts); and the forms' notification
// e-mails and retention sweep (forms/background.ts), ended after the requests in flight.
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "./app-deps.ts";
import { startFormsBackground } from "./forms/background.ts";
import { startScheduler, type Scheduler } from "./pages/scheduler.ts";
import { startWebhookWorker } from "./webhooks/worker.ts";
import type { ServiceContext } from "./write/context.ts";

export async function startBackgroundWork(app: FastifyInstance, ctx: ServiceContext, deps: AppDeps): Promise<void> {
  const webhooks = await startWebhookWorker(ctx, {
    allowPrivate: deps.config.webhooksAllowPrivate,
    eventsDays: deps.config.eventsDays,
    log: app.log,
  });
  const unwatch = deps.publisher.onPublished?.(webhooks.wake);
  app.addHook("onClose", async () => {
    unwatch?.();
    await webhooks.close();
  });
  const forms = startFormsBackground(ctx.db, ctx.clock, deps.config, app.log);
  app.addHook("onClose", () => forms.close());
  let scheduler: Scheduler | undefined;
  app.addHook("onReady", async () => {
    scheduler = startScheduler(ctx, { everyMs: deps.config.scheduleMs, log: app.log });
  });
  app.addHook("onClose", async () => {
    await scheduler?.close();
  });
}
