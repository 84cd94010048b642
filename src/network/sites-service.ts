// Sites of the network (docs/foundation.md, "Sites and users"). Creating, deleting and
// re-domaining a site are network operations for super-administrators; a site's administrators
// may read it and rename it, its editors read it (docs/roles.md).
// Each of them announces a `site` change: the publish step maps hosts anew and flushes the site's
// cached pages. A site's domain is its primary domain (domains-service.ts): normalised, free of
// every other site's domains and aliases, written with its `site_domains` row in one transaction.
import type { PublicFront } from "../config.ts";
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import type { Db } from "../store/database.ts";
import { listWindow, type ListWindow } from "../store/lists.ts";
import { siteRoleOf, type Caller } from "../site/callers.ts";
import { insufficientRole, reaches, SITE_ROLES, type SiteRole } from "../site/roles.ts";
import { homeUrl, siteOrigin } from "../site/addresses.ts";
import type { Change, Written } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { MAIN_SITE_ID, siteById, type SiteRow } from "../site/sites.ts";
import { optionalString, requireSuperAdmin } from "./input.ts";
import { domainFrom, domainTaken, requireFreeDomain, writePrimaryDomain, writingDomain } from "./domains-service.ts";

export interface SiteRecord {
  id: number;
  name: string;
  domain: string;
  home_url: string;
  created_at_gmt: string;
}

const MAX_NAME = 200;

export function siteRecord(row: SiteRow, front: PublicFront): SiteRecord {
  return {
    id: row.id,
    name: row.name,
    domain: row.domain,
    home_url: homeUrl(row, front),
    created_at_gmt: row.created_at_gmt,
  };
}

function siteName(value: unknown): string {
  const name = optionalString(value, "name", MAX_NAME)?.trim();
  if (!name) throw fail("site_name_required");
  return name;
}

/**
 * A site the caller holds a role on, or 404 exactly as for a site that does not exist; a role
 * below `least` knows the site: 403 insufficient_role.
 */
async function visibleSite(ctx: ServiceContext, caller: Caller, id: number, least: SiteRole): Promise<SiteRow> {
  const site = await siteById(ctx.db, id);
  const role = site ? await siteRoleOf(ctx.db, caller, site.id) : null;
  if (!site || role === null) throw fail("site_not_found", {}, undefined);
  if (!reaches(role, least)) throw insufficientRole(role, least);
  return site;
}

export async function createSite(
  ctx: ServiceContext,
  caller: Caller,
  body: Record<string, unknown>,
): Promise<SiteRecord> {
  requireSuperAdmin(caller);
  const name = siteName(body.name);
  const domain = domainFrom(body.domain);
  await requireFreeDomain(ctx, domain);
  const done = await writingDomain(domain, () =>
    runWrite(ctx, {
      siteId: null,
      apply: async (trx) => {
        const created = await trx
          .insertInto("sites")
          .values({
            name,
            domain,
            created_at_gmt: gmt(ctx.clock()),
            printed_origin: siteOrigin({ domain, https: null }, ctx.publicFront),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx.insertInto("site_domains").values({ domain, site_id: created.id, is_primary: 1 }).execute();
        const wrote: Written[] = [
          { kind: "site", id: String(created.id), action: "created" },
          { kind: "domain", id: domain, action: "created" },
        ];
        // Its hosts map anew on every process.
        return { value: created, wrote, changes: [{ kind: "site" }], forSite: created.id };
      },
    }),
  );
  return siteRecord(done.value, ctx.publicFront);
}

/** GET /api/sites: every site for a super-administrator, else the sites the caller holds a role on; one page of them, by id. */
export async function listSites(
  ctx: ServiceContext,
  caller: Caller,
  window: ListWindow,
): Promise<{ total: number; sites: SiteRecord[] }> {
  let query = ctx.db.selectFrom("sites").selectAll("sites").orderBy("sites.id");
  if (!caller.superAdmin) {
    query = query
      .innerJoin("memberships", "memberships.site_id", "sites.id")
      .where("memberships.user_id", "=", caller.userId)
      .where("memberships.role", "in", [...SITE_ROLES]);
  }
  const { total, rows } = await listWindow(query, window);
  return { total, sites: rows.map((row) => siteRecord(row, ctx.publicFront)) };
}

export async function getSite(ctx: ServiceContext, caller: Caller, id: number): Promise<SiteRecord> {
  return siteRecord(await visibleSite(ctx, caller, id, "editor"), ctx.publicFront);
}

export async function updateSite(
  ctx: ServiceContext,
  caller: Caller,
  id: number,
  body: Record<string, unknown>,
): Promise<SiteRecord> {
  const site = await visibleSite(ctx, caller, id, "administrator");
  const changes: { name?: string; domain?: string } = {};
  if (body.name !== undefined) changes.name = siteName(body.name);
  if (body.domain !== undefined) {
    requireSuperAdmin(caller);
    changes.domain = domainFrom(body.domain);
    // Another site's domain is taken; one of this site's aliases is promoted.
    await requireFreeDomain(ctx, changes.domain, site.id);
  }
  if (Object.keys(changes).length === 0) throw fail("nothing_to_update", { allowed: ["name", "domain"] });
  const { name, domain } = changes;
  const changed = (row: SiteRow): Change[] => [
    { kind: "site", name: row.name !== site.name, domain: row.domain !== site.domain },
  ];
  // A new name or domain is printed (every absolute address): owed until published.
  const done = await runWrite(ctx, {
    siteId: site.id,
    taken: async () => domainTaken(domain ?? site.domain),
    apply: async (trx) => {
      const wrote: Written[] = [{ kind: "site", id: String(site.id), action: "updated" }];
      if (name !== undefined) await trx.updateTable("sites").set({ name }).where("id", "=", site.id).execute();
      if (domain !== undefined && domain !== site.domain)
        wrote.push(...(await writePrimaryDomain(trx, site.id, domain, ctx.publicFront)));
      const row = await trx.selectFrom("sites").selectAll().where("id", "=", site.id).executeTakeFirstOrThrow();
      return { value: row, wrote, changes: changed(row) };
    },
  });
  return siteRecord(done.value, ctx.publicFront);
}

/** The site's name, written as the `name` setting (settings/settings-service.ts), in the caller's transaction. */
export async function writeSiteName(db: Db, siteId: number, name: string): Promise<void> {
  await db.updateTable("sites").set({ name }).where("id", "=", siteId).execute();
}

/** `dryRun` (`?dry_run=1`): the same refusals and answer, and nothing deleted (a site's delete cannot fail past these checks). */
export async function deleteSite(
  ctx: ServiceContext,
  caller: Caller,
  id: number,
  options: { dryRun?: boolean } = {},
): Promise<SiteRecord> {
  requireSuperAdmin(caller);
  const site = await siteById(ctx.db, id);
  if (!site) throw fail("site_not_found");
  if (site.id === MAIN_SITE_ID) throw fail("main_site");
  if (options.dryRun) return siteRecord(site, ctx.publicFront);
  await runWrite(ctx, {
    // A write of no site: the site's counters go with it.
    siteId: null,
    owed: false,
    apply: async (trx) => {
      // Everything of the site hangs off it with ON DELETE CASCADE.
      await trx.deleteFrom("sites").where("id", "=", site.id).execute();
      return {
        value: null,
        wrote: [{ kind: "site", id: String(site.id), action: "deleted" }],
        changes: [{ kind: "site" }],
        forSite: site.id,
      };
    },
  });
  return siteRecord(site, ctx.publicFront);
}
