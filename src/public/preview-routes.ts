// Preview links on a site's domain: GET (and HEAD) /_preview/<token> (docs/preview.md).
//
// A live link for this host's site shows its page as it currently stands, draft or published:
// rendered on request from what is stored, never a static copy, kept a few seconds at most and
// dropped at the site's next publish (preview-answers.ts), with
// `X-Robots-Tag: noindex`, `Cache-Control: private, no-store` and `Referrer-Policy: no-referrer`
// (the token must not leave in a Referer). Anything else — a malformed, changed, expired or revoked
// token, one of another site, a page since trashed or taken off its frame — gets exactly what the
// site answers for an address that holds no page: its 404 (its `not_found_page`, else the plain
// one), so nothing of the page is shown and nothing tells a wrong token from an expired one.
// Every request is counted against the public limit; an alias of the site answers 301 to the same
// address on its primary domain, as for every public address.
//
// Registered beside `/*` (routes.ts): the router takes `/_preview/:token` first. The page fast
// path (answerFromMemory) never holds such an address: no page can have it (page slugs have no
// `_`), and the cache keeps pages by their addresses only.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { TypedFastify } from "../http/typed-fastify.ts";
import { OverBudget } from "../markup/index.ts";
import { pageById } from "../pages/queries.ts";
import { pageOfToken, PREVIEW_PATH } from "../preview/links.ts";
import type { ServiceContext } from "../write/context.ts";
import { ExecutorUnavailable } from "../publish/executor.ts";
import { hostOf } from "../site/addresses.ts";
import { languageState } from "../site/languages.ts";
import { HTML, unavailable } from "./answers.ts";
import { PreviewAnswers } from "./preview-answers.ts";
import type { PublicSite } from "./public-site.ts";
import { pageAnswerer, withinPublicLimit, type PublicGate } from "./routes.ts";

/** Headers of every answer under /_preview/: never indexed, never kept, never told in a Referer. */
const PRIVATE = {
  "x-robots-tag": "noindex",
  "cache-control": "private, no-store",
  "referrer-policy": "no-referrer",
} as const;

/** The route's one parameter, which its path gives (no schema: nothing to check, nothing to document). */
interface TokenRoute {
  Params: { token: string };
}

export function previewLinkRoutes(app: TypedFastify, site: PublicSite, gate: PublicGate, ctx: ServiceContext): void {
  const answerPage = pageAnswerer(site, gate);
  const kept = new PreviewAnswers(site.cache);

  async function handler(request: FastifyRequest<TokenRoute>, reply: FastifyReply): Promise<FastifyReply> {
    if (!(await withinPublicLimit(gate, request, reply))) return reply;
    const host = hostOf(request.host);
    const moved = await site.aliasAnswer(host, request.url);
    if (moved) return reply.code(moved.status).headers(moved.headers).send(moved.body);
    const served = await site.directory.resolve(host);
    const token = request.params.token;
    const pageId = served === undefined ? null : await pageOfToken(gate.db, served.id, token, ctx.clock());
    const page = pageId === null ? undefined : await pageById(gate.db, served!.id, pageId);
    if (!served || !page || page.status === "trash" || !ctx.publisher.renderPage) return answerPage(request, reply);
    const langs = await languageState(gate.db, served.id);
    const lang = page.lang === "" ? langs.defaultLang : page.lang;
    const renderPage = ctx.publisher.renderPage.bind(ctx.publisher);
    const output = await kept.answer(served.id, page.id, lang, () => renderPage(served.id, page, lang));
    if ("failed" in output) {
      if (!(output.failed instanceof ExecutorUnavailable || output.failed instanceof OverBudget)) throw output.failed;
      const down = unavailable();
      return reply.code(down.status).headers(down.headers).send(down.body);
    }
    const html = output.html;
    if (html === null) return answerPage(request, reply);
    return reply.code(200).headers({ "content-type": HTML, "x-svc-printed": "on_request" }).send(html);
  }

  app.route<TokenRoute>({
    method: ["GET", "HEAD"],
    url: `${PREVIEW_PATH}:token`,
    schema: { hide: true },
    handler,
    // On every answer, the 404 and 429 included: they are set over what the page answers carry.
    onSend: (_request, reply, payload, done) => {
      reply.headers(PRIVATE);
      done(null, payload);
    },
  });
}
