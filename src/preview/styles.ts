// The `styles` of a preview: each `{<name>: css}` replaces that stylesheet of the site's theme, or
// adds it, inside the preview's transaction, checked as PUT /styles/{name} checks it (400
// invalid_style_name, invalid_field; 422 invalid_css with line and column, imports of the theme
// without a cycle, url(media:<ref>) naming a file of the site). Its bundle, and the bundles of the
// stylesheets importing it, are made there too, so the render links them at new addresses.
//
// Those addresses do not exist once the transaction is rolled back, so a preview prints every
// stylesheet whose bundle the site did not serve before it began inline instead: its `<link>` is
// replaced by a `<style>` holding the bundled CSS (`inlineNewStyles`). The stylesheets are parsed
// before the transaction opens (`parsePreviewStyles`): only their bundles are made inside it.
import { fail } from "../errors.ts";
import { settingsOf } from "../site/settings.ts";
import type { Db } from "../store/database.ts";
import { gmt } from "../clock.ts";
import { refreshCopies, HASH_LENGTH } from "../styles/copies.ts";
import { CssBudget, parseStylesheet } from "../styles/css.ts";
import { importersOf } from "../styles/graph.ts";
import { cssFrom, styleNameFrom } from "../styles/names.ts";
import { importMapOf, themeSheets } from "../styles/queries.ts";
import { checkImports, checkMedia } from "../styles/write-service.ts";
import { createHash } from "node:crypto";

/** The most stylesheets one preview may replace or add. */
export const MAX_PREVIEW_STYLES = 50;

/** The `styles` object of the body (CSS by stylesheet, by the route schema), each checked as PUT /styles checks it. */
export function styleInputs(value: Readonly<Record<string, string>> | null | undefined): Array<[string, string]> {
  if (value === undefined || value === null) return [];
  const entries = Object.entries(value);
  if (entries.length > MAX_PREVIEW_STYLES)
    throw fail(
      "invalid_field",
      { field: "styles", max_items: MAX_PREVIEW_STYLES },
      `styles holds more than ${MAX_PREVIEW_STYLES} stylesheets.`,
    );
  return entries.map(([name, css]) => [styleNameFrom(name), cssFrom(css)]);
}

export async function servedBundles(db: Db, siteId: number): Promise<{ theme: string; served: Set<string> }> {
  const { theme } = await settingsOf(db, siteId);
  const rows = await db
    .selectFrom("style_copies")
    .select(["name", "hash"])
    .where("site_id", "=", siteId)
    .where("theme", "=", theme)
    .execute();
  return { theme, served: new Set(rows.map((row) => `${row.name}.${row.hash}`)) };
}

/** The previewed stylesheets parsed, with the CSS worker time the preview may still spend. */
export interface PreviewStyles {
  sheets: Array<{ name: string; css: string; parsed: Awaited<ReturnType<typeof parseStylesheet>> }>;
  budget: CssBudget;
}

/**
 * Parses the previewed stylesheets before any transaction opens (422 invalid_css as PUT
 * /styles/{name}): parsing reads nothing stored, and may take the CSS time limit.
 */
export async function parsePreviewStyles(
  siteId: number,
  inputs: ReadonlyArray<[string, string]>,
): Promise<PreviewStyles> {
  // One budget of CSS worker time for every parse and bundle of the preview, as for a write.
  const budget = new CssBudget(siteId);
  return {
    sheets: await Promise.all(
      inputs.map(async ([name, css]) => ({ name, css, parsed: await parseStylesheet(css, budget) })),
    ),
    budget,
  };
}

/**
 * Writes the previewed stylesheets of `theme` in `trx` and makes their bundles (and their
 * importers'); answers the bundles made, by `<name>.<hash>`, to be printed inline.
 */
export async function writePreviewStyles(
  trx: Db,
  siteId: number,
  theme: string,
  now: number,
  styles: PreviewStyles,
): Promise<Map<string, string>> {
  const parsed = styles.sheets;
  if (parsed.length === 0) return new Map();
  const at = gmt(now);
  // Every previewed stylesheet is written before imports are checked, so they may import each other.
  for (const sheet of parsed) {
    const columns = {
      css: sheet.css,
      bytes: Buffer.byteLength(sheet.css, "utf8"),
      sha256: createHash("sha256").update(sheet.css, "utf8").digest("hex"),
      imports_json: JSON.stringify([...new Set(sheet.parsed.imports.map((spot) => spot.name))]),
      media_json: JSON.stringify([...new Set(sheet.parsed.media.map((spot) => spot.ref))]),
      updated_at_gmt: at,
    };
    const updated = await trx
      .updateTable("styles")
      .set(columns)
      .where("site_id", "=", siteId)
      .where("theme", "=", theme)
      .where("name", "=", sheet.name)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0)
      await trx
        .insertInto("styles")
        .values({ site_id: siteId, theme, name: sheet.name, created_at_gmt: at, ...columns })
        .execute();
  }
  const sheets = await themeSheets(trx, siteId, theme);
  for (const sheet of parsed) {
    checkImports(sheet.name, theme, sheet.parsed, sheets);
    await checkMedia(trx, siteId, sheet.parsed);
  }
  const names = parsed.map((sheet) => sheet.name);
  const { made } = await refreshCopies(
    trx,
    now,
    siteId,
    theme,
    [...names, ...importersOf(names, importMapOf(sheets))],
    { refuse: true, budget: styles.budget },
  );
  return new Map([...made.values()].map((copy) => [`${copy.name}.${copy.hash}`, copy.css]));
}

/** `<link rel="stylesheet" href="/styles/<name>.<hash>.css">` as svc/styles prints it (markup/render-inserts.ts). */
const LINK = new RegExp(
  `<link rel="stylesheet" href="/styles/([a-z0-9][a-z0-9_-]*)\\.([0-9a-f]{${HASH_LENGTH}})\\.css">`,
  "g",
);

/** CSS inside `<style>`: nothing in it may close the element early. */
function styleElement(name: string, css: string): string {
  return `<style data-svc-preview-style="${name}">${css.replace(/<\/(style)/gi, "<\\/$1")}</style>`;
}

/**
 * Replaces each stylesheet link whose bundle the site did not serve before the preview (`served`)
 * with a `<style>` holding that bundle's CSS, as the preview made it (`made`).
 */
export function inlineNewStyles(served: ReadonlySet<string>, made: ReadonlyMap<string, string>, html: string): string {
  if (made.size === 0) return html;
  return html.replace(LINK, (link, name: string, hash: string) => {
    const key = `${name}.${hash}`;
    const bundled = served.has(key) ? undefined : made.get(key);
    return bundled === undefined ? link : styleElement(name, bundled);
  });
}
