// The bundles the public site serves (style_copies): made once per content, with their brotli and
// gzip forms, and kept current. A bundle depends on the stylesheet, on every stylesheet it imports
// and on the addresses of the media it points to; `source_key` records those, so a bundle is made
// again exactly when one of them changed — by a stylesheet write (in its transaction), or, for a
// media file given new bytes or a new slug, when the engine next renders a frame linking it
// (`styleLinks` below). The new copy becomes the current one; the one it replaces keeps answering
// its address for REPLACED_COPY_MS (docs/styles.md).
//
// Every copy kept weighs its CSS and its brotli and gzip forms against the site's published_bytes
// (docs/security.md, "Quotas"), moved in the transaction that stores or deletes the row. Replaced
// copies are kept a day, so repeated writes pile them up: a write's bundles take room as the
// write's own bytes do (refused past the quota, nothing stored). A bundle made outside a stylesheet
// write (its media moved, a stylesheet it imports deleted, a render finding it stale) is charged,
// never refused: a page must always find its stylesheet, and one left unmade would be stale and
// made again on every render.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { gmt } from "../clock.ts";
import { ServiceError } from "../errors.ts";
import { mediaByRefs } from "../media/queries.ts";
import { utf8Bytes } from "../quotas/bytes.ts";
import { chargeRoom, holdRoom, requireRoom } from "../quotas/usage.ts";
import type { Db } from "../store/database.ts";
import { bundleSettings, bundleStylesheet, CssBudget } from "./css.ts";
import { importClosure } from "./graph.ts";
import { importMapOf, sheetsCss, themeSheets, type SheetHead } from "./queries.ts";

/** How long a replaced copy keeps answering its address: a page cached before the change still finds its stylesheet. */
export const REPLACED_COPY_MS = 24 * 60 * 60 * 1000;

/** Hex digits of the bundle's sha256 in its address. */
export const HASH_LENGTH = 16;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Past this size brotli's best quality costs seconds (1 MiB: about 5 s); quality 9 is ten times faster for a few percent more bytes. */
const BEST_BROTLI_BYTES = 128 * 1024;

/** The public address of a bundle, site-relative: it answers on the stylesheet's own site's domains. */
export function styleUrl(name: string, hash: string): string {
  return `/styles/${name}.${hash}.css`;
}

/** The current copy of a stylesheet. */
export interface CurrentCopy {
  hash: string;
  url: string;
}

/** What a bundle reads: the theme's stylesheets and the addresses of the media they point to. */
interface ThemeState {
  sheets: Map<string, SheetHead>;
  /** media ref → address; a ref naming no file is absent. */
  media: Map<string, string>;
}

async function themeState(db: Db, siteId: number, theme: string): Promise<ThemeState> {
  const sheets = await themeSheets(db, siteId, theme);
  const refs = [...new Set([...sheets.values()].flatMap((sheet) => sheet.media))];
  const files = refs.length === 0 ? new Map() : await mediaByRefs(db, siteId, refs);
  return { sheets, media: new Map([...files].map(([ref, file]) => [ref, file.url])) };
}

/** What the bundle of `name` is made from, as one hash: every stylesheet it reads (or their absence) and every media address. */
function sourceKey(settings: string, state: ThemeState, name: string): string {
  const closure = importClosure(name, importMapOf(state.sheets));
  const sheets = closure.map((sheet) => [sheet, state.sheets.get(sheet)?.sha256 ?? null]);
  const refs = [...new Set(closure.flatMap((sheet) => state.sheets.get(sheet)?.media ?? []))].sort();
  const media = refs.map((ref) => [ref, state.media.get(ref) ?? null]);
  return createHash("sha256")
    .update(JSON.stringify([settings, sheets, media]))
    .digest("hex");
}

async function currentRows(
  db: Db,
  siteId: number,
  theme: string,
  names: readonly string[],
): Promise<Map<string, { hash: string; source_key: string }>> {
  if (names.length === 0) return new Map();
  const rows = await db
    .selectFrom("style_copies")
    .select(["name", "hash", "source_key"])
    .where("site_id", "=", siteId)
    .where("theme", "=", theme)
    .where("name", "in", [...names])
    .where("replaced_at_gmt", "is", null)
    .execute();
  return new Map(rows.map((row) => [row.name, row]));
}

/** A bundle made, ready to store. */
export interface MadeCopy {
  name: string;
  hash: string;
  sourceKey: string;
  css: string;
  br: Buffer;
  gzip: Buffer;
}

/**
 * Bundles made in the last moments, by what they are made of (`sourceKey`: the settings, the
 * sheets' hashes, the media addresses): a write whose transaction runs twice (its trial rendered
 * outside it, publish/rehearsal.ts) bundles once, and spends its CSS time budget once.
 */
const RECENT_COPIES = 32;
const RECENT_MS = 60_000;
const recent = new Map<string, { until: number; copy: Promise<MadeCopy> }>();

function makeCopy(
  name: string,
  sourceKey: string,
  sheets: ReadonlyMap<string, string>,
  media: ReadonlyMap<string, string>,
  budget: CssBudget,
): Promise<MadeCopy> {
  const key = `${name}\n${sourceKey}`;
  const held = recent.get(key);
  if (held !== undefined && held.until > Date.now()) return held.copy;
  const copy = bundleCopy(name, sourceKey, sheets, media, budget);
  recent.set(key, { until: Date.now() + RECENT_MS, copy });
  copy.catch(() => recent.delete(key));
  while (recent.size > RECENT_COPIES) recent.delete(recent.keys().next().value!);
  return copy;
}

async function bundleCopy(
  name: string,
  sourceKey: string,
  sheets: ReadonlyMap<string, string>,
  media: ReadonlyMap<string, string>,
  budget: CssBudget,
): Promise<MadeCopy> {
  const css = await bundleStylesheet(name, sheets, media, budget);
  const bytes = Buffer.from(css, "utf8");
  const quality = bytes.length <= BEST_BROTLI_BYTES ? constants.BROTLI_MAX_QUALITY : 9;
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipped(bytes, { level: 9 }),
  ]);
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, HASH_LENGTH);
  return { name, hash, sourceKey, css, br, gzip: gz };
}

/** What a copy weighs against published_bytes: the CSS served (UTF-8) and its two compressed forms. */
function copyBytes(copy: MadeCopy): number {
  return utf8Bytes(copy.css) + copy.br.length + copy.gzip.length;
}

/**
 * Makes the current copy of each stylesheet named, and marks the copy it replaces. A write's
 * (`refuse`) takes room for the new rows first, else is refused; any other is charged.
 */
async function storeCopies(
  trx: Db,
  now: number,
  siteId: number,
  theme: string,
  made: readonly MadeCopy[],
  refuse: boolean,
): Promise<void> {
  const at = gmt(now);
  let added = 0;
  for (const copy of made) {
    // A bundle made before (a stylesheet written back as it was) is its row again, counted when first stored.
    const kept = await trx
      .selectFrom("style_copies")
      .select("hash")
      .where("site_id", "=", siteId)
      .where("theme", "=", theme)
      .where("name", "=", copy.name)
      .where("hash", "=", copy.hash)
      .executeTakeFirst();
    if (!kept) added += copyBytes(copy);
  }
  await (refuse ? requireRoom : chargeRoom)(trx, siteId, { published_bytes: added });
  for (const copy of made) {
    await trx
      .updateTable("style_copies")
      .set({ replaced_at_gmt: at })
      .where("site_id", "=", siteId)
      .where("theme", "=", theme)
      .where("name", "=", copy.name)
      .where("replaced_at_gmt", "is", null)
      .where("hash", "<>", copy.hash)
      .execute();
    // The same bundle made before (a stylesheet written back as it was) is current again.
    await trx
      .insertInto("style_copies")
      .values({
        site_id: siteId,
        theme,
        name: copy.name,
        hash: copy.hash,
        source_key: copy.sourceKey,
        css: copy.css,
        br: copy.br,
        gzip: copy.gzip,
        bytes: copyBytes(copy),
        created_at_gmt: at,
        replaced_at_gmt: null,
      })
      .onConflict((conflict) =>
        conflict
          .columns(["site_id", "theme", "name", "hash"])
          .doUpdateSet({ source_key: copy.sourceKey, replaced_at_gmt: null }),
      )
      .execute();
  }
}

export interface RefreshOptions {
  /**
   * A write: a bundle that cannot be made refuses it (invalid_css), and so do bundles that would
   * take the site past its published_bytes (quota_exceeded). A render: the stylesheet keeps its
   * current copy, and the next write of it is refused with the reason; what it stores is charged
   * whatever the quota.
   */
  refuse: boolean;
  /** The worker time the bundles may take: a write's, shared with its parse; by default a budget of their own. */
  budget?: CssBudget;
}

export interface Refreshed {
  /** The current copy of each stylesheet named that exists. */
  current: Map<string, CurrentCopy>;
  /** The bundles made by this call, by name. */
  made: Map<string, MadeCopy>;
}

/**
 * Brings the copies of `names` (stylesheets of one theme) up to date and answers them. Inside a
 * write's transaction (`db` a transaction, which holds the site's write lock) the copies are
 * written there. Otherwise the check reads without a lock, and new copies are written in a
 * transaction that takes the site's write lock (the one every counted write takes first,
 * quotas/usage.ts) and checks again that what they were made from has not changed meanwhile.
 */
export async function refreshCopies(
  db: Db,
  now: number,
  siteId: number,
  theme: string,
  names: readonly string[],
  options: RefreshOptions,
): Promise<Refreshed> {
  const settings = await bundleSettings(siteId);
  const budget = options.budget ?? new CssBudget(siteId);
  for (let attempt = 0; ; attempt++) {
    const state = await themeState(db, siteId, theme);
    const wanted = [...new Set(names)].filter((name) => state.sheets.has(name));
    const keys = new Map(wanted.map((name) => [name, sourceKey(settings, state, name)]));
    const rows = await currentRows(db, siteId, theme, wanted);
    const stale = wanted.filter((name) => rows.get(name)?.source_key !== keys.get(name));
    const made = new Map<string, MadeCopy>();
    if (stale.length > 0) {
      const css = await sheetsCss(db, siteId, theme, [
        ...new Set(stale.flatMap((name) => importClosure(name, importMapOf(state.sheets)))),
      ]);
      for (const name of stale) {
        try {
          made.set(name, await makeCopy(name, keys.get(name)!, css, state.media, budget));
        } catch (error) {
          if (options.refuse || !(error instanceof ServiceError)) throw error;
        }
      }
      // (Nothing made: every stale bundle failed, and keeps its current copy.)
      const stored =
        made.size === 0 ||
        (await underSiteLock(db, siteId, async (trx, fresh) => {
          if (fresh) {
            const again = await themeState(trx, siteId, theme);
            if ([...made.values()].some((copy) => sourceKey(settings, again, copy.name) !== copy.sourceKey))
              return false;
          }
          await storeCopies(trx, now, siteId, theme, [...made.values()], options.refuse);
          return true;
        }));
      // Changed meanwhile: made again from what is there now (a write in flight settles it).
      if (!stored && attempt < 3) continue;
      if (!stored) made.clear();
    }
    const current = new Map<string, CurrentCopy>();
    for (const name of wanted) {
      const hash = made.get(name)?.hash ?? rows.get(name)?.hash;
      if (hash !== undefined) current.set(name, { hash, url: styleUrl(name, hash) });
    }
    return { current, made };
  }
}

/** Runs `work` holding the site's write lock: in `db` when it is a transaction (the caller's), else in a new one (`fresh`). */
async function underSiteLock<T>(db: Db, siteId: number, work: (trx: Db, fresh: boolean) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db, false);
  return db.transaction().execute(async (trx) => {
    await holdRoom(trx, siteId);
    return work(trx, true);
  });
}

/** A stylesheet deleted: its current copy is replaced by nothing, and answers (and counts) for REPLACED_COPY_MS more. */
export async function retireCopies(trx: Db, now: number, siteId: number, theme: string, name: string): Promise<void> {
  await trx
    .updateTable("style_copies")
    .set({ replaced_at_gmt: gmt(now) })
    .where("site_id", "=", siteId)
    .where("theme", "=", theme)
    .where("name", "=", name)
    .where("replaced_at_gmt", "is", null)
    .execute();
}

/** Drops the site's copies replaced longer than REPLACED_COPY_MS ago (they answer 404 already) and frees their bytes. */
export async function dropExpiredCopies(trx: Db, now: number, siteId: number): Promise<void> {
  const gone = await trx
    .deleteFrom("style_copies")
    .where("site_id", "=", siteId)
    .where("replaced_at_gmt", "is not", null)
    .where("replaced_at_gmt", "<", gmt(now - REPLACED_COPY_MS))
    .returning("bytes")
    .execute();
  await requireRoom(trx, siteId, { published_bytes: -gone.reduce((sum, row) => sum + Number(row.bytes), 0) });
}

/** The served CSS of a copy (a dry run answers it when the write would make no new bundle). */
export async function copyCss(
  db: Db,
  siteId: number,
  theme: string,
  name: string,
  hash: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("style_copies")
    .select("css")
    .where("site_id", "=", siteId)
    .where("theme", "=", theme)
    .where("name", "=", name)
    .where("hash", "=", hash)
    .executeTakeFirst();
  return row?.css;
}

/** The current address of each named stylesheet of the theme a render links, its bundle made again first when what it is made from changed; a name the theme lacks is absent. */
export async function styleLinks(
  db: Db,
  now: number,
  siteId: number,
  theme: string,
  names: readonly string[],
): Promise<Map<string, string>> {
  const { current } = await refreshCopies(db, now, siteId, theme, names, { refuse: false });
  return new Map([...current].map(([name, copy]) => [name, copy.url]));
}
