// Data sets (docs/content-model.md, "Data sets"): named lists of objects, each a shared set and/or
// one variant per language. Reading prefers the language variant when it has items, then the shared
// set; a language variant that is empty while no shared set exists reads as `items: []`.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Rebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import type { Db } from "../store/database.ts";
import { listWindow, type ListWindow } from "../store/lists.ts";
import { textBytes, utf8Bytes } from "../quotas/bytes.ts";
import { leaveTrash } from "../revisions/trash.ts";
import { datasetObjectId } from "./revision.ts";
import { DATASET_ITEMS } from "./items-column.ts";
import type { MarkupTrust } from "../site/roles.ts";
import { contentGate } from "../pages/authored-html.ts";

export const DATASET_NAME_PATTERN = "^[a-z0-9][a-z0-9_-]*$";
const DATASET_NAME = new RegExp(DATASET_NAME_PATTERN);
export const MAX_DATASET_NAME = 100;
/** Names that are data sources of their own (`GET /data/pages` reads pages, not a set). */
export const RESERVED_DATASET_NAMES = [
  "site",
  "settings",
  "page",
  "pages",
  "breadcrumbs",
  "languages",
  "menu",
  "data",
] as const;
export const MAX_DATASET_ITEMS = 10_000;
/** Items as JSON text. */
export const MAX_DATASET_BYTES = 4 * 1024 * 1024;

export interface DatasetInfo {
  name: string;
  /** null for the shared set. */
  lang: string | null;
  total: number;
  created_at_gmt: string;
  updated_at_gmt: string;
}

export function isDatasetName(name: string): boolean {
  return name.length <= MAX_DATASET_NAME && DATASET_NAME.test(name);
}

/** A data-set name from input; 400 invalid_dataset_name when malformed or reserved. */
export function datasetNameFrom(value: unknown): string {
  const name = typeof value === "string" ? value : "";
  if (!isDatasetName(name))
    throw fail("invalid_dataset_name", {
      name: value ?? null,
      pattern: DATASET_NAME_PATTERN,
      max_length: MAX_DATASET_NAME,
    });
  if ((RESERVED_DATASET_NAMES as readonly string[]).includes(name)) {
    throw fail(
      "invalid_dataset_name",
      { name, reserved: RESERVED_DATASET_NAMES },
      `"${name}" names a data source of its own and cannot name a data set.`,
    );
  }
  return name;
}

/** `items` of a write: an array of at most MAX_DATASET_ITEMS objects (400 invalid_field naming the item). */
export function itemsFrom(value: unknown): Record<string, unknown>[] {
  if (value === undefined || value === null)
    throw fail(
      "invalid_field",
      { field: "items", expected: "array of objects" },
      "items is required: an array of objects.",
    );
  if (!Array.isArray(value))
    throw fail("invalid_field", { field: "items", expected: "array of objects" }, "items must be an array of objects.");
  if (value.length > MAX_DATASET_ITEMS)
    throw fail(
      "invalid_field",
      { field: "items", max_items: MAX_DATASET_ITEMS },
      `A data set holds at most ${MAX_DATASET_ITEMS} items.`,
    );
  value.forEach((item, index) => {
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      throw fail("invalid_field", { field: `items.${index}`, expected: "object" }, `items.${index} must be an object.`);
    }
  });
  return value as Record<string, unknown>[];
}

/** The items as stored, JSON of at most MAX_DATASET_BYTES. */
export function itemsJson(items: Record<string, unknown>[]): string {
  const json = JSON.stringify(items);
  if (Buffer.byteLength(json, "utf8") > MAX_DATASET_BYTES)
    throw fail(
      "invalid_field",
      { field: "items", max_bytes: MAX_DATASET_BYTES },
      `items is larger than ${MAX_DATASET_BYTES} bytes of JSON.`,
    );
  return json;
}

function info(row: {
  name: string;
  lang: string;
  total: number;
  created_at_gmt: string;
  updated_at_gmt: string;
}): DatasetInfo {
  return {
    name: row.name,
    lang: row.lang === "" ? null : row.lang,
    total: row.total,
    created_at_gmt: row.created_at_gmt,
    updated_at_gmt: row.updated_at_gmt,
  };
}

export interface DatasetWriteAnswer {
  dataset: DatasetInfo;
  created: boolean;
  rebaked: Rebaked;
  warnings: Warning[];
}

/** 404 dataset_not_found for the shared set (`lang` "") or a variant. */
export function datasetNotFound(name: string, lang: string) {
  return fail(
    "dataset_not_found",
    { name, lang: lang === "" ? null : lang },
    lang === "" ? "No shared data set with this name." : `No "${lang}" variant of this data set.`,
  );
}

export interface PutOptions {
  /** How the items' HTML strings are stored (an editor's sanitised, pages/authored-html.ts). */
  markup: MarkupTrust;
  /** A set brought back from the trash: one made again meanwhile is 409 slug_taken (its object id), nothing written. */
  onlyNew?: boolean;
}

/**
 * PUT /data/{name} `{items, lang?}`: stores the shared set, or the `lang` variant, and records its
 * revision in the same transaction; a set made again under a name and language in the trash
 * takes its place there, its history continuing (data/revision.ts).
 */
export async function putDataset(
  ctx: ServiceContext,
  site: SiteRow,
  rawName: string,
  body: Record<string, unknown>,
  options: PutOptions,
): Promise<DatasetWriteAnswer> {
  const warnings: Warning[] = [];
  for (const key of Object.keys(body)) {
    if (key !== "items" && key !== "lang")
      warnings.push(warning("unknown_field", `Field "${key}" is not known here and was ignored.`, { field: key }));
  }
  const name = datasetNameFrom(rawName);
  const lang = checkLangIn(await languageState(ctx.db, site.id), body.lang) ?? "";
  const gate = await contentGate(ctx.db, site.id, options.markup, warnings);
  const items = gate.values(itemsFrom(body.items), "items");
  const json = itemsJson(items);
  const now = gmt(ctx.clock());
  const id = datasetObjectId(name, lang);
  const { value, rebaked } = await runWrite(ctx, {
    siteId: site.id,
    // What prints the set, within the render budgets with these items, or nothing is stored.
    trial: true,
    apply: async (trx) => {
      // Read under the site's counters (the pipeline took them): no counted write changes it meanwhile.
      const existing = await trx
        .selectFrom("datasets")
        .select(["created_at_gmt", "total", textBytes(trx, "items_json").as("bytes")])
        .where("site_id", "=", site.id)
        .where("name", "=", name)
        .where("lang", "=", lang)
        .executeTakeFirst();
      if (existing && options.onlyNew)
        throw fail(
          "slug_taken",
          { id, name, lang: lang === "" ? null : lang },
          `Data set "${id}" was made again meanwhile; delete it, then restore.`,
        );
      if (existing) {
        await trx
          .updateTable("datasets")
          .set({ items_json: json, total: items.length, updated_at_gmt: now })
          .where("site_id", "=", site.id)
          .where("name", "=", name)
          .where("lang", "=", lang)
          .execute();
      } else {
        await trx
          .insertInto("datasets")
          .values({
            site_id: site.id,
            name,
            lang,
            items_json: json,
            total: items.length,
            created_at_gmt: now,
            updated_at_gmt: now,
          })
          .execute();
        await leaveTrash(trx, site.id, "data", id);
      }
      return {
        value: {
          row: {
            name,
            lang,
            total: items.length,
            created_at_gmt: existing?.created_at_gmt ?? now,
            updated_at_gmt: now,
          },
          created: !existing,
        },
        wrote: [{ kind: "dataset", id, action: existing ? "updated" : options.onlyNew ? "restored" : "created" }],
        changes: [{ kind: "dataset", name }],
        // Counted as the write leaves it: replacing 3 items by 5 adds 2.
        room: {
          data_items: items.length - (existing?.total ?? 0),
          stored_bytes: utf8Bytes(json) - Number(existing?.bytes ?? 0),
        },
      };
    },
  });
  return { dataset: info(value.row), created: value.created, rebaked, warnings };
}

/** GET /data: one page of every set and variant, by name, the shared set before the language variants. */
export async function listDatasets(
  db: Db,
  siteId: number,
  window: ListWindow,
): Promise<{ total: number; datasets: DatasetInfo[] }> {
  const { total, rows } = await listWindow(
    db
      .selectFrom("datasets")
      .select(["name", "lang", "total", "created_at_gmt", "updated_at_gmt"])
      .where("site_id", "=", siteId)
      .orderBy("name")
      .orderBy("lang"),
    window,
  );
  return { total, datasets: rows.map(info) };
}

export interface DatasetRead {
  items: Record<string, unknown>[];
  /** Which form answered: the language variant or the shared set. */
  variant: "lang" | "shared";
  lang: string | null;
}

/**
 * The items a data set gives in a language: the variant when it has items, else the shared set,
 * else the (empty) variant; undefined when the set exists in neither form. Stored items that do
 * not read give none, so a render goes on.
 */
export async function readDataset(
  db: Db,
  siteId: number,
  name: string,
  lang: string | null,
): Promise<DatasetRead | undefined> {
  const rows = await db
    .selectFrom("datasets")
    .select(["lang", "items_json", "total"])
    .where("site_id", "=", siteId)
    .where("name", "=", name)
    .where("lang", "in", lang ? [lang, ""] : [""])
    .execute();
  const variant = lang ? rows.find((row) => row.lang === lang) : undefined;
  const shared = rows.find((row) => row.lang === "");
  if (variant && variant.total > 0)
    return { items: DATASET_ITEMS.readOr(variant.items_json, []), variant: "lang", lang };
  if (shared) return { items: DATASET_ITEMS.readOr(shared.items_json, []), variant: "shared", lang: null };
  if (variant) return { items: [], variant: "lang", lang };
  return undefined;
}
