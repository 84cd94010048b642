// GET, POST and DELETE /seo/redirects (docs/seo.md). The records themselves, and the
// rules they keep (one per address, chains collapsed, none at a live page's address), are in
// redirects/; automatic ones are made by page writes. A redirect is served before the page lookup
// and cached like a page, so every write here announces the address whose answer changed.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import type { Rebaked, Written } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { nothingRebaked } from "../write/change.ts";
import { runWrite } from "../write/pipeline.ts";
import {
  addRedirect,
  deleteRedirect,
  listRedirects,
  type RedirectRecord,
  type RedirectStatus,
} from "../redirects/redirects.ts";
import type { SiteRow } from "../site/sites.ts";
import { redirectInput, requireNoPageAt } from "./redirect-input.ts";

export function redirectAnswer(record: RedirectRecord) {
  return {
    id: record.id,
    from: record.from,
    to: record.to,
    status: record.status,
    auto: record.auto,
    created_at_gmt: record.created_at_gmt,
  };
}

export async function redirectsOf(ctx: Pick<ServiceContext, "db">, site: SiteRow) {
  return (await listRedirects(ctx.db, site.id)).map(redirectAnswer);
}

/** One redirect of POST /seo/redirects as its route schema lets it through (`status` one of REDIRECT_STATUSES). */
export type CreateRedirectBody = { from?: string; to?: string; status?: RedirectStatus | null };

/** POST /seo/redirects `{from, to, status?}`: 201 (200 when it replaced the redirect at `from`). */
export async function createRedirect(
  ctx: ServiceContext,
  site: SiteRow,
  body: CreateRedirectBody,
): Promise<{ redirect: ReturnType<typeof redirectAnswer>; replaced: boolean; rebaked: Rebaked }> {
  const { from, to, status } = redirectInput(body);
  await requireNoPageAt(ctx.db, site.id, from);
  const done = await runWrite(ctx, {
    siteId: site.id,
    apply: async (trx) => {
      const added = await addRedirect(trx, site.id, { from, to, status }, gmt(ctx.clock()));
      // Records that pointed at `from` point further; one that would point at itself went (redirects.ts).
      const wrote = added.writes.map(({ address, action }): Written => ({ kind: "redirect", id: address, action }));
      return { value: added, wrote, changes: [{ kind: "redirects", addresses: added.addresses }] };
    },
  });
  const { record, replaced } = done.value;
  return { redirect: redirectAnswer(record), replaced, rebaked: done.rebaked };
}

/** DELETE /seo/redirects/{id}. */
export async function removeRedirect(
  ctx: ServiceContext,
  site: SiteRow,
  idText: string,
  options: { dryRun?: boolean } = {},
): Promise<{ deleted: ReturnType<typeof redirectAnswer>; rebaked: Rebaked; dry_run?: true; applied?: false }> {
  const id = /^[1-9]\d{0,9}$/.test(idText) ? Number(idText) : NaN;
  if (!Number.isSafeInteger(id)) throw fail("redirect_not_found", { id: idText });
  // `?dry_run=1`: the same delete, rolled back; the same answer, nothing announced.
  const done = await runWrite(ctx, {
    siteId: site.id,
    dryRun: options.dryRun === true,
    apply: async (trx) => {
      const gone = await deleteRedirect(trx, site.id, id);
      if (!gone) throw fail("redirect_not_found", { id });
      return {
        value: gone,
        wrote: [{ kind: "redirect", id: gone.from, action: "deleted" }],
        changes: [{ kind: "redirects", addresses: [gone.from] }],
      };
    },
  });
  if (options.dryRun)
    return { deleted: redirectAnswer(done.value), rebaked: nothingRebaked(), dry_run: true, applied: false };
  return { deleted: redirectAnswer(done.value), rebaked: done.rebaked };
}
