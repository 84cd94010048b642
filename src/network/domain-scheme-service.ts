// A domain's scheme (docs/domains.md, "Schemes"): PATCH /api/sites/{id}/domains/{domain}
// `{https: true | false | null}` stores whether the domain is served over HTTPS (true), plain HTTP
// (false) or as SVC_PUBLIC_SCHEME says (null), in its `site_domains` row and, for the primary
// domain, in `sites.https` (the copy every address is printed from, site/addresses.ts), in one
// transaction. A new scheme of the primary domain moves every absolute address the site prints:
// announced as a new domain is (`site` with `domain: true`: every page republished, the printed
// origin recorded in the same write). An alias's scheme prints nowhere (its requests redirect to
// the primary's address) until it is made the primary: its write announces the `site` change of
// an alias (hosts looked up anew).
import { fail } from "../errors.ts";
import type { Change } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import type { Caller } from "../site/callers.ts";
import { siteOrigin } from "../site/addresses.ts";
import { domainFrom, domainRecord, domainRecords, existingSite, type DomainAnswer } from "./domains-service.ts";

/** `https` as the API takes it: a boolean, or null to follow SVC_PUBLIC_SCHEME; 400 otherwise. */
function httpsFrom(body: Record<string, unknown>): number | null {
  if (!("https" in body)) throw fail("nothing_to_update", { allowed: ["https"] });
  const value = body.https;
  if (value === null) return null;
  if (typeof value !== "boolean")
    throw fail("invalid_field", { field: "https", expected: "boolean or null" }, "https is true, false or null.");
  return value ? 1 : 0;
}

export async function setDomainScheme(
  ctx: ServiceContext,
  caller: Caller,
  rawId: string,
  rawDomain: string,
  body: Record<string, unknown>,
): Promise<DomainAnswer> {
  const site = await existingSite(ctx, caller, rawId);
  const domain = domainFrom(rawDomain);
  const https = httpsFrom(body);
  const primary = domain === site.domain;
  const origin = siteOrigin({ domain, https }, ctx.publicFront);
  const done = await runWrite(ctx, {
    siteId: site.id,
    apply: async (trx) => {
      const row = await trx
        .updateTable("site_domains")
        .set({ https })
        .where("site_id", "=", site.id)
        .where("domain", "=", domain)
        .returning("is_primary")
        .executeTakeFirst();
      if (row === undefined) throw fail("domain_not_found", { domain });
      let changes: Change[] = [{ kind: "site" }];
      if (primary) {
        await trx.updateTable("sites").set({ https, printed_origin: origin }).where("id", "=", site.id).execute();
        // Printed addresses move only when the scheme (or its port) does, not when null comes to mean the same.
        if (origin !== siteOrigin(site, ctx.publicFront)) changes = [{ kind: "site", domain: true }];
      }
      const fresh = { ...site, https: primary ? https : site.https };
      return {
        value: await domainRecords({ ...ctx, db: trx }, fresh),
        wrote: [{ kind: "domain", id: domain, action: "updated" }],
        changes,
      };
    },
  });
  const written = domainRecord({ domain, primary, https: https === null ? null : https === 1 }, ctx.publicFront);
  return { site_id: site.id, domain: written, domains: done.value };
}
