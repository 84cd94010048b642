// The limits of a site: its defaults (catalogue.ts) with what a super-administrator set
// (`site_quotas`, one row per quota set; null removes the row, restoring the default).
import type { Db } from "../store/database.ts";
import { defaultQuotas, isQuotaKey, QUOTA_KEYS, type QuotaChanges, type QuotaValues } from "./catalogue.ts";

export async function quotasOf(db: Db, siteId: number): Promise<QuotaValues> {
  const quotas = defaultQuotas();
  const rows = await db.selectFrom("site_quotas").select(["quota", "value"]).where("site_id", "=", siteId).execute();
  for (const row of rows) if (isQuotaKey(row.quota)) quotas[row.quota] = Number(row.value);
  return quotas;
}

/** Sets and restores quotas, in the caller's transaction (the write pipeline's); answers the limits that result. */
export async function setQuotas(trx: Db, siteId: number, changes: QuotaChanges): Promise<QuotaValues> {
  for (const key of QUOTA_KEYS) {
    const value = changes[key];
    if (value === undefined) continue;
    if (value === null) {
      await trx.deleteFrom("site_quotas").where("site_id", "=", siteId).where("quota", "=", key).execute();
    } else {
      await trx
        .insertInto("site_quotas")
        .values({ site_id: siteId, quota: key, value })
        .onConflict((conflict) => conflict.columns(["site_id", "quota"]).doUpdateSet({ value }))
        .execute();
    }
  }
  return quotasOf(trx, siteId);
}
