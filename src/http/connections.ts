// Slow and greedy clients (docs/security.md "Slow clients"). Node's HTTP
// server as Fastify sets it up waits for ever: `requestTimeout` 0, no idle limit while a body is
// read, no cap on connections. A body sent one byte every 5 s was held for minutes, and 300 of
// them took every file descriptor, so the service stopped answering everyone. Here:
//   - headers must arrive within `headersTimeoutMs` (Node's own check, 408 and closed);
//   - a request's body must arrive whole within `requestTimeoutMs` of its start, or
//     `uploadTimeoutMs` on the routes that take media uploads (`extendForUpload`);
//   - a body that stops arriving for `bodyIdleTimeoutMs` between two reads is cut;
//   - one client address (IPv6 by /64: address-group.ts) holds at most `maxPerAddress` open
//     connections; more are closed as they are accepted (0: no cap).
// A cut request is answered 408 when nothing was sent yet, and its connection is closed.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { ConnectionLimits } from "../config.ts";
import { addressGroup } from "./address-group.ts";
import { requestIdOf } from "./request-id.ts";

/** A request whose body is still arriving, with its two timers. */
interface Watched {
  whole: NodeJS.Timeout;
  idle: NodeJS.Timeout;
  started: number;
  stop(): void;
}

const watched = new WeakMap<IncomingMessage, Watched>();

/** Whether the request says a body follows (a length above 0, or chunks). */
export function declaresBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

function cut(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  if (!res.headersSent && !res.writableEnded) {
    res.writeHead(408, {
      "x-request-id": requestIdOf(req),
      "content-type": "text/plain; charset=utf-8",
      connection: "close",
    });
    res.end("Request Timeout\n");
  }
  req.socket.destroy();
}

/**
 * Starts the body's timers for a request that declares one; they stop once it has arrived whole
 * or the answer is done. Called first thing for every request, before any routing.
 */
export function watchBody(req: IncomingMessage, res: ServerResponse, limits: ConnectionLimits): void {
  if (!declaresBody(req) || req.complete) return;
  const socket = req.socket;
  const whole = setTimeout(() => cut(req, res), limits.requestTimeoutMs);
  const idle = setTimeout(() => cut(req, res), limits.bodyIdleTimeoutMs);
  // The socket's own bytes, not the request stream's: listening to the request would start reading
  // the body before its route does. The HTTP parser already reads the socket, so this changes nothing.
  const moved = () => {
    if (req.complete) stop();
    else idle.refresh();
  };
  const stop = () => {
    const entry = watched.get(req);
    clearTimeout(entry?.whole ?? whole);
    clearTimeout(idle);
    socket.removeListener("data", moved);
    socket.removeListener("close", stop);
    watched.delete(req);
  };
  socket.on("data", moved);
  req.once("end", stop);
  res.once("close", stop);
  socket.once("close", stop);
  // A request's deadline never keeps the process alive by itself (a closed app's, in tests).
  whole.unref();
  idle.unref();
  watched.set(req, { whole, idle, started: performance.now(), stop });
}

/** The routes that take a media upload, which may take SVC_UPLOAD_TIMEOUT_MS to arrive. */
export function isUploadRoute(method: string, url: string | undefined): boolean {
  if (url === undefined) return false;
  return (
    (method === "POST" && (url.endsWith("/media") || url.endsWith("/import"))) ||
    (method === "PUT" && url.endsWith("/media/:ref"))
  );
}

/** Gives an upload route's request the upload time limit, counted from the request's start. */
export function extendForUpload(req: IncomingMessage, res: ServerResponse, limits: ConnectionLimits): void {
  const entry = watched.get(req);
  if (!entry) return;
  clearTimeout(entry.whole);
  const left = Math.max(0, limits.uploadTimeoutMs - (performance.now() - entry.started));
  entry.whole = setTimeout(() => cut(req, res), left).unref();
}

/** Node's own limits on the server, and the cap on connections per client address. */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  // A backstop only: the limits per request are the timers above (Node's is one for all routes).
  server.requestTimeout = Math.max(limits.requestTimeoutMs, limits.uploadTimeoutMs, limits.headersTimeoutMs + 1);
  if (limits.maxPerAddress <= 0) return;
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const key = addressGroup(socket.remoteAddress ?? "");
    const count = open.get(key) ?? 0;
    if (count >= limits.maxPerAddress) {
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once("close", () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
}
