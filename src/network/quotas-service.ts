// A site's quotas and use (docs/security.md, "Quotas"). GET and PATCH /api/sites/{id}/quotas are
// network calls for super-administrators, checked as deleting a site is: anyone else gets 403
// insufficient_role whatever the id (so the call tells nobody which sites exist), a
// super-administrator 404 site_not_found for a site that does not exist. GET
// /api/site/{site_id}/usage is site-scoped: the site scope has already admitted the caller.
import { fail } from "../errors.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import type { Caller } from "../site/callers.ts";
import { siteById, type SiteRow } from "../site/sites.ts";
import {
  QUOTA_KEYS,
  quotaChangesFrom,
  type QuotaChanges,
  type QuotaKey,
  type QuotaValues,
} from "../quotas/catalogue.ts";
import { quotasOf, setQuotas } from "../quotas/limits.ts";
import { usageOf } from "../quotas/usage.ts";
import { requireSuperAdmin, siteIdFrom } from "./input.ts";

export interface QuotasAnswer {
  site_id: number;
  quotas: QuotaValues;
}

export type UsageAnswer = { site_id: number; usage: Record<QuotaKey, { used: number; limit: number }> };

async function existingSite(ctx: ServiceContext, caller: Caller, rawId: string): Promise<SiteRow> {
  requireSuperAdmin(caller);
  const site = await siteById(ctx.db, siteIdFrom(rawId));
  if (!site) throw fail("site_not_found");
  return site;
}

export async function getSiteQuotas(ctx: ServiceContext, caller: Caller, rawId: string): Promise<QuotasAnswer> {
  const site = await existingSite(ctx, caller, rawId);
  return { site_id: site.id, quotas: await quotasOf(ctx.db, site.id) };
}

/** PATCH: each key a quota; a whole number >= 0 sets it, null restores its default. */
export async function patchSiteQuotas(
  ctx: ServiceContext,
  caller: Caller,
  rawId: string,
  body: QuotaChanges,
): Promise<QuotasAnswer> {
  const site = await existingSite(ctx, caller, rawId);
  const changes = quotaChangesFrom(body);
  const done = await runWrite(ctx, {
    siteId: site.id,
    apply: async (trx) => ({
      value: await setQuotas(trx, site.id, changes),
      wrote: [{ kind: "quota", id: String(site.id), action: "updated" }],
    }),
  });
  return { site_id: site.id, quotas: done.value };
}

/** Each quota's use and limit; reads two small rows, whatever the size of the site. */
export async function siteUsage(ctx: ServiceContext, siteId: number): Promise<UsageAnswer> {
  const [used, limits] = await Promise.all([usageOf(ctx.db, siteId), quotasOf(ctx.db, siteId)]);
  const usage = Object.fromEntries(
    QUOTA_KEYS.map((key) => [key, { used: used[key], limit: limits[key] }]),
  ) as UsageAnswer["usage"];
  return { site_id: siteId, usage };
}
