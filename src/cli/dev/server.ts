// The dev server's HTTP side (docs/cli.md, "svc dev"): the event stream the reload script
// listens to (EVENTS_PATH, server-sent events: `reload` with the keys saved), pages rendered by
// render.ts, and everything else proxied (proxy.ts). Only GET and HEAD: anything else is 405, so
// nothing reaches the service that could write.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { CliError } from "../errors.ts";
import { DEV_PREFIX, EVENTS_PATH } from "./inject.ts";
import type { Rendered } from "./render.ts";

export interface DevHandlers {
  /** The page at a path, or null to proxy the request. */
  render(pathname: string, devOrigin: string): Promise<Rendered | null>;
  proxy(req: IncomingMessage, res: ServerResponse, devOrigin: string): void;
  /** A failure of render (the service unreachable): the line to print. */
  failed(error: unknown): string;
}

export interface DevServer {
  /** `http://<host>:<port>`: the address bound. */
  url: string;
  /** The address to open: `http://localhost:<port>` when bound to 127.0.0.1 (as browsers and docs say it), else `url`. */
  shown: string;
  /** Tells every open page to reload. */
  reload(keys: readonly string[]): void;
  close(): Promise<void>;
}

function text(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
  res.end(body);
}

export async function startDevServer(host: string, port: number, handlers: DevHandlers): Promise<DevServer> {
  const streams = new Set<ServerResponse>();
  let origin = "";
  let local = "";
  // The page's links point where the browser asked: localhost or the bound address alike.
  const originFor = (req: IncomingMessage) => (req.headers.host === new URL(local).host ? local : origin);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== "GET" && req.method !== "HEAD")
      return text(res, 405, "svc dev serves GET and HEAD only: it never writes to the service.\n", {
        allow: "GET, HEAD",
      });
    const pathname = new URL(req.url ?? "/", "http://dev").pathname;
    if (pathname === EVENTS_PATH) {
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-store",
        connection: "keep-alive",
      });
      res.write(": svc dev\n\n");
      streams.add(res);
      req.on("close", () => streams.delete(res));
      return;
    }
    if (pathname.startsWith(DEV_PREFIX)) return text(res, 404, "not found\n");
    // A file's address (`/styles/main.1a2b.css`, `/feed.xml`) is never a page's: page slugs hold no dot.
    const here = originFor(req);
    if (/\.[^/]*$/.test(pathname)) return handlers.proxy(req, res, here);
    let page: Rendered | null;
    try {
      page = await handlers.render(pathname, here);
    } catch (error) {
      return text(res, 502, `${handlers.failed(error)}\n`);
    }
    if (page === null) return handlers.proxy(req, res, here);
    res.writeHead(page.status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(req.method === "HEAD" ? undefined : page.html);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent) text(res, 500, `svc dev: ${error.message}\n`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new CliError(
          1,
          error.code === "EADDRINUSE"
            ? `port_in_use: ${host}:${port} is taken; choose another with --port`
            : `failed: cannot listen on ${host}:${port} (${error.message})`,
          [],
          { code: error.code === "EADDRINUSE" ? "port_in_use" : "failed" },
        ),
      ),
    );
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  origin = `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`;
  local = address.address === "127.0.0.1" ? `http://localhost:${address.port}` : origin;
  return {
    url: origin,
    shown: local,
    reload(keys) {
      const event = `event: reload\ndata: ${JSON.stringify({ keys })}\n\n`;
      for (const stream of streams) stream.write(event);
    },
    close() {
      for (const stream of streams) stream.end();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
