// PUT /styles/{name} and DELETE /styles/{name} (docs/styles.md). A write parses the CSS
// (lightningcss), checks its imports (same site and theme, no cycle) and media refs, stores it,
// makes the bundles of it and of every stylesheet importing it (their addresses change with it),
// and announces one style change naming them all: the engine rebakes exactly the frames linking one
// of them.
// `?dry_run=1` runs the same write in its transaction, answers what would be served and which
// frames would be rebaked, and rolls it all back. Each write runs through the write pipeline
// (write/pipeline.ts), which records the stylesheet's revision (styles/revision.ts); a delete
// keeps its last revision and puts it in the trash itself.
import { createHash } from "node:crypto";
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { forceFrom } from "../media/write-service.ts";
import { mediaByRefs } from "../media/queries.ts";
import { themeFrom } from "../menus/locations.ts";
import type { Change, Rebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { utf8Bytes } from "../quotas/bytes.ts";
import { settingsOf } from "../site/settings.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Db } from "../store/database.ts";
import { unknownFields, type Warning } from "../warnings.ts";
import { copyCss, dropExpiredCopies, refreshCopies, retireCopies, type CurrentCopy } from "./copies.ts";
import { CssBudget, invalidCss, parseStylesheet, type ParsedStylesheet } from "./css.ts";
import { importCycle, importDepth, importersOf } from "./graph.ts";
import { framesLinking, plannedStyleRebake, type FrameLink } from "./linking.ts";
import type { PlannedRebake } from "../effects/planned.ts";
import { cssFrom, styleNameFrom, styleNotFound } from "./names.ts";
import { importMapOf, themeSheets, type SheetHead } from "./queries.ts";
import { styleRecord, type StyleRecord } from "./record.ts";
import { leaveTrash } from "../revisions/trash.ts";
import { styleObjectId, trashStyle } from "./revision.ts";

type StyleChange = Extract<Change, { kind: "style" }>;

const WRITE_FIELDS = ["css", "theme"] as const;

/**
 * How many `@import`s deep a chain of stylesheets may go. The bundler follows a chain by recursion
 * on a thread of its own: about 1,000 deep it overflows that stack and takes the process down
 * (docs/styles.md). Real stylesheets import a few levels deep.
 */
export const MAX_IMPORT_DEPTH = 32;

/** Each `@import` names a stylesheet of the theme, none closes a cycle back to this one, and no chain through it passes MAX_IMPORT_DEPTH. */
export function checkImports(
  name: string,
  theme: string,
  parsed: ParsedStylesheet,
  sheets: ReadonlyMap<string, SheetHead>,
): void {
  const imports = importMapOf(sheets);
  for (const spot of parsed.imports) {
    if (spot.name !== name && !sheets.has(spot.name)) {
      throw invalidCss(`@import "${spot.name}": theme "${theme}" has no stylesheet "${spot.name}"`, spot, {
        import: spot.name,
      });
    }
    const cycle = importCycle(name, spot.name, imports);
    if (cycle)
      throw invalidCss(`@import "${spot.name}" closes a cycle of imports: ${cycle.join(" → ")}`, spot, {
        import: spot.name,
        cycle,
      });
  }
  if (parsed.imports.length === 0) return;
  const { depth, through } = importDepth(
    name,
    parsed.imports.map((spot) => spot.name),
    imports,
  );
  if (depth > MAX_IMPORT_DEPTH) {
    const spot = parsed.imports.find((s) => s.name === through) ?? parsed.imports[0]!;
    throw invalidCss(
      `@import "${spot.name}" makes a chain of imports ${depth} deep through this stylesheet; at most ${MAX_IMPORT_DEPTH}`,
      spot,
      { import: spot.name, import_depth: depth, max_import_depth: MAX_IMPORT_DEPTH },
    );
  }
}

/** Each `url(media:<ref>)` names a media file of the site. */
export async function checkMedia(db: Db, siteId: number, parsed: ParsedStylesheet): Promise<void> {
  if (parsed.media.length === 0) return;
  const found = await mediaByRefs(db, siteId, [...new Set(parsed.media.map((spot) => spot.ref))]);
  const missing = parsed.media.find((spot) => !found.has(spot.ref));
  if (missing)
    throw invalidCss(`url(media:${missing.ref}) names no media file of this site`, missing, { media: missing.ref });
}

/** What a PUT's transaction found and did. */
interface PutDone {
  copy: CurrentCopy | undefined;
  created: boolean;
  /** A dry run's: the frames that would be rebaked. */
  planned: PlannedRebake | undefined;
  /** A dry run's `css`: the bundle that would be served. */
  served: string;
}

export interface StyleWriteAnswer {
  style: StyleRecord & { css: string };
  created: boolean;
  rebaked: Rebaked | PlannedRebake;
  dryRun: boolean;
  warnings: Warning[];
}

export interface PutOptions {
  /** A stylesheet brought back from the trash: one made again meanwhile is 409 slug_taken (its object id), nothing written. */
  onlyNew?: boolean;
}

/**
 * PUT /styles/{name} `{css, theme?}`; with `dryRun` nothing is kept and `style.css` is the bundle
 * that would be served. A stylesheet made again under a name in the trash takes its place there,
 * its history continuing.
 */
/** The body of PUT /styles/{name} as its route schema lets it through. */
export type PutStyleBody = { css: string; theme?: string | null };

export async function putStyle(
  ctx: ServiceContext,
  site: SiteRow,
  rawName: string,
  body: PutStyleBody,
  dryRun: boolean,
  options: PutOptions = {},
): Promise<StyleWriteAnswer> {
  const warnings = unknownFields(body, WRITE_FIELDS);
  const name = styleNameFrom(rawName);
  const css = cssFrom(body.css);
  const { theme } = await themeFrom(ctx.db, site.id, body.theme);
  // One budget of CSS worker time for the parse and every bundle the write makes.
  const budget = new CssBudget(site.id);
  const parsed = await parseStylesheet(css, budget);
  const now = ctx.clock();
  const head: SheetHead = {
    name,
    bytes: utf8Bytes(css),
    sha256: createHash("sha256").update(css, "utf8").digest("hex"),
    imports: [...new Set(parsed.imports.map((spot) => spot.name))],
    media: [...new Set(parsed.media.map((spot) => spot.ref))],
    created_at_gmt: gmt(now),
    updated_at_gmt: gmt(now),
  };
  const id = styleObjectId(theme, name);
  const done = await runWrite(ctx, {
    siteId: site.id,
    dryRun,
    // What links it, within the render budgets with the new bundle addresses, or nothing is
    // stored. A dry run answers its plan instead, and tries nothing.
    trial: !dryRun,
    apply: async (trx) => {
      const sheets = await themeSheets(trx, site.id, theme);
      checkImports(name, theme, parsed, sheets);
      await checkMedia(trx, site.id, parsed);
      const existing = sheets.get(name);
      if (existing && options.onlyNew)
        throw fail(
          "slug_taken",
          { id, name, theme },
          `Stylesheet "${name}" of theme "${theme}" was made again meanwhile; delete it, then restore.`,
        );
      const columns = {
        css,
        bytes: head.bytes,
        sha256: head.sha256,
        imports_json: JSON.stringify(head.imports),
        media_json: JSON.stringify(head.media),
        updated_at_gmt: head.updated_at_gmt,
      };
      if (existing) {
        head.created_at_gmt = existing.created_at_gmt;
        await trx
          .updateTable("styles")
          .set(columns)
          .where("site_id", "=", site.id)
          .where("theme", "=", theme)
          .where("name", "=", name)
          .execute();
      } else {
        await trx
          .insertInto("styles")
          .values({ site_id: site.id, theme, name, created_at_gmt: head.created_at_gmt, ...columns })
          .execute();
        await leaveTrash(trx, site.id, "styles", id);
      }
      sheets.set(name, head);
      // Its importers' bundles hold it: they are made again, and the frames linking them rebaked.
      const change: StyleChange = { kind: "style", theme, names: [name, ...importersOf([name], importMapOf(sheets))] };
      // Expired copies go first: the bytes they free make room for the bundles this write stores.
      await dropExpiredCopies(trx, now, site.id);
      const { current, made } = await refreshCopies(trx, now, site.id, theme, change.names, { refuse: true, budget });
      const copy = current.get(name);
      const value: PutDone = { copy, created: !existing, planned: undefined, served: css };
      if (dryRun) {
        value.served = made.get(name)?.css ?? (copy && (await copyCss(trx, site.id, theme, name, copy.hash))) ?? "";
        value.planned = await plannedStyleRebake(trx, site.id, change);
      }
      const action = options.onlyNew ? "restored" : existing ? "updated" : "created";
      return {
        value,
        wrote: [{ kind: "style", id, action }],
        changes: [change],
        room: { stored_bytes: head.bytes - (existing?.bytes ?? 0) },
      };
    },
  });
  const record = styleRecord(theme, head, done.value.copy);
  if (dryRun)
    return {
      style: { ...record, css: done.value.served },
      created: done.value.created,
      rebaked: done.value.planned!,
      dryRun,
      warnings,
    };
  return { style: { ...record, css }, created: done.value.created, rebaked: done.rebaked, dryRun, warnings };
}

export interface StyleDeleteAnswer {
  deleted: { name: string; theme: string; bytes: number; sha256: string };
  rebaked: Rebaked | PlannedRebake;
}

/**
 * DELETE /styles/{name}: 409 style_in_use while frames link it (or a stylesheet importing it) or
 * other stylesheets import it, unless `?force=1`. Its importers are bundled without it, and the
 * frames linking any of them rebaked, so pages drop the link. It goes to the trash with its
 * history. With `dryRun` the same delete runs in its transaction, is answered (`rebaked` planned)
 * and rolled back.
 */
export async function deleteStyle(
  ctx: ServiceContext,
  site: SiteRow,
  rawName: string,
  query: { theme?: unknown; force?: unknown },
  dryRun = false,
): Promise<StyleDeleteAnswer> {
  const name = styleNameFrom(rawName);
  const { theme } = await themeFrom(ctx.db, site.id, query.theme);
  const force = forceFrom(query.force);
  const sheets = await themeSheets(ctx.db, site.id, theme);
  const sheet = sheets.get(name);
  if (!sheet) throw styleNotFound(name, theme);
  const imports = importMapOf(sheets);
  const importers = importersOf([name], imports);
  const importedBy = [...sheets.values()]
    .filter((other) => other.name !== name && other.imports.includes(name))
    .map((other) => other.name);
  // Frames print the stylesheets of the site's theme only.
  const frames: FrameLink[] =
    (await settingsOf(ctx.db, site.id)).theme === theme
      ? await framesLinking(ctx.db, site.id, [name, ...importers])
      : [];
  if (!force && (frames.length > 0 || importedBy.length > 0)) {
    const who = [...frames.map((frame) => `frame ${frame.slug}`), ...importedBy.map((other) => `stylesheet ${other}`)];
    throw fail(
      "style_in_use",
      { name, theme, frames, imported_by: importedBy },
      `${who.join(", ")} use${who.length === 1 ? "s" : ""} this stylesheet; pass ?force=1 to delete it anyway.`,
    );
  }
  const now = ctx.clock();
  const change: StyleChange = { kind: "style", theme, names: [name, ...importers] };
  const done = await runWrite(ctx, {
    siteId: site.id,
    dryRun,
    apply: async (trx) => {
      // Its CSS kept as its last revision, then the trash entry: a restore brings it back.
      await trashStyle(trx, site.id, theme, name, gmt(now));
      const gone = await trx
        .deleteFrom("styles")
        .where("site_id", "=", site.id)
        .where("theme", "=", theme)
        .where("name", "=", name)
        .returning("bytes")
        .executeTakeFirst();
      if (!gone) throw styleNotFound(name, theme);
      await retireCopies(trx, now, site.id, theme, name);
      // Bundled without it (an import of a stylesheet that is gone prints nothing).
      await refreshCopies(trx, now, site.id, theme, importers, { refuse: false });
      await dropExpiredCopies(trx, now, site.id);
      const planned = dryRun ? await plannedStyleRebake(trx, site.id, change) : undefined;
      return {
        value: planned,
        wrote: [{ kind: "style", id: styleObjectId(theme, name), action: "deleted" }],
        changes: [change],
        room: { stored_bytes: -Number(gone.bytes) },
      };
    },
  });
  const rebaked = done.value ?? done.rebaked;
  return { deleted: { name, theme, bytes: sheet.bytes, sha256: sheet.sha256 }, rebaked };
}
