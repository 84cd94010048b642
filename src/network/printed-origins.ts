// Kept output made under another origin (docs/publishing.md, "Durable publishing"): static copies
// and frame bakes hold the site's absolute addresses (`site.url`, page and menu links, canonical
// and hreflang links, feeds), printed with the origin of its primary domain — its scheme
// (SVC_PUBLIC_SCHEME unless the domain sets its own) and SVC_PUBLIC_PORT. `sites.printed_origin`
// records the origin the site's output was last printed with; every write that moves it (a new
// primary domain, a domain's scheme) records the new one in its own transaction. A start whose
// configuration prints another (SVC_PUBLIC_SCHEME or SVC_PUBLIC_PORT changed since the last start,
// or a site printed before the origin was recorded) republishes each such site through the write
// pipeline before the service answers (server.ts): its outbox entry is paid like any other, so a
// start killed midway republishes at the next one, and no page made under the old origin is
// served after the start.
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { siteOrigin } from "../site/addresses.ts";

/** Republishes every site whose output was printed with another origin than it prints now; answers how many. */
export async function republishMovedOrigins(ctx: ServiceContext): Promise<number> {
  const sites = await ctx.db.selectFrom("sites").select(["id", "domain", "https", "printed_origin"]).execute();
  let moved = 0;
  for (const site of sites) {
    const origin = siteOrigin(site, ctx.publicFront);
    if (site.printed_origin === origin) continue;
    await runWrite(ctx, {
      siteId: site.id,
      apply: async (trx) => {
        await trx.updateTable("sites").set({ printed_origin: origin }).where("id", "=", site.id).execute();
        // As a new domain: every absolute address moves (effects/effects.ts).
        return {
          value: null,
          wrote: [{ kind: "site", id: String(site.id), action: "updated" }],
          changes: [{ kind: "site", domain: true }],
        };
      },
    });
    moved++;
  }
  return moved;
}
