// Helpers of the page-cache security tests (public-cache*.test.ts, cache-shares.test.ts).
import { request } from "node:http";
import type { TestApp } from "../support/app.ts";
import { bind } from "../support/site.ts";
import type { PublishingEngine } from "../../src/publish/engine.ts";

/** A frame that prints the page's title: its pages render on request (`X-Svc-Printed: on_request`, then `cache`). */
export const live = `<!DOCTYPE html><html><body><h1 ${bind("text", "page.title")}>x</h1></body></html>`;

/** Counts the renders the public site asks of the engine. */
export function countRenders(t: TestApp): { readonly count: number } {
  const engine = t.deps.publisher as PublishingEngine;
  const render = engine.renderPage.bind(engine);
  const counter = { count: 0 };
  engine.renderPage = async (...args) => {
    counter.count++;
    return render(...args);
  };
  return counter;
}

export interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One GET over a real socket: through the server's listener (memory first), then Fastify. */
export function get(port: number, path: string, host = "localhost:8080"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method: "GET", headers: { host }, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}
