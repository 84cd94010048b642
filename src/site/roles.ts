// The roles a user holds on a site (docs/roles.md): `administrator`, everything on the site;
// `editor`, its content. Which calls each role may make is the table of route groups
// (http/route-groups.ts); what they write is told apart by `markupTrustOf`.
import { fail, type ServiceError } from "../errors.ts";

export const SITE_ROLES = ["administrator", "editor"] as const;
export type SiteRole = (typeof SITE_ROLES)[number];

/** A stored role as a role, or null for a value no role has (nothing is granted by it). */
export function siteRoleFrom(value: string | null): SiteRole | null {
  return value === "administrator" || value === "editor" ? value : null;
}

/** Whether `role` may make a call that needs at least `least`: an administrator may do what an editor may. */
export function reaches(role: SiteRole, least: SiteRole): boolean {
  return role === "administrator" || least === "editor";
}

/** 403 insufficient_role for a role below what a call needs: the caller knows the site, so it is told why. */
export function insufficientRole(role: SiteRole, least: SiteRole, details: Record<string, unknown> = {}): ServiceError {
  return fail(
    "insufficient_role",
    { role, required_role: least, ...details },
    `This call needs the ${least} role on this site; you hold the ${role} role (docs/roles.md).`,
  );
}

/**
 * How the HTML a write carries is stored (docs/security.md, "Trust model"): `raw` byte for byte,
 * as an administrator writes it; `sanitized` through the allowlist sanitiser, as an editor's is.
 */
export type MarkupTrust = "raw" | "sanitized";

export function markupTrustOf(role: SiteRole): MarkupTrust {
  return role === "administrator" ? "raw" : "sanitized";
}
