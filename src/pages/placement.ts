// Where a page goes: under the parent a write names (id, slug or path), or at the path of its
// `url`, creating draft stubs for missing parents when asked; and moving a subtree's paths.
import { fail } from "../errors.ts";
import type { LanguageState } from "../site/languages.ts";
import type { Db } from "../store/database.ts";
import { childPath, pathSegments } from "./paths.ts";
import { descendantsOf, pageAt, pageById, type PageRow } from "./queries.ts";
import { candidateOf, lookupPage } from "./refs.ts";
import { slugify } from "./slug.ts";
import { pageBytes } from "../quotas/bytes.ts";

/** A draft page made on the way to a missing parent. */
export interface Stub {
  id: number;
  path: string;
}

/**
 * Where a page goes: its parent (0 at the top), the parent's path, and stubs made on the way with
 * the bytes they store (the write takes room for them with its own, quotas/usage.ts).
 */
export interface Placement {
  parentId: number;
  parentPath: string;
  stubs: Stub[];
  stubBytes: number;
}

export const TOP: Placement = { parentId: 0, parentPath: "", stubs: [], stubBytes: 0 };

function stubTitle(segment: string): string {
  const words = segment.replace(/-+/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function parentPathOf(row: Pick<PageRow, "path">): string {
  return row.path.slice(0, row.path.lastIndexOf("/"));
}

/** Drops the page's own language prefix from a path given as input (`/de/produkte` → `/produkte`). */
export function withoutLangPrefix(segments: string[], lang: string, state: LanguageState): string[] {
  if (state.active && lang !== "" && lang !== state.defaultLang && segments[0] === lang) return segments.slice(1);
  return segments;
}

/**
 * The parent a path names, segment by segment in one language. A missing segment is 404
 * parent_not_found (`segment`, `created_stubs: []`), or with create_missing_parents a draft stub.
 */
export async function placeAtPath(
  trx: Db,
  siteId: number,
  lang: string,
  segments: string[],
  createMissing: boolean,
  now: string,
  field: string,
): Promise<Placement> {
  let placement: Placement = { ...TOP, stubs: [] };
  const wanted = `/${segments.join("/")}`;
  for (const raw of segments) {
    const segment = slugify(raw, lang);
    if (segment === "")
      throw fail("invalid_field", { field, segment: raw }, `The path segment "${raw}" has no letters or digits.`);
    let row = await pageAt(trx, siteId, placement.parentId, lang, segment);
    if (!row) {
      if (!createMissing) {
        throw fail("parent_not_found", {
          field,
          segment,
          path: wanted,
          lang: lang === "" ? null : lang,
          created_stubs: [],
        });
      }
      const stub = {
        site_id: siteId,
        parent_id: placement.parentId,
        lang,
        slug: segment,
        path: childPath(placement.parentPath, segment),
        title: stubTitle(segment),
        status: "draft",
        content: "",
        fields_json: "{}",
        frame_id: null,
        translation_group: null,
        created_at_gmt: now,
        updated_at_gmt: now,
      };
      row = await trx.insertInto("pages").values(stub).returningAll().executeTakeFirstOrThrow();
      placement.stubs.push({ id: row.id, path: row.path });
      placement.stubBytes += pageBytes(row);
    }
    placement = { parentId: row.id, parentPath: row.path, stubs: placement.stubs, stubBytes: placement.stubBytes };
  }
  return placement;
}

/** Where `parent` (id, slug or path) or `url` (all but its last segment) puts a page of `lang`. */
export async function placement(
  trx: Db,
  siteId: number,
  state: LanguageState,
  lang: string,
  where: { parent?: number | string; url?: string },
  createMissing: boolean,
  now: string,
): Promise<Placement | undefined> {
  if (where.parent !== undefined) {
    const ref = where.parent;
    if (ref === 0) return TOP;
    if (typeof ref === "string" && ref.includes("/")) {
      return placeAtPath(
        trx,
        siteId,
        lang,
        withoutLangPrefix(pathSegments(ref), lang, state),
        createMissing,
        now,
        "parent",
      );
    }
    const id = typeof ref === "number" ? ref : /^\d{1,15}$/.test(ref) ? Number(ref) : undefined;
    if (id !== undefined) {
      const row = await pageById(trx, siteId, id);
      if (row) {
        if (row.lang !== lang)
          throw fail("parent_lang_mismatch", { parent: row.id, parent_lang: row.lang || null, lang: lang || null });
        return { parentId: row.id, parentPath: row.path, stubs: [], stubBytes: 0 };
      }
    }
    const found = await lookupPage(trx, siteId, ref, { lang }, state);
    if ("found" in found) return { parentId: found.found.id, parentPath: found.found.path, stubs: [], stubBytes: 0 };
    if ("candidates" in found)
      throw fail("ambiguous_page", { field: "parent", ref, candidates: found.candidates.map(candidateOf) });
    throw fail("parent_not_found", {
      field: "parent",
      parent: ref,
      segment: String(ref),
      lang: lang || null,
      created_stubs: [],
    });
  }
  if (where.url !== undefined) {
    const segments = withoutLangPrefix(pathSegments(where.url), lang, state);
    return placeAtPath(trx, siteId, lang, segments.slice(0, -1), createMissing, now, "url");
  }
  return undefined;
}

/** Rewrites the paths of a page's descendants after its own path changed. */
export async function movePaths(trx: Db, siteId: number, pageId: number, from: string, to: string): Promise<void> {
  for (const row of await descendantsOf(trx, siteId, pageId)) {
    if (!row.path.startsWith(`${from}/`)) continue;
    await trx
      .updateTable("pages")
      .set({ path: to + row.path.slice(from.length) })
      .where("site_id", "=", siteId)
      .where("id", "=", row.id)
      .execute();
  }
}
