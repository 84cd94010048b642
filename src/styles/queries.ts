// Reads of the styles table: a theme's stylesheets without their CSS (what bundles and the import
// graph need), and the CSS of those a bundle reads.
import { Type } from "@sinclair/typebox";
import type { Db } from "../store/database.ts";
import { jsonColumn } from "../store/json-column.ts";
import { importersOf, type ImportMap } from "./graph.ts";

/** A stylesheet as stored, without its CSS. */
export interface SheetHead {
  name: string;
  bytes: number;
  sha256: string;
  /** The stylesheets it imports, in order. */
  imports: string[];
  /** The media refs its `url(media:…)` name. */
  media: string[];
  created_at_gmt: string;
  updated_at_gmt: string;
}

/** Names a stylesheet refers to (`imports_json`, `media_json`); none when they do not read, so its bundle is still made. */
const NAMES = jsonColumn("styles.imports_json/media_json", Type.Array(Type.String()));

function names(json: string): string[] {
  return NAMES.readOr(json, []);
}

/** The theme's stylesheets by name. */
export async function themeSheets(db: Db, siteId: number, theme: string): Promise<Map<string, SheetHead>> {
  const rows = await db
    .selectFrom("styles")
    .select(["name", "bytes", "sha256", "imports_json", "media_json", "created_at_gmt", "updated_at_gmt"])
    .where("site_id", "=", siteId)
    .where("theme", "=", theme)
    .orderBy("name")
    .execute();
  return new Map(
    rows.map((row) => [
      row.name,
      {
        name: row.name,
        bytes: Number(row.bytes),
        sha256: row.sha256,
        imports: names(row.imports_json),
        media: names(row.media_json),
        created_at_gmt: row.created_at_gmt,
        updated_at_gmt: row.updated_at_gmt,
      },
    ]),
  );
}

/** The themes the site has stylesheets in, by name. */
export async function siteThemes(db: Db, siteId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("styles")
    .select("theme")
    .distinct()
    .where("site_id", "=", siteId)
    .orderBy("theme")
    .execute();
  return rows.map((row) => row.theme);
}

/** Who imports whom among the theme's stylesheets. */
export function importMapOf(sheets: ReadonlyMap<string, SheetHead>): ImportMap {
  return new Map([...sheets.values()].map((sheet) => [sheet.name, sheet.imports]));
}

/** The CSS as uploaded of the named stylesheets of a theme (those that exist). */
export async function sheetsCss(
  db: Db,
  siteId: number,
  theme: string,
  list: readonly string[],
): Promise<Map<string, string>> {
  if (list.length === 0) return new Map();
  const rows = await db
    .selectFrom("styles")
    .select(["name", "css"])
    .where("site_id", "=", siteId)
    .where("theme", "=", theme)
    .where("name", "in", [...list])
    .execute();
  return new Map(rows.map((row) => [row.name, row.css]));
}

/** The theme's stylesheets whose bundles point to one of these media refs, with every stylesheet importing them. */
export async function stylesUsingMedia(
  db: Db,
  siteId: number,
  theme: string,
  refs: readonly string[],
): Promise<string[]> {
  const sheets = await themeSheets(db, siteId, theme);
  const wanted = new Set(refs);
  const direct = [...sheets.values()]
    .filter((sheet) => sheet.media.some((ref) => wanted.has(ref)))
    .map((sheet) => sheet.name);
  return direct.length === 0 ? [] : [...direct, ...importersOf(direct, importMapOf(sheets))].sort();
}
