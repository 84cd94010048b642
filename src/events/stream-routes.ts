// GET /api/site/{site_id}/events/stream and GET /api/events/stream: the events as Server-Sent
// Events (docs/events.md, "The stream"), for whoever may read GET /events at the same address.
// Everything a call can be refused for (token, site, role, a bad Last-Event-ID) is refused before
// the stream starts, in the usual JSON envelopes; once it has started, the answer is the stream.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { commonErrors, Obj, Opt, Type } from "../http/schema.ts";
import type { SiteRoutes } from "../http/site-routes.ts";
import { typedRoutes } from "../http/typed-fastify.ts";
import type { ServiceContext } from "../write/context.ts";
import { EventsQuery, networkScopeOf } from "./routes.ts";
import { resumePoint } from "./service.ts";
import type { EventStreams } from "./stream-hub.ts";

const StreamQuery = Obj({ since: EventsQuery.properties.since, type: EventsQuery.properties.type });

const StreamHeaders = Obj({
  "last-event-id": Opt(
    Type.String({ description: "the last event id received: the stream resumes after it (read before ?since)" }),
  ),
});

const description =
  "Server-Sent Events (text/event-stream): `retry: 2000` and `id: <where it starts>` first, then per event " +
  "`id: <event id>`, `event: <type>`, `data: <the event as GET /events shows it>` and a blank line, in " +
  "increasing id, each once its write's publish run is over (its `published` filled, or after 60 s without " +
  "it). It resumes after Last-Event-ID, else after ?since; with neither it starts from now (only new events). " +
  "A comment line `: keep-alive` comes every 10 s. Refusals come before the stream starts, as JSON.";

const StreamAnswers = {
  200: {
    description: "the stream (text/event-stream)",
    content: { "text/event-stream": { schema: Type.String({ description: "the events as Server-Sent Events" }) } },
  },
  ...commonErrors,
};

/** No proxy keeps or holds back any of it (nginx buffers an answer unless told not to). */
const STREAM_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-store",
  "x-accel-buffering": "no",
};

/** Starts the stream of `siteId`'s events (null: the network's) for a call admitted to read them. */
async function answerStream(
  streams: EventStreams,
  siteId: number | null,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const query = request.query as { since?: string; type?: string };
  const header = request.headers["last-event-id"];
  const resumed =
    resumePoint(Array.isArray(header) ? header[0] : header, "Last-Event-ID") ?? resumePoint(query.since, "since");
  reply.headers(STREAM_HEADERS);
  // A HEAD opens nothing: it has no body to send the events in.
  if (request.method === "HEAD") return reply.send();
  const after = resumed ?? (await streams.lastEventId());
  // Admitted by the route's guard, so there is a caller; it is asked again while the stream is open.
  const stream = streams.stream({ siteId, type: query.type?.trim() || undefined, caller: request.caller! }, after);
  return reply.send(stream.body);
}

/** The site's stream, registered at /api/site/{site_id} only, as GET /events (its administrators). */
export function siteEventStreamRoutes(streams: EventStreams): SiteRoutes {
  return (scope) =>
    scope.get(
      "/events/stream",
      {
        schema: {
          operationId: "streamSiteEvents",
          tags: ["events"],
          summary: "The site's events as they happen (Server-Sent Events)",
          description,
          querystring: StreamQuery,
          headers: StreamHeaders,
          response: StreamAnswers,
        },
      },
      (request, reply) => answerStream(streams, request.site.id, request, reply),
    );
}

/** The network's stream (super-administrators), or one site's with a legacy selector, as GET /api/events. */
export function networkEventStreamRoutes(app: FastifyInstance, ctx: ServiceContext, streams: EventStreams): void {
  typedRoutes(app).get(
    "/api/events/stream",
    {
      schema: {
        operationId: "streamEvents",
        tags: ["events"],
        summary:
          "The whole network's events as they happen (super-administrators), or one site's with blog_id, X-Svc-Blog-Id or domain (Server-Sent Events)",
        description,
        querystring: Obj({ ...StreamQuery.properties, blog_id: Opt(Type.String()), domain: Opt(Type.String()) }),
        headers: StreamHeaders,
        response: StreamAnswers,
      },
    },
    async (request, reply) => answerStream(streams, await networkScopeOf(ctx, request, reply), request, reply),
  );
}
