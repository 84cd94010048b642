// Pages (docs/content-model.md, "Pages"): publishing by upsert, reading by
// id, slug or path, and PATCH (delete-service.ts and undelete.ts write through it too). Every
// write goes through the write pipeline (write/pipeline.ts), which records a revision of each
// page it wrote (revision.ts) and, once it has committed, announces the pages it changed.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Rebaked, Written, WrittenAction } from "../write/change.ts";
import { nothingRebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import type { Db } from "../store/database.ts";
import { childPath } from "./paths.ts";
import { pageChangesBetween } from "./changes.ts";
import { frameIdFromRef } from "./frame-facts.ts";
import {
  booleanFrom,
  contentFrom,
  fieldsFrom,
  inputWarnings,
  menuOrderFrom,
  mergeFields,
  pageIdFrom,
  PATCH_KEYS,
  PUBLISH_KEYS,
  refFrom,
  slugFrom,
  statusFrom,
  titleFrom,
  urlFrom,
  type SlugInput,
} from "./input.ts";
import { ancestorsOf, pageAt, pageById, slugsUnder, type PageRow, type PageStatus } from "./queries.ts";
import { fieldsOf, pageRecords, type PageRecord } from "./record.ts";
import { findPageByRef } from "./refs.ts";
import { firstFreeSlug, slugFromTitle } from "./slug.ts";
import { offlineBetween } from "./offline.ts";
import { WriteRegion } from "./region.ts";
import { siteAddressing } from "../site/addresses.ts";
import { movePaths, parentPathOf, placement, TOP, type Placement, type Stub } from "./placement.ts";
import { pageBytes } from "../quotas/bytes.ts";
import type { UsageDelta } from "../quotas/usage.ts";
import { recordAddressChanges } from "./moves.ts";
import { runPageWrite } from "./write-race.ts";
import "./revision.ts";
import { NO_SEO, requireMedia, seoJsonAfter, seoOf, seoPatchFrom, type PageSeo } from "./seo.ts";

export interface SlugChanged {
  from: string;
  to: string;
}

export interface PageWriteAnswer {
  page: PageRecord;
  created: boolean;
  slug_changed?: SlugChanged;
  created_stubs?: Stub[];
  rebaked: Rebaked;
  warnings: Warning[];
  /** A dry run (`?dry_run=1`): nothing was written; `page` is the page as it stands. */
  dry_run?: boolean;
  applied?: boolean;
}

/** The input of one page write once read and checked. Undefined keeps what is stored. */
interface PageChange {
  title?: string;
  slug?: SlugInput;
  placement?: Placement;
  lang?: string;
  status?: PageStatus;
  content?: string;
  fields?: Record<string, unknown>;
  frameId?: string | null;
  seo?: Partial<PageSeo>;
  menuOrder?: number;
}

/** One page's row as a write left it; `room` what the row takes beyond what it took before. */
export interface PageWritten {
  row: PageRow;
  created: boolean;
  slugChanged?: SlugChanged;
  room?: UsageDelta;
}

/** What a page write's rows came to (the work `writeAndAnnounce` is given). */
export interface PageWork {
  written: PageWritten;
  /** Where the page was placed, with the stubs made on the way (absent: none). */
  placed?: Placement;
  /** Further pages the work changed (a restore's children put back): a revision each. */
  revise?: number[];
  /** What it did to the page, when not plainly created or updated (a restore). */
  action?: WrittenAction;
}

async function createPage(
  trx: Db,
  siteId: number,
  lang: string,
  where: Placement,
  change: PageChange & { title: string },
  now: string,
): Promise<PageWritten> {
  const desired = change.slug?.slug ?? slugFromTitle(change.title, lang);
  const slug = firstFreeSlug(desired, await slugsUnder(trx, siteId, where.parentId, lang));
  const values = {
    site_id: siteId,
    parent_id: where.parentId,
    lang,
    slug,
    path: childPath(where.parentPath, slug),
    title: change.title,
    status: change.status ?? "publish",
    content: change.content ?? "",
    fields_json: JSON.stringify(change.fields ?? {}),
    frame_id: change.frameId ?? null,
    translation_group: null,
    seo_json: seoJsonAfter(NO_SEO, change.seo ?? {}),
    menu_order: change.menuOrder ?? 0,
    created_at_gmt: now,
    updated_at_gmt: now,
  };
  const row = await trx.insertInto("pages").values(values).returningAll().executeTakeFirstOrThrow();
  return {
    row,
    created: true,
    ...(slug !== desired ? { slugChanged: { from: desired, to: slug } } : {}),
    room: { pages: 1, stored_bytes: pageBytes(values) },
  };
}

/**
 * Applies a change to a stored page: moves (refusing cycles and other-language parents), a
 * language change (refused while it has children), the `-2` rule for a slug another page holds
 * there, and the paths of its descendants.
 */
async function updatePage(
  trx: Db,
  siteId: number,
  page: PageRow,
  change: PageChange,
  now: string,
  warnings: Warning[],
  region: WriteRegion,
): Promise<PageWritten> {
  await region.enter(page);
  const lang = change.lang ?? page.lang;
  let group = page.translation_group;
  if (lang !== page.lang) {
    const child = await trx
      .selectFrom("pages")
      .select("id")
      .where("site_id", "=", siteId)
      .where("parent_id", "=", page.id)
      .executeTakeFirst();
    if (child) throw fail("page_has_children", { id: page.id, lang: page.lang || null, requested: lang || null });
    if (group !== null) {
      const partner = await trx
        .selectFrom("pages")
        .select("id")
        .where("site_id", "=", siteId)
        .where("translation_group", "=", group)
        .where("lang", "=", lang)
        .where("id", "!=", page.id)
        .executeTakeFirst();
      if (partner) {
        group = null;
        warnings.push(
          warning(
            "translation_unlinked",
            `Page ${partner.id} is already the "${lang}" translation; this page left the translation group.`,
            { translation: partner.id, lang },
          ),
        );
      }
    }
  }

  const where = change.placement ?? {
    parentId: page.parent_id,
    parentPath: parentPathOf(page),
    stubs: [],
    stubBytes: 0,
  };
  if (where.parentId !== 0) {
    const parent = await pageById(trx, siteId, where.parentId);
    if (!parent)
      throw fail("parent_not_found", {
        field: "parent",
        parent: where.parentId,
        segment: String(where.parentId),
        created_stubs: [],
      });
    if (parent.id === page.id || (await ancestorsOf(trx, siteId, parent)).some((a) => a.id === page.id)) {
      throw fail("parent_cycle", { id: page.id, parent: parent.id });
    }
    if (parent.lang !== lang)
      throw fail("parent_lang_mismatch", { parent: parent.id, parent_lang: parent.lang || null, lang: lang || null });
  }

  const desired = change.slug?.slug ?? page.slug;
  const moved = where.parentId !== page.parent_id || lang !== page.lang;
  let slug = desired;
  if (moved || desired !== page.slug)
    slug = firstFreeSlug(desired, await slugsUnder(trx, siteId, where.parentId, lang, page.id));
  const path = childPath(where.parentPath, slug);
  const fieldsJson = change.fields !== undefined ? JSON.stringify(change.fields) : undefined;
  const weighs = pageBytes({
    title: change.title ?? page.title,
    content: change.content ?? page.content,
    fields_json: fieldsJson ?? page.fields_json,
  });

  const row = await trx
    .updateTable("pages")
    .set({
      parent_id: where.parentId,
      lang,
      slug,
      path,
      translation_group: group,
      ...(change.title !== undefined ? { title: change.title } : {}),
      ...(change.status !== undefined ? { status: change.status } : {}),
      ...(change.content !== undefined ? { content: change.content } : {}),
      ...(fieldsJson !== undefined ? { fields_json: fieldsJson } : {}),
      ...(change.frameId !== undefined ? { frame_id: change.frameId } : {}),
      ...(change.seo !== undefined ? { seo_json: seoJsonAfter(seoOf(page), change.seo) } : {}),
      ...(change.menuOrder !== undefined ? { menu_order: change.menuOrder } : {}),
      updated_at_gmt: now,
    })
    .where("site_id", "=", siteId)
    .where("id", "=", page.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (path !== page.path) await movePaths(trx, siteId, page.id, page.path, path);
  return {
    row,
    created: false,
    ...(slug !== desired ? { slugChanged: { from: desired, to: slug } } : {}),
    room: { stored_bytes: weighs - pageBytes(page) },
  };
}

/** Options every page write shares: `dryRun` (`?dry_run=1`) answers what the write would do and changes nothing. */
export interface WriteOptions {
  dryRun?: boolean;
}

/** The room a page write takes: its row's, and the stubs' made on the way. */
function roomOf(work: PageWork): UsageDelta {
  const stubs = work.placed?.stubs.length ?? 0;
  return {
    pages: (work.written.room?.pages ?? 0) + stubs,
    stored_bytes: (work.written.room?.stored_bytes ?? 0) + (work.placed?.stubBytes ?? 0),
  };
}

/** What a page write wrote: the page, its stubs and the further pages it names (a revision each). */
function wroteBy(work: PageWork): Written[] {
  const page = (id: number, action: WrittenAction): Written => ({ kind: "page", id: String(id), action });
  return [
    page(work.written.row.id, work.action ?? (work.written.created ? "created" : "updated")),
    ...(work.placed?.stubs ?? []).map((stub) => page(stub.id, "created")),
    ...(work.revise ?? []).map((id) => page(id, "updated")),
  ];
}

/**
 * One page write: the tree before and after gives the changes to announce and the pages it
 * takes offline (warnings `pages_offline`). The written page, its stubs and the pages `work`
 * names in `revise` get a revision each when their state changed.
 */
export async function writeAndAnnounce(
  ctx: ServiceContext,
  site: SiteRow,
  warnings: Warning[],
  work: (trx: Db, now: string, region: WriteRegion) => Promise<PageWork>,
  options: WriteOptions = {},
): Promise<PageWriteAnswer> {
  const now = gmt(ctx.clock());
  const addressing = await siteAddressing(ctx.db, site, ctx.publicPort);
  // The work may run twice (a trial rehearsed outside the transaction, write/pipeline.ts; a
  // unique-key race run again): what it warns of is counted from here each time.
  const warned = warnings.length;
  const done = await runPageWrite(ctx, {
    siteId: site.id,
    dryRun: options.dryRun === true,
    // What prints the page (its own output first), within the render budgets, or nothing is written.
    trial: true,
    apply: async (trx) => {
      warnings.length = warned;
      const region = new WriteRegion(trx, site.id);
      const step = await work(trx, now, region);
      const id = step.written.row.id;
      const stubs = step.placed?.stubs ?? [];
      const { before, after, subjects } = await region.trees(
        [id],
        [...(step.written.created ? [id] : []), ...stubs.map((stub) => stub.id)],
      );
      const offline = offlineBetween(addressing, before, after, "it or a parent page left the public site", subjects);
      // Pages that moved leave a redirect behind; an address a page took is freed of one.
      const changes = [
        ...pageChangesBetween(before, after, [id], subjects),
        ...(await recordAddressChanges(trx, site.id, now, { before, after, within: subjects }, addressing)),
      ];
      return { value: { written: step.written, stubs, offline }, wrote: wroteBy(step), changes, room: roomOf(step) };
    },
  });
  const { written, stubs, offline } = done.value;
  warnings.push(...offline);
  if (options.dryRun) {
    const current = written.created ? undefined : await pageById(ctx.db, site.id, written.row.id);
    const [page] = current ? await pageRecords(ctx.db, site, ctx.publicPort, [current]) : [undefined];
    return {
      page: page as PageRecord,
      created: false,
      dry_run: true,
      applied: false,
      rebaked: nothingRebaked(),
      warnings,
    };
  }
  const [page] = await pageRecords(ctx.db, site, ctx.publicPort, [written.row]);
  if (written.slugChanged) {
    warnings.push(
      warning(
        "slug_changed",
        `The slug "${written.slugChanged.from}" is taken here; the page got "${written.slugChanged.to}".`,
        { ...written.slugChanged },
      ),
    );
  }
  if (page.status === "publish" && !page.visible) {
    warnings.push(
      warning(
        "parent_unpublished",
        "The page is published but a parent page is not, so its address answers 404 until every parent is published.",
        { id: page.id },
      ),
    );
  }
  return {
    page,
    created: written.created,
    ...(written.slugChanged ? { slug_changed: written.slugChanged } : {}),
    ...(stubs.length > 0 ? { created_stubs: stubs } : {}),
    rebaked: done.rebaked,
    warnings,
  };
}

/** The pieces every write body shares, read and checked before anything is written. */
async function readChange(ctx: ServiceContext, site: SiteRow, body: Record<string, unknown>, warnings: Warning[]) {
  const title = titleFrom(body.title);
  const slug = slugFrom(body.slug, warnings);
  const status = statusFrom(body.status);
  const content = contentFrom(body.content);
  const fields = fieldsFrom(body.fields);
  const createMissing = booleanFrom(body.create_missing_parents, "create_missing_parents") ?? false;
  const parent = refFrom(body.parent, "parent");
  let url = urlFrom(body.url);
  if (parent !== undefined && url !== undefined) {
    warnings.push(
      warning("url_ignored", "Both parent and url were given; the page was placed by parent.", { field: "url" }),
    );
    url = undefined;
  }
  const state = await languageState(ctx.db, site.id);
  const lang = checkLangIn(state, body.lang);
  const frameId = Object.hasOwn(body, "frame") ? await frameIdFromRef(ctx.db, site.id, body.frame) : undefined;
  const seo = seoPatchFrom(body.seo, warnings);
  const menuOrder = menuOrderFrom(body.menu_order);
  await requireMedia(ctx.db, site.id, seo?.og_image ?? null, "seo.og_image");
  return { title, slug, status, content, fields, createMissing, parent, url, state, lang, frameId, seo, menuOrder };
}

/** The stored columns a write body sets (placement and language are decided by the caller). */
function columnsOf(input: Awaited<ReturnType<typeof readChange>>): PageChange {
  return {
    title: input.title,
    slug: input.slug,
    status: input.status,
    content: input.content,
    fields: input.fields,
    frameId: input.frameId,
    seo: input.seo,
    menuOrder: input.menuOrder,
  };
}

/**
 * POST /pages. With `id`: that page is updated (409 lang_mismatch when `lang` names another
 * language). Without: the page holding the slug (explicit, else from the title) under the same
 * parent in the same language is updated, else a page is created.
 */
export async function publishPage(
  ctx: ServiceContext,
  site: SiteRow,
  body: Record<string, unknown>,
): Promise<PageWriteAnswer> {
  const warnings = inputWarnings(body, PUBLISH_KEYS);
  const id = pageIdFrom(body.id);
  const input = await readChange(ctx, site, body, warnings);
  if (input.title === "") throw fail("title_required", { field: "title" }, "The title is empty.");
  const status = input.status ?? "publish";

  if (id !== undefined) {
    const page = await pageById(ctx.db, site.id, id);
    if (!page) throw fail("page_not_found", { id });
    if (input.lang !== null && input.lang !== page.lang) {
      const partner =
        page.translation_group === null
          ? undefined
          : await ctx.db
              .selectFrom("pages")
              .select("id")
              .where("site_id", "=", site.id)
              .where("translation_group", "=", page.translation_group)
              .where("lang", "=", input.lang)
              .executeTakeFirst();
      throw fail("lang_mismatch", {
        id,
        lang: page.lang || null,
        requested: input.lang,
        ...(partner ? { translation: partner.id } : {}),
      });
    }
    return writeAndAnnounce(ctx, site, warnings, async (trx, now, region) => {
      const current = (await pageById(trx, site.id, id)) ?? page;
      const where = await placement(
        trx,
        site.id,
        input.state,
        current.lang,
        { parent: input.parent, url: input.url },
        input.createMissing,
        now,
      );
      const written = await updatePage(
        trx,
        site.id,
        current,
        { ...columnsOf(input), status, placement: where },
        now,
        warnings,
        region,
      );
      return { written, placed: where };
    });
  }

  if (input.title === undefined && input.slug === undefined) throw fail("title_required", { field: "title" });
  let lang = input.lang;
  if (lang === null && input.parent !== undefined && input.parent !== 0) {
    // A page placed under a parent given by id takes the parent's language unless told otherwise.
    const byId =
      typeof input.parent === "number"
        ? input.parent
        : /^\d{1,15}$/.test(input.parent)
          ? Number(input.parent)
          : undefined;
    const parent = byId === undefined ? undefined : await pageById(ctx.db, site.id, byId);
    if (parent) lang = parent.lang;
  }
  const pageLang = lang ?? (input.state.active ? (input.state.defaultLang ?? "") : "");

  return writeAndAnnounce(ctx, site, warnings, async (trx, now, region) => {
    const where =
      (await placement(
        trx,
        site.id,
        input.state,
        pageLang,
        { parent: input.parent, url: input.url },
        input.createMissing,
        now,
      )) ?? TOP;
    const slug = input.slug?.slug ?? slugFromTitle(input.title ?? "", pageLang);
    const existing = await pageAt(trx, site.id, where.parentId, pageLang, slug);
    if (existing) {
      const written = await updatePage(trx, site.id, existing, { ...columnsOf(input), status }, now, warnings, region);
      return { written, placed: where };
    }
    if (input.title === undefined) throw fail("title_required", { field: "title" });
    const written = await createPage(
      trx,
      site.id,
      pageLang,
      where,
      { ...columnsOf(input), title: input.title, status },
      now,
    );
    return { written, placed: where };
  });
}

/** PATCH /pages/{ref}: any field; `fields` merge (null removes a key); `frame` a ref or null. */
export async function patchPage(
  ctx: ServiceContext,
  site: SiteRow,
  ref: string,
  body: Record<string, unknown>,
  query: { lang?: unknown } = {},
  options: WriteOptions = {},
): Promise<PageWriteAnswer> {
  const warnings = inputWarnings(body, PATCH_KEYS);
  if (!PATCH_KEYS.some((key) => Object.hasOwn(body, key) && key !== "create_missing_parents")) {
    throw fail("nothing_to_update", { allowed: PATCH_KEYS });
  }
  const state = await languageState(ctx.db, site.id);
  const refLang = checkLangIn(state, query.lang);
  const page = await findPageByRef(ctx.db, site.id, ref, { ...(refLang !== null ? { lang: refLang } : {}) });
  const input = await readChange(ctx, site, body, warnings);
  if (input.title === "") throw fail("title_required", { field: "title" }, "The title cannot be emptied.");
  if (body.lang === null || body.lang === "") {
    // Taking a page's language away is allowed only while the site has no languages.
    if (state.active && page.lang !== "")
      throw fail(
        "invalid_field",
        { field: "lang", languages: state.codes },
        "While the site has languages, a page keeps one; name another language.",
      );
  }
  const lang = input.lang ?? (body.lang === null || body.lang === "" ? "" : undefined);

  return writeAndAnnounce(
    ctx,
    site,
    warnings,
    async (trx, now, region) => {
      const current = (await pageById(trx, site.id, page.id)) ?? page;
      const pageLang = lang ?? current.lang;
      const where = await placement(
        trx,
        site.id,
        input.state,
        pageLang,
        { parent: input.parent, url: input.url },
        input.createMissing,
        now,
      );
      const fields = input.fields === undefined ? undefined : mergeFields(fieldsOf(current), input.fields);
      const written = await updatePage(
        trx,
        site.id,
        current,
        { ...columnsOf(input), fields, placement: where, lang },
        now,
        warnings,
        region,
      );
      return { written, placed: where };
    },
    options,
  );
}

/** The page a reference names, for other capabilities (menus, frames assign, settings). */
export { findPageByRef, lookupPage } from "./refs.ts";
export { getPage, listPages, LIST_STATUSES } from "./read-service.ts";
export type { Stub } from "./placement.ts";
