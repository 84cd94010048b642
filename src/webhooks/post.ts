// One delivery attempt of a webhook: a POST of the JSON body, answered by the receiver's status and
// the start of its answer, or by why no answer came. It never throws. The socket connects only to
// a public address unless private ones are allowed: a name through guardedLookup (the address
// checked is the address connected to), an IP literal checked here since no lookup runs for it.
// Redirects are not followed: a 3xx is the receiver's answer. One timer bounds the whole attempt.
import http from "node:http";
import { isIP } from "node:net";
import { StringDecoder } from "node:string_decoder";
import { ADDRESS_NOT_ALLOWED, guardedLookup, hostOf, isPublicAddress } from "./address-check.ts";

export interface PostResult {
  /** The answer's status; null when no answer came (see error). */
  status: number | null;
  /** The first maxBodyBytes of the answer's body, as UTF-8. */
  body: string;
  durationMs: number;
  /** Why no answer came: timeout, refused, address_not_allowed, dns, invalid_url or the socket's error code. */
  error: string | null;
}

export interface PostOptions {
  /** The whole attempt: resolve, connect, send and the answer. */
  timeoutMs: number;
  allowPrivate: boolean;
  maxBodyBytes?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 1024;
export const WEBHOOK_USER_AGENT = "svc-webhooks/1";

type Outcome = Omit<PostResult, "durationMs">;

export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: PostOptions,
): Promise<PostResult> {
  const started = performance.now();
  const outcome = await attempt(url, headers, body, options);
  return { ...outcome, durationMs: Math.round(performance.now() - started) };
}

async function attempt(url: string, headers: Record<string, string>, body: string, options: PostOptions) {
  const target = URL.parse(url);
  if (target === null || (target.protocol !== "https:" && target.protocol !== "http:")) return failed("invalid_url");
  const host = hostOf(target);
  if (!options.allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) return failed("address_not_allowed");
  // node:https is loaded on the first https attempt: a start loads neither it nor node:http2
  // (scripts/dependency-patches.mjs defers them for Fastify too).
  const client = target.protocol === "https:" ? (await import("node:https")).default : http;
  return send(client, target, headers, body, options);
}

function send(
  client: Pick<typeof http, "request">,
  target: URL,
  headers: Record<string, string>,
  body: string,
  options: PostOptions,
): Promise<Outcome> {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return new Promise((resolve) => {
    const request = client.request({
      hostname: hostOf(target),
      port: target.port === "" ? undefined : Number(target.port),
      path: `${target.pathname}${target.search}`,
      method: "POST",
      // The caller's headers (event, signature) and then ours, which a caller's cannot replace.
      headers: {
        ...headers,
        "Content-Type": "application/json",
        "Content-Length": String(Buffer.byteLength(body)),
        "User-Agent": WEBHOOK_USER_AGENT,
      },
      lookup: guardedLookup(options.allowPrivate),
      // A socket of its own for each attempt, closed with it; nothing is kept between attempts.
      agent: false,
    });
    let status: number | null = null;
    const received: Buffer[] = [];
    let receivedBytes = 0;
    let settled = false;
    // Once the status has come the receiver has answered; reading the rest of the body is for the
    // record only, so its end, cut, failure or timeout all settle with that status.
    const settle = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve({ status, body: startOf(received, limit), error: status === null ? error : null });
    };
    const timer = setTimeout(() => settle("timeout"), options.timeoutMs);
    request.on("error", (error) => settle(describeFailure(error)));
    request.on("response", (response) => {
      status = response.statusCode ?? null;
      response.on("data", (chunk: Buffer) => {
        received.push(chunk);
        receivedBytes += chunk.length;
        if (receivedBytes >= limit) settle(null);
      });
      response.on("end", () => settle(null));
      response.on("error", () => settle(null));
    });
    request.end(body);
  });
}

function failed(error: string): Outcome {
  return { status: null, body: "", error };
}

// The first `limit` bytes as text; a character the cut splits in two is left out, not mangled.
function startOf(chunks: Buffer[], limit: number): string {
  return new StringDecoder("utf8").write(Buffer.concat(chunks).subarray(0, limit));
}

function describeFailure(error: NodeJS.ErrnoException): string {
  // When every address of a name failed, Node answers an AggregateError of each connect's error.
  const first = error instanceof AggregateError ? (error.errors[0] as NodeJS.ErrnoException | undefined) : undefined;
  const code = error.code ?? first?.code;
  if (code === ADDRESS_NOT_ALLOWED) return "address_not_allowed";
  if (code === "ECONNREFUSED") return "refused";
  if (code === "ENOTFOUND" || error.syscall === "getaddrinfo" || first?.syscall === "getaddrinfo") return "dns";
  return (code ?? error.message).slice(0, 200);
}
