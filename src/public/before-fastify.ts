// What the server answers before Fastify routes a request (app.ts' server factory), in order: the
// request's scheme (secure-front.ts: HSTS, the redirect of plain HTTP on an https domain), public
// pages held in memory (routes.ts) and kept API reads (http/kept-api.ts). What none of them answers
// goes to Fastify.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Config } from "../config.ts";
import type { ProxyTrust } from "../http/forwarded.ts";
import { answerKeptApi, type KeptApiOptions } from "../http/kept-api.ts";
import type { PublicSite } from "./public-site.ts";
import { answerFromMemory } from "./routes.ts";
import { secureFront } from "./secure-front.ts";

export type BeforeFastify = (req: IncomingMessage, res: ServerResponse, toFastify: () => void) => void;

export interface BeforeFastifyOptions extends KeptApiOptions {
  config: Pick<Config, "publicScheme" | "port" | "hstsMaxAge">;
  trust: ProxyTrust | null;
}

export function answersBeforeFastify(site: PublicSite, options: BeforeFastifyOptions): BeforeFastify {
  const { config, trust, lines, log } = options;
  const fromMemory = answerFromMemory(site, { ...options, trust });
  const keptApi = answerKeptApi(options);
  const front = secureFront({
    directory: site.directory,
    front: config,
    hstsMaxAge: config.hstsMaxAge,
    trust,
    lines,
    log,
  });
  return (req, res, toFastify) =>
    front(req, res, () => {
      if (!fromMemory(req, res) && !keptApi(req, res, toFastify)) toFastify();
    });
}
