// A site's SEO defaults (docs/seo.md): GET and PATCH /seo. `title_template` (`%s` is
// the page's title; default `%s — <site name>`), `description` (for pages without their own),
// `og_image` (a media reference), `noindex` (the whole site), `twitter_site` (`@handle`) and
// `robots_extra` (lines appended to robots.txt). PATCH writes any of them and leaves the others.
// The title template, description and image are kept per language too (site-seo-languages.ts):
// `{"en": …, "de": …}` writes each language's, a plain value the default language's.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import { sql } from "kysely";
import { siteById } from "../site/sites.ts";
import type { Change, Rebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { mediaRefFrom, requireMedia } from "../pages/seo.ts";
import type { SiteRow } from "../site/sites.ts";
import { languageState, type LanguageState } from "../site/languages.ts";
import type { Db } from "../store/database.ts";
import {
  LANGUAGE_KEYS,
  languageSeoUsesMedia,
  ownSeoByLanguage,
  splitByLanguage,
  valuesIn,
  writeLanguageSeo,
  type LanguageSeo,
  type SplitPatch,
} from "./site-seo-languages.ts";

export interface SiteSeo {
  title_template: string;
  description: string;
  og_image: string | null;
  noindex: boolean;
  twitter_site: string;
  robots_extra: string;
}

export const SITE_SEO_KEYS = [
  "title_template",
  "description",
  "og_image",
  "noindex",
  "twitter_site",
  "robots_extra",
] as const;
type Key = (typeof SITE_SEO_KEYS)[number];

const LIMITS: Record<"title_template" | "description" | "twitter_site" | "robots_extra", number> = {
  title_template: 300,
  description: 1000,
  twitter_site: 100,
  robots_extra: 10_000,
};

/** The default title template of a site: the page's title, then the site's name. */
export function defaultTitleTemplate(siteName: string): string {
  return `%s — ${siteName}`;
}

/** The site's SEO defaults as stored, with the defaults applied (no row: every default). */
export async function siteSeoOf(db: Db, site: Pick<SiteRow, "id" | "name">): Promise<SiteSeo> {
  const row = await db.selectFrom("site_seo").selectAll().where("site_id", "=", site.id).executeTakeFirst();
  return {
    title_template: row?.title_template ?? defaultTitleTemplate(site.name),
    description: row?.description ?? "",
    og_image: row?.og_image ?? null,
    noindex: row?.noindex === 1,
    twitter_site: row?.twitter_site ?? "",
    robots_extra: row?.robots_extra ?? "",
  };
}

/**
 * The site's SEO defaults as GET and PATCH /seo answer them: the default language's values, and
 * each language's own (`languages`, by code: null where it follows the default language; the
 * default language's entry holds its values). No languages: `languages` is empty.
 */
export interface SiteSeoRead extends SiteSeo {
  languages: Record<string, LanguageSeo>;
}

export async function siteSeoRead(db: Db, site: Pick<SiteRow, "id" | "name">): Promise<SiteSeoRead> {
  const [base, own, langs] = await Promise.all([
    siteSeoOf(db, site),
    ownSeoByLanguage(db, site.id),
    languageState(db, site.id),
  ]);
  const seo = valuesIn(base, own, langs.defaultLang, langs);
  const languages: Record<string, LanguageSeo> = {};
  if (langs.active) {
    for (const code of langs.codes) {
      const mine = own.get(code);
      languages[code] =
        code === langs.defaultLang
          ? { title_template: seo.title_template, description: seo.description, og_image: seo.og_image }
          : {
              title_template: mine?.title_template ?? null,
              description: mine?.description ?? null,
              og_image: mine?.og_image ?? null,
            };
    }
  }
  return { ...seo, languages };
}

/** A site's SEO defaults as renders read them. */
export interface SiteSeoForRender {
  /** With `%s` where the page's title goes; the default already applied. */
  title_template: string;
  description: string;
  /** A media reference, or null. */
  og_image: string | null;
  noindex: boolean;
  twitter_site: string;
}

/** What renders read of the site's defaults (the defaults where none were written). */
export function seoForRender(seo: SiteSeo): SiteSeoForRender {
  return {
    title_template: seo.title_template,
    description: seo.description,
    og_image: seo.og_image,
    noindex: seo.noindex,
    twitter_site: seo.twitter_site,
  };
}

function textOf(value: unknown, key: keyof typeof LIMITS, field: string = key): string {
  if (typeof value !== "string")
    throw fail("invalid_field", { field, expected: "a string" }, `${field} must be a string.`);
  if (value.length > LIMITS[key])
    throw fail(
      "invalid_field",
      { field, max_length: LIMITS[key] },
      `${field} is longer than ${LIMITS[key]} characters.`,
    );
  return key === "robots_extra" ? value.replace(/\r\n?/g, "\n").replace(/^\n+|\n+$/g, "") : value.trim();
}

/** The stored columns a PATCH sets; `null` restores a default. */
async function columnsOf(
  ctx: Pick<ServiceContext, "db">,
  site: SiteRow,
  body: Record<string, unknown>,
  warnings: Warning[],
) {
  const columns: {
    title_template?: string | null;
    description?: string;
    og_image?: string | null;
    noindex?: number;
    twitter_site?: string;
    robots_extra?: string;
  } = {};
  for (const key of Object.keys(body)) {
    if (!(SITE_SEO_KEYS as readonly string[]).includes(key))
      warnings.push(warning("unknown_field", `Field "${key}" is not known here and was ignored.`, { field: key }));
  }
  if (Object.hasOwn(body, "title_template"))
    columns.title_template =
      body.title_template === null ? null : textOf(body.title_template, "title_template") || null;
  for (const key of ["description", "twitter_site", "robots_extra"] as const) {
    if (Object.hasOwn(body, key)) columns[key] = body[key] === null ? "" : textOf(body[key], key);
  }
  if (columns.twitter_site && !/^@?[A-Za-z0-9_]{1,50}$/.test(columns.twitter_site)) {
    throw fail(
      "invalid_field",
      { field: "twitter_site", expected: "an X (Twitter) handle such as @example" },
      "twitter_site must be an X (Twitter) handle such as @example.",
    );
  }
  if (columns.twitter_site && !columns.twitter_site.startsWith("@")) columns.twitter_site = `@${columns.twitter_site}`;
  if (Object.hasOwn(body, "og_image")) {
    columns.og_image = mediaRefFrom(body.og_image, "og_image");
    await requireMedia(ctx.db, site.id, columns.og_image, "og_image");
  }
  if (Object.hasOwn(body, "noindex")) {
    if (body.noindex !== null && typeof body.noindex !== "boolean")
      throw fail("invalid_field", { field: "noindex", expected: "true or false" }, "noindex must be true or false.");
    columns.noindex = body.noindex === true ? 1 : 0;
  }
  return columns;
}

/** Each language's own values a PATCH writes, checked (null: it follows the default language). */
async function languageColumnsOf(
  ctx: Pick<ServiceContext, "db">,
  site: SiteRow,
  languages: SplitPatch["languages"],
): Promise<Map<string, Partial<LanguageSeo>>> {
  const out = new Map<string, Partial<LanguageSeo>>();
  for (const [lang, values] of languages) {
    const own: Partial<LanguageSeo> = {};
    for (const key of LANGUAGE_KEYS) {
      if (!Object.hasOwn(values, key)) continue;
      const value = values[key];
      const field = `${key}.${lang}`;
      if (key === "og_image") {
        own.og_image = mediaRefFrom(value, field);
        await requireMedia(ctx.db, site.id, own.og_image, field);
      } else own[key] = value === null ? null : textOf(value, key, field) || null;
    }
    out.set(lang, own);
  }
  return out;
}

/** The keys whose value changed, in the default language or in any other. */
function changedKeys(before: SiteSeoRead, after: SiteSeoRead): Key[] {
  const inLanguages = (key: Key) =>
    (LANGUAGE_KEYS as readonly string[]).includes(key) &&
    JSON.stringify(Object.entries(before.languages).map(([code, own]) => [code, own[key as keyof LanguageSeo]])) !==
      JSON.stringify(Object.entries(after.languages).map(([code, own]) => [code, own[key as keyof LanguageSeo]]));
  return SITE_SEO_KEYS.filter((key) => after[key] !== before[key] || inLanguages(key));
}

export interface SiteSeoAnswer {
  seo: SiteSeoRead;
  changed: Key[];
  rebaked: Rebaked;
  warnings: Warning[];
}

/**
 * What a change of the site's SEO defaults changes: the head frames print, robots.txt, or nothing.
 * A language's value reaches every frame printing `svc/seo`, in every language (docs/publishing.md).
 */
function seoChanges(before: SiteSeoRead, after: SiteSeoRead): Change[] {
  const changed = changedKeys(before, after);
  if (changed.length === 0) return [];
  return [
    {
      kind: "seo",
      head: changed.some((key) => key !== "robots_extra"),
      robots: changed.includes("noindex") || changed.includes("robots_extra"),
    },
  ];
}

/** PATCH /seo: any of the keys; the frames printing `svc/seo` and robots.txt follow. */
export async function patchSiteSeo(
  ctx: ServiceContext,
  site: SiteRow,
  body: Record<string, unknown>,
): Promise<SiteSeoAnswer> {
  const warnings: Warning[] = [];
  if (!SITE_SEO_KEYS.some((key) => Object.hasOwn(body, key)))
    throw fail("nothing_to_update", { allowed: SITE_SEO_KEYS });
  const split = splitByLanguage(body, await languageState(ctx.db, site.id));
  const columns = await columnsOf(ctx, site, split.plain, warnings);
  const own = await languageColumnsOf(ctx, site, split.languages);
  const before = await siteSeoRead(ctx.db, site);
  const at = gmt(ctx.clock());
  const done = await runWrite(ctx, {
    siteId: site.id,
    apply: async (trx) => {
      await trx
        .insertInto("site_seo")
        .values({
          site_id: site.id,
          title_template: null,
          description: "",
          og_image: null,
          noindex: 0,
          twitter_site: "",
          robots_extra: "",
          updated_at_gmt: at,
        })
        .onConflict((oc) => oc.column("site_id").doNothing())
        .execute();
      await trx
        .updateTable("site_seo")
        .set({ ...columns, updated_at_gmt: at })
        .where("site_id", "=", site.id)
        .execute();
      for (const [lang, values] of own) await writeLanguageSeo(trx, site.id, lang, values, at);
      const seo = await siteSeoRead(trx, site);
      return { value: seo, wrote: [{ kind: "seo", id: "site", action: "updated" }], changes: seoChanges(before, seo) };
    },
  });
  const seo = done.value;
  return { seo, changed: changedKeys(before, seo), rebaked: done.rebaked, warnings };
}

/** The site's SEO defaults as renders print them in `lang`: its own values, else the default language's. */
export async function siteSeoForRender(
  db: Db,
  siteId: number,
  lang: string | null,
  langs: Pick<LanguageState, "active">,
): Promise<SiteSeoForRender> {
  const site = await siteById(db, siteId);
  const [base, own] = await Promise.all([
    siteSeoOf(db, { id: siteId, name: site?.name ?? "" }),
    langs.active ? ownSeoByLanguage(db, siteId) : new Map<string, LanguageSeo>(),
  ]);
  return seoForRender(valuesIn(base, own, lang, langs));
}

/** Whether the site's defaults or any of its pages name one of these media refs as their image. */
export async function seoUsesMedia(db: Db, siteId: number, refs: readonly string[]): Promise<boolean> {
  if (refs.length === 0) return false;
  const own = await db
    .selectFrom("site_seo")
    .select("site_id")
    .where("site_id", "=", siteId)
    .where("og_image", "in", [...refs])
    .executeTakeFirst();
  if (own || (await languageSeoUsesMedia(db, siteId, refs))) return true;
  // A page's image is a field of its stored SEO JSON: `"og_image":"<ref>"` (pages/seo.ts writes it so).
  const page = await db
    .selectFrom("pages")
    .select("id")
    .where("site_id", "=", siteId)
    .where((eb) =>
      eb.or(
        refs.map(
          (ref) =>
            sql<boolean>`seo_json like ${`%"og_image":${JSON.stringify(ref).replace(/[%_\\]/g, (c) => `\\${c}`)}%`} escape '\\'`,
        ),
      ),
    )
    .executeTakeFirst();
  return page !== undefined;
}
