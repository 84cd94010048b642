// Preview links (docs/preview.md): an unguessable address `/_preview/<token>` on the site's primary
// domain that shows one page as it currently stands, draft or published, to anyone holding it,
// until it expires or is revoked.
//
// The token is 32 random bytes in base64url (43 characters of A–Z a–z 0–9 - _). Only its SHA-256
// is stored, as for API tokens (tokens.ts): a link is looked up by that hash and the stored hash
// compared again in constant time, so the database never holds a usable address, and a token
// changed in any character hashes to something no link has. Expiry follows the service's clock
// (`ctx.clock`), to the second.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import type { Written, WrittenAction } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { homeUrl } from "../site/addresses.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Db } from "../store/database.ts";
import { hashToken } from "../tokens.ts";
import { unknownFields, type Warning } from "../warnings.ts";
import { pageTarget } from "./page.ts";

/** Seconds a link answers when `expires_in` is not given: 7 days. */
export const DEFAULT_EXPIRES_IN = 604_800;
export const MIN_EXPIRES_IN = 60;
/** 30 days. */
export const MAX_EXPIRES_IN = 2_592_000;

/** Where preview links answer on a site's domain. */
export const PREVIEW_PATH = "/_preview/";

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export interface PreviewLink {
  id: number;
  page: number;
  lang: string | null;
  /** ISO 8601, UTC, to the second. */
  expires_at: string;
  created_at: string;
  created_by: number;
}

export interface CreatedLink extends PreviewLink {
  /** The one time the address is told: absolute, on the site's primary domain. */
  url: string;
  warnings: Warning[];
}

function msOf(stored: string): number {
  return Date.parse(`${stored.replace(" ", "T")}Z`);
}

function iso(stored: string): string {
  return new Date(msOf(stored)).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function linkOf(
  row: { id: number; page_id: number; expires_at_gmt: string; created_at_gmt: string; created_by: number },
  lang: string | null,
): PreviewLink {
  return {
    id: Number(row.id),
    page: row.page_id,
    lang,
    expires_at: iso(row.expires_at_gmt),
    created_at: iso(row.created_at_gmt),
    created_by: row.created_by,
  };
}

function linkWritten(id: number, action: WrittenAction): Written {
  return { kind: "preview_link", id: String(id), action };
}

/**
 * The body of POST /preview/links as its route schema lets it through: `expires_in` seconds from
 * MIN_EXPIRES_IN to MAX_EXPIRES_IN, absent or null for DEFAULT_EXPIRES_IN; `page` and `lang` are
 * read by pageTarget.
 */
export type PreviewLinkBody = { page?: unknown; lang?: unknown; expires_in?: number | null };

/** POST /preview/links `{page, lang?, expires_in?}`: a new link to that page (its translation in `lang`). */
export async function createPreviewLink(
  ctx: ServiceContext,
  site: SiteRow,
  userId: number,
  body: PreviewLinkBody,
): Promise<CreatedLink> {
  const warnings = unknownFields(body, ["page", "lang", "expires_in"]);
  const seconds = body.expires_in ?? DEFAULT_EXPIRES_IN;
  const target = await pageTarget(ctx.db, site.id, body.page, body.lang);
  const now = ctx.clock();
  const token = randomBytes(32).toString("base64url");
  // Kept to the second, rounded up: a link never answers for less than it was asked to.
  const expires = Math.ceil((now + seconds * 1000) / 1000) * 1000;
  const row = {
    site_id: site.id,
    page_id: target.page.id,
    token_hash: hashToken(token),
    created_by: userId,
    created_at_gmt: gmt(now),
    expires_at_gmt: gmt(expires),
  };
  const done = await runWrite(ctx, {
    siteId: site.id,
    apply: async (trx) => {
      // Links past their time answer nothing: they go as new ones are made.
      const expired = await trx
        .deleteFrom("preview_links")
        .where("site_id", "=", site.id)
        .where("expires_at_gmt", "<=", gmt(now))
        .returning("id")
        .execute();
      const inserted = await trx.insertInto("preview_links").values(row).returning("id").executeTakeFirstOrThrow();
      const wrote = [...expired.map((gone) => linkWritten(gone.id, "deleted")), linkWritten(inserted.id, "created")];
      return { value: inserted.id, wrote };
    },
  });
  const url = `${homeUrl(site, ctx.publicFront)}${PREVIEW_PATH.slice(1)}${token}`;
  return { ...linkOf({ ...row, id: done.value }, target.page.lang || null), url, warnings };
}

/** GET /preview/links: the site's links that still answer, newest first (never their addresses). */
export async function listPreviewLinks(ctx: ServiceContext, site: SiteRow): Promise<PreviewLink[]> {
  const rows = await ctx.db
    .selectFrom("preview_links")
    .leftJoin("pages", (join) =>
      join.onRef("pages.id", "=", "preview_links.page_id").onRef("pages.site_id", "=", "preview_links.site_id"),
    )
    .select([
      "preview_links.id",
      "preview_links.page_id",
      "preview_links.expires_at_gmt",
      "preview_links.created_at_gmt",
      "preview_links.created_by",
      "pages.lang",
    ])
    .where("preview_links.site_id", "=", site.id)
    .where("preview_links.expires_at_gmt", ">", gmt(ctx.clock()))
    .orderBy("preview_links.id", "desc")
    .execute();
  return rows.map((row) => linkOf(row, row.lang ? row.lang : null));
}

/**
 * DELETE /preview/links/{id}: the link answers nothing from now on; 404 preview_link_not_found for
 * another site's or an unknown one. `dryRun` (`?dry_run=1`): the same answer, nothing revoked.
 */
export async function revokePreviewLink(
  ctx: ServiceContext,
  site: SiteRow,
  rawId: string,
  dryRun = false,
): Promise<PreviewLink> {
  const id = /^[1-9]\d{0,9}$/.test(rawId) ? Number(rawId) : NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) throw fail("preview_link_not_found", { id: rawId });
  const columns = ["id", "page_id", "expires_at_gmt", "created_at_gmt", "created_by"] as const;
  const done = await runWrite(ctx, {
    siteId: site.id,
    dryRun,
    apply: async (trx) => {
      const gone = await trx
        .deleteFrom("preview_links")
        .where("site_id", "=", site.id)
        .where("id", "=", id)
        .returning(columns)
        .executeTakeFirst();
      if (!gone) throw fail("preview_link_not_found", { id: rawId });
      return { value: gone, wrote: [linkWritten(gone.id, "deleted")] };
    },
  });
  const row = done.value;
  const page = await ctx.db
    .selectFrom("pages")
    .select("lang")
    .where("site_id", "=", site.id)
    .where("id", "=", row.page_id)
    .executeTakeFirst();
  return linkOf(row, page?.lang ? page.lang : null);
}

/**
 * The page id a token shows on site `siteId` at `now`; null for a malformed, unknown, changed,
 * expired or revoked token, and for another site's.
 */
export async function pageOfToken(db: Db, siteId: number, token: string, now: number): Promise<number | null> {
  if (!TOKEN.test(token)) return null;
  const hash = hashToken(token);
  const row = await db
    .selectFrom("preview_links")
    .select(["site_id", "page_id", "token_hash", "expires_at_gmt"])
    .where("token_hash", "=", hash)
    .executeTakeFirst();
  if (!row || !timingSafeEqual(Buffer.from(row.token_hash, "hex"), Buffer.from(hash, "hex"))) return null;
  if (row.site_id !== siteId || !(msOf(row.expires_at_gmt) > now)) return null;
  return row.page_id;
}
