// The webhooks group's receiver (bench/README.md, "Events and webhooks"): a bare node:http server
// in the bench's own process that answers every POST 204 at once and notes when each arrived
// (performance.now(), the clock the bench times the writes' answers with) and the event it
// carried. Once answered, it checks the delivery's signature with the standardwebhooks package, as
// a receiver would (a delivery that came before the bench knew the secret is checked when it does:
// the package refuses a timestamp more than five minutes old, so not all at the end of the run).
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Delivery {
  /** performance.now() when the whole request had arrived. */
  at: number;
  eventId: number;
  type: string;
  requestId: string | null;
  messageId: string;
  /** Whether the secret verified its signature; null while the secret is not known. */
  signed: boolean | null;
}

export interface BenchReceiver {
  url: string;
  deliveries: Delivery[];
  /** The hook's secret: deliveries are checked with it from now on, and those already here now. */
  useSecret(secret: string): void;
  close(): Promise<void>;
}

function signedBy(verifier: Webhook, headers: IncomingHttpHeaders, body: string): boolean {
  try {
    verifier.verify(body, {
      "webhook-id": String(headers["webhook-id"]),
      "webhook-timestamp": String(headers["webhook-timestamp"]),
      "webhook-signature": String(headers["webhook-signature"]),
    });
    return true;
  } catch {
    return false;
  }
}

export async function startBenchReceiver(): Promise<BenchReceiver> {
  const deliveries: Delivery[] = [];
  const unchecked: Array<{ delivery: Delivery; headers: IncomingHttpHeaders; body: string }> = [];
  let verifier: Webhook | null = null;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const at = performance.now();
      response.writeHead(204).end();
      const body = Buffer.concat(chunks).toString("utf8");
      const event = JSON.parse(body) as { id: number; type: string; request_id: string | null };
      const delivery: Delivery = {
        at,
        eventId: event.id,
        type: event.type,
        requestId: event.request_id,
        messageId: String(request.headers["webhook-id"]),
        signed: verifier ? signedBy(verifier, request.headers, body) : null,
      };
      deliveries.push(delivery);
      if (!verifier) unchecked.push({ delivery, headers: request.headers, body });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    deliveries,
    useSecret(secret) {
      verifier = new Webhook(secret);
      for (const { delivery, headers, body } of unchecked.splice(0))
        delivery.signed = signedBy(verifier, headers, body);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
