// Webhooks of a site (docs/webhooks.md): GET/POST /webhooks, GET/PATCH/DELETE /webhooks/{id},
// POST /webhooks/{id}/rotate, GET /webhooks/{id}/deliveries,
// POST /webhooks/{id}/deliveries/{delivery_id}/redeliver and POST /webhooks/{id}/test, for the
// site's administrators. Only POST /webhooks and /rotate answer the secret.
import type { TypedFastify } from "../http/typed-fastify.ts";
import { ok } from "../http/ok.ts";
import { absentBodyIsEmpty, dryRunFields, dryRunOf, DryRunQuery } from "../http/request.ts";
import { commonErrors, DryRunAnswer, Obj, Opt, ServiceChecked, Success, Type } from "../http/schema.ts";
import { wholeNumber } from "../events/service.ts";
import type { ServiceContext } from "../write/context.ts";
import { DEFAULT_DELIVERIES, listDeliveries, MAX_DELIVERIES, redeliver, sendTest } from "./deliveries.ts";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  MAX_WEBHOOKS,
  rotateSecret,
  updateWebhook,
  type WebhookOptions,
} from "./service.ts";

const Str = Type.String();
const Int = Type.Integer();
const NullableStr = Type.Union([Str, Type.Null()]);
const tags = ["webhooks"];

const Webhook = Obj({
  id: Int,
  url: Str,
  events: Type.Array(Str, { description: "type prefixes it takes (as GET /events?type=); empty: every type" }),
  active: Type.Boolean(),
  description: Str,
  created_at: Str,
  updated_at: Str,
  previous_secret_expires_at: Type.Union([Str, Type.Null()], {
    description: "until when the secret before the last rotation also signs",
  }),
});

const WithSecret = Obj({
  ...Webhook.properties,
  secret: Type.String({ description: "whsec_ + base64 of 32 bytes; shown only in this answer" }),
});

const Delivery = Obj({
  id: Int,
  event_id: Type.Union([Int, Type.Null()], { description: "null for a test" }),
  type: Str,
  message_id: Type.String({ description: "the webhook-id header, the same on every attempt" }),
  status: Type.String({ description: "pending, delivered or failed" }),
  attempts: Int,
  response_code: Type.Union([Int, Type.Null()]),
  response_body: Type.Union([Str, Type.Null()], { description: "the first 1024 bytes of the answer" }),
  duration_ms: Type.Union([Int, Type.Null()]),
  error: Type.Union([Str, Type.Null()], { description: "timeout, refused, address_not_allowed, …" }),
  created_at: Str,
  last_attempt_at: NullableStr,
  next_attempt_at: Type.Union([Str, Type.Null()], { description: "when a pending one is attempted next" }),
});

const Body = Obj({
  url: Opt(ServiceChecked(Str, "https:// (or http://) address on the public internet; required on POST")),
  events: Opt(ServiceChecked(Type.Array(Str), "event types or kinds it takes (frame, page.published); default all")),
  active: Opt(ServiceChecked(Type.Boolean(), "default true")),
  description: Opt(ServiceChecked(Str, "at most 500 characters")),
});

const Id = Obj({ id: Str });

export function webhookRoutes(options: WebhookOptions) {
  return (scope: TypedFastify, ctx: ServiceContext): void => {
    scope.get(
      "/webhooks",
      {
        schema: {
          operationId: "listWebhooks",
          tags,
          summary: "The site's webhooks (never their secrets)",
          response: { 200: Success({ site_id: Int, webhooks: Type.Array(Webhook) }), ...commonErrors },
        },
      },
      async (request) => ok({ site_id: request.site.id, webhooks: await listWebhooks(ctx, request.site) }),
    );

    scope.post(
      "/webhooks",
      {
        preValidation: absentBodyIsEmpty,
        schema: {
          operationId: "createWebhook",
          tags,
          summary: `A webhook: the site's events of its types are POSTed to url, signed as Standard Webhooks says; its secret is answered this once (at most ${MAX_WEBHOOKS} per site; 400 webhook_url_not_allowed for a loopback, private or link-local address)`,
          body: Body,
          response: { 201: Success({ site_id: Int, webhook: WithSecret }), ...commonErrors },
        },
      },
      async (request, reply) => {
        const { webhook, warnings } = await createWebhook(ctx, request.site, request.body ?? {}, options);
        return reply.code(201).send(ok({ site_id: request.site.id, webhook }, warnings));
      },
    );

    scope.get(
      "/webhooks/:id",
      {
        schema: {
          operationId: "getWebhook",
          tags,
          summary: "One webhook (404 webhook_not_found for an unknown one or another site's)",
          params: Id,
          response: { 200: Success({ site_id: Int, webhook: Webhook }), ...commonErrors },
        },
      },
      async (request) =>
        ok({ site_id: request.site.id, webhook: await getWebhook(ctx, request.site, request.params.id) }),
    );

    scope.patch(
      "/webhooks/:id",
      {
        preValidation: absentBodyIsEmpty,
        schema: {
          operationId: "updateWebhook",
          tags,
          summary: "Change a webhook's url, events, active or description",
          params: Id,
          body: Body,
          response: { 200: Success({ site_id: Int, webhook: Webhook }), ...commonErrors },
        },
      },
      async (request) => {
        const { webhook, warnings } = await updateWebhook(
          ctx,
          request.site,
          request.params.id,
          request.body ?? {},
          options,
        );
        return ok({ site_id: request.site.id, webhook }, warnings);
      },
    );

    scope.delete(
      "/webhooks/:id",
      {
        schema: {
          operationId: "deleteWebhook",
          tags,
          summary:
            "Delete a webhook and its deliveries: nothing more is sent; ?dry_run=1 answers the same and deletes nothing",
          params: Id,
          querystring: Obj(DryRunQuery),
          response: { 200: Success({ site_id: Int, webhook: Webhook, ...DryRunAnswer }), ...commonErrors },
        },
      },
      async (request) => {
        const dryRun = dryRunOf(request);
        const webhook = await deleteWebhook(ctx, request.site, request.params.id, dryRun);
        return ok({ site_id: request.site.id, webhook, ...dryRunFields(dryRun) });
      },
    );

    scope.post(
      "/webhooks/:id/rotate",
      {
        preValidation: absentBodyIsEmpty,
        schema: {
          operationId: "rotateWebhookSecret",
          tags,
          summary:
            "A new secret, answered this once; the previous one keeps signing too (both signatures are sent) for 24 hours",
          params: Id,
          response: { 200: Success({ site_id: Int, webhook: WithSecret }), ...commonErrors },
        },
      },
      async (request) =>
        ok({ site_id: request.site.id, webhook: await rotateSecret(ctx, request.site, request.params.id) }),
    );

    scope.get(
      "/webhooks/:id/deliveries",
      {
        schema: {
          operationId: "listWebhookDeliveries",
          tags,
          summary: `The webhook's deliveries, newest first (?limit 1 to ${MAX_DELIVERIES}, default ${DEFAULT_DELIVERIES})`,
          params: Id,
          querystring: Obj({ limit: Opt(Str) }),
          response: { 200: Success({ site_id: Int, deliveries: Type.Array(Delivery) }), ...commonErrors },
        },
      },
      async (request) => {
        const limit = wholeNumber(request.query.limit, "limit", 1, MAX_DELIVERIES, DEFAULT_DELIVERIES);
        const deliveries = await listDeliveries(ctx, request.site, request.params.id, limit);
        return ok({ site_id: request.site.id, deliveries });
      },
    );

    scope.post(
      "/webhooks/:id/deliveries/:delivery_id/redeliver",
      {
        preValidation: absentBodyIsEmpty,
        schema: {
          operationId: "redeliverWebhookDelivery",
          tags,
          summary:
            "Send a delivery's event again, with the same webhook-id, signed now; answers the new delivery after its first attempt (retried as any delivery)",
          params: Obj({ id: Str, delivery_id: Str }),
          response: { 200: Success({ site_id: Int, delivery: Delivery }), ...commonErrors },
        },
      },
      async (request) => {
        const { id, delivery_id } = request.params;
        const delivery = await redeliver(ctx, request.site, id, delivery_id, options.allowPrivate);
        return ok({ site_id: request.site.id, delivery });
      },
    );

    scope.post(
      "/webhooks/:id/test",
      {
        preValidation: absentBodyIsEmpty,
        schema: {
          operationId: "testWebhook",
          tags,
          summary: "Send a signed test event (type webhook.test) now, once; answers the delivery",
          params: Id,
          response: { 200: Success({ site_id: Int, delivery: Delivery }), ...commonErrors },
        },
      },
      async (request) => {
        const caller = request.caller;
        const actor = { user_id: caller?.userId ?? null, token_id: caller?.tokenId ?? null };
        const delivery = await sendTest(ctx, request.site, request.params.id, actor, request.id, options.allowPrivate);
        return ok({ site_id: request.site.id, delivery });
      },
    );
  };
}
