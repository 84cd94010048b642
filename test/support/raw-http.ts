// One request over a real socket, answered with every header as sent (names lower-cased, in
// order): for tests that compare whole answers, or that must reach the raw listener that answers
// pages held in memory before Fastify.
import { request } from "node:http";

export interface Raw {
  status: number;
  headers: Array<[string, string]>;
  body: string;
}

export function rawRequest(
  port: number,
  path: string,
  options: { headers?: Record<string, string>; host?: string; method?: string } = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const headers = { host: options.host ?? "localhost:8080", ...options.headers };
    const req = request({ host: "127.0.0.1", port, path, method: options.method ?? "GET", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => {
        const pairs: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          pairs.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]]);
        resolve({ status: res.statusCode ?? 0, headers: pairs, body });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/** A header's value as sent, or undefined. */
export const rawHeader = (raw: Raw, name: string) => raw.headers.find(([key]) => key === name)?.[1];
