// Domains of a site (docs/domains.md): one primary domain (`sites.domain`) and any
// number of aliases, every one of them a row of `site_domains`, written here and in
// sites-service.ts only, in the same transaction as `sites.domain`. A domain belongs to at most
// one site, as primary or alias: every name is normalised first (domain-name.ts), so the table's
// key holds whatever the case or script it was written in. The admin's host (SVC_ADMIN_HOST) is no
// site's: 409 domain_reserved for it as a primary domain or an alias.
//
// GET/POST /api/sites/{id}/domains and DELETE /api/sites/{id}/domains/{domain} are network calls
// for super-administrators, checked as the site's quotas are: anyone else gets 403
// insufficient_role whatever the id, a super-administrator 404 site_not_found for a site that does
// not exist. Adding or removing an alias announces a `site` change: the engine forgets the hosts
// that named the site or matched no site, here and in the other processes, so the very next
// request on the alias is answered as the table says.
import { fail } from "../errors.ts";
import type { Written } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import type { Caller } from "../site/callers.ts";
import { domainHolder, domainsOf, siteById, type SiteDomain, type SiteRow } from "../site/sites.ts";
import { schemeOf, siteOrigin } from "../site/addresses.ts";
import type { PublicFront, Scheme } from "../config.ts";
import type { Db } from "../store/database.ts";
import { isUniqueViolation } from "../store/errors.ts";
import { normaliseDomain, type DomainRefusal } from "./domain-name.ts";
import { requireSuperAdmin, siteIdFrom } from "./input.ts";

/** A domain as answered: with the scheme its addresses are printed with (docs/domains.md, "Schemes"). */
export interface DomainRecord extends SiteDomain {
  scheme: Scheme;
}

export interface DomainsAnswer {
  site_id: number;
  domains: DomainRecord[];
}

export interface DomainAnswer extends DomainsAnswer {
  domain: DomainRecord;
}

export function domainRecord(domain: SiteDomain, front: PublicFront): DomainRecord {
  return { ...domain, scheme: schemeOf(domain.https === null ? null : domain.https ? 1 : 0, front) };
}

/** The site's domains as answered. */
export async function domainRecords(
  ctx: Pick<ServiceContext, "db" | "publicFront">,
  site: SiteRow,
): Promise<DomainRecord[]> {
  return (await domainsOf(ctx.db, site)).map((domain) => domainRecord(domain, ctx.publicFront));
}

const REFUSALS: Record<DomainRefusal, string> = {
  empty: "A domain is needed.",
  space: "A domain holds no spaces.",
  port_or_path: "A domain is a host name only: no scheme, port or path.",
  empty_label: "A domain has no empty label (no leading, trailing or doubled dot).",
  hyphen: "No label of a domain starts or ends with a hyphen.",
  characters: "A domain holds letters, digits, hyphens and dots only (an international name is written in punycode).",
  label_too_long: "A label of a domain is at most 63 characters.",
  too_long: "A domain is at most 253 characters.",
};

/**
 * A domain from the API, normalised; 400 invalid_domain (with the `reason`) when malformed or
 * absent, 400 invalid_field when not a string.
 */
export function domainFrom(value: unknown): string {
  if (value !== undefined && value !== null && typeof value !== "string") {
    throw fail("invalid_field", { field: "domain", expected: "string" }, "domain must be a string.");
  }
  const result = normaliseDomain(typeof value === "string" ? value : "");
  if ("refused" in result)
    throw fail("invalid_domain", { domain: value ?? null, reason: result.refused }, REFUSALS[result.refused]);
  return result.domain;
}

/** 409 domain_taken, naming the site holding it and how. */
export function domainTaken(domain: string, holder?: { siteId: number; primary: boolean }): Error {
  return fail("domain_taken", holder ? { domain, site_id: holder.siteId, primary: holder.primary } : { domain });
}

/**
 * Refuses the admin's host (409 domain_reserved: it serves the admin, never a site's pages) and a
 * domain held by a site other than `siteId` (any site when undefined).
 */
export async function requireFreeDomain(
  ctx: Pick<ServiceContext, "db" | "adminHost">,
  domain: string,
  siteId?: number,
): Promise<void> {
  if (domain === ctx.adminHost) throw fail("domain_reserved", { domain });
  const holder = await domainHolder(ctx.db, domain);
  if (holder && holder.siteId !== siteId) throw domainTaken(domain, holder);
}

/** Runs a write of domains; a unique violation (a concurrent write took the name) is 409 domain_taken. */
export async function writingDomain<T>(domain: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw domainTaken(domain);
    throw error;
  }
}

/**
 * Makes `domain` the site's primary domain, in the caller's transaction: `sites.domain` and its
 * row here. The former primary is no domain of the site any more; an alias of the same site named
 * is promoted (its alias row goes), keeping its scheme (`https`); a new domain follows
 * SVC_PUBLIC_SCHEME. The site's printed origin is the new one: its change republishes every page.
 * Answers the domains written.
 */
export async function writePrimaryDomain(
  trx: Db,
  siteId: number,
  domain: string,
  front: PublicFront,
): Promise<Written[]> {
  const alias = await trx
    .selectFrom("site_domains")
    .select("https")
    .where("site_id", "=", siteId)
    .where("domain", "=", domain)
    .executeTakeFirst();
  const https = alias?.https ?? null;
  const printed_origin = siteOrigin({ domain, https }, front);
  await trx.updateTable("sites").set({ domain, https, printed_origin }).where("id", "=", siteId).execute();
  const gone = await trx
    .deleteFrom("site_domains")
    .where("site_id", "=", siteId)
    .where((eb) => eb.or([eb("is_primary", "=", 1), eb("domain", "=", domain)]))
    .returning("domain")
    .execute();
  await trx.insertInto("site_domains").values({ domain, site_id: siteId, is_primary: 1, https }).execute();
  const promoted = gone.some((row) => row.domain === domain);
  return [
    { kind: "domain", id: domain, action: promoted ? "updated" : "created" },
    ...gone
      .filter((row) => row.domain !== domain)
      .map((row): Written => ({ kind: "domain", id: row.domain, action: "deleted" })),
  ];
}

export async function existingSite(ctx: ServiceContext, caller: Caller, rawId: string): Promise<SiteRow> {
  requireSuperAdmin(caller);
  const site = await siteById(ctx.db, siteIdFrom(rawId));
  if (!site) throw fail("site_not_found");
  return site;
}

export async function listDomains(ctx: ServiceContext, caller: Caller, rawId: string): Promise<DomainsAnswer> {
  const site = await existingSite(ctx, caller, rawId);
  return { site_id: site.id, domains: await domainRecords(ctx, site) };
}

/** POST: `{domain}` becomes an alias of the site; any domain some site holds (this one too) is 409 domain_taken. */
export async function addAlias(
  ctx: ServiceContext,
  caller: Caller,
  rawId: string,
  body: Record<string, unknown>,
): Promise<DomainAnswer> {
  const site = await existingSite(ctx, caller, rawId);
  const domain = domainFrom(body.domain);
  await requireFreeDomain(ctx, domain);
  await runWrite(ctx, {
    siteId: site.id,
    taken: async () => domainTaken(domain),
    apply: async (trx) => {
      await trx.insertInto("site_domains").values({ domain, site_id: site.id, is_primary: 0 }).execute();
      return { value: null, wrote: [{ kind: "domain", id: domain, action: "created" }], changes: [{ kind: "site" }] };
    },
  });
  const alias = domainRecord({ domain, primary: false, https: null }, ctx.publicFront);
  return { site_id: site.id, domain: alias, domains: await domainRecords(ctx, site) };
}

/**
 * DELETE: the alias goes; the site's primary domain is 409 domain_is_primary (change it with
 * PATCH /api/sites/{id} first), a domain that is no alias of the site 404 domain_not_found.
 */
/** `dryRun` (`?dry_run=1`): the same refusals and answer (the domains left), the delete rolled back, nothing announced. */
export async function removeAlias(
  ctx: ServiceContext,
  caller: Caller,
  rawId: string,
  rawDomain: string,
  options: { dryRun?: boolean } = {},
): Promise<DomainAnswer & { dry_run?: true; applied?: false }> {
  const site = await existingSite(ctx, caller, rawId);
  const domain = domainFrom(rawDomain);
  if (domain === site.domain) throw fail("domain_is_primary", { domain });
  const dryRun = options.dryRun === true;
  const done = await runWrite(ctx, {
    siteId: site.id,
    dryRun,
    apply: async (trx) => {
      const removed = await trx
        .deleteFrom("site_domains")
        .where("site_id", "=", site.id)
        .where("domain", "=", domain)
        .where("is_primary", "=", 0)
        .returning("https")
        .executeTakeFirst();
      if (removed === undefined) throw fail("domain_not_found", { domain });
      const alias = { domain, primary: false, https: removed.https === null ? null : removed.https === 1 };
      return {
        value: { alias: domainRecord(alias, ctx.publicFront), domains: await domainRecords({ ...ctx, db: trx }, site) },
        wrote: [{ kind: "domain", id: domain, action: "deleted" }],
        changes: [{ kind: "site" }],
      };
    },
  });
  const { alias, domains } = done.value;
  if (dryRun) return { site_id: site.id, domain: alias, domains, dry_run: true, applied: false };
  return { site_id: site.id, domain: alias, domains };
}
