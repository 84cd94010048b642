// What a page write stores of its content (docs/content-model.md, "Markdown"): the text, what it
// is written in (`content_format`) and whose it is (`content_trust`), and for Markdown the
// references it makes (`page_refs`).
//
// HTML content is stored through the write's gate (an editor's sanitised, authored-html.ts); a
// Markdown source is stored as written, and its trust says how its raw HTML is printed. The
// trust is `raw` only while an administrator wrote the text: an editor's write of the text or
// of the format makes it `sanitized`, and an administrator's write of the format alone keeps it.
// A source an editor wrote becoming HTML (the format alone changed to `html`) is sanitised then,
// whoever changes it, since HTML is printed as stored.
import { warning, type Warning } from "../warnings.ts";
import { markdown } from "../markup/markdown.ts";
import type { MarkupTrust } from "../site/roles.ts";
import type { Db } from "../store/database.ts";
import type { PageRow } from "../store/schema.ts";
import { contentGate, type ContentGate } from "./authored-html.ts";
import { contentFormatFrom, contentFrom, type ContentFormat } from "./input.ts";
import { candidateOf, lookupPage } from "./refs.ts";
import { mediaNamed } from "./seo.ts";

/** What a write body says of the content, read before the write's transaction (`readContent`). */
export interface ContentInput {
  /** The text as written; undefined: not given. */
  text?: string;
  format?: ContentFormat;
  trust: MarkupTrust;
  gate: ContentGate;
  /** What the gate warns of, until a write takes it. */
  said: Warning[];
  /** The field warnings name (`content`; `page_fields.content` in a preview). */
  field: string;
  /** The text through the gate as HTML, made before the transaction (most content is HTML), with its warnings. */
  html?: { text: string; warnings: Warning[] };
}

/** The content columns a write sets (absent: kept). */
export interface ContentColumns {
  content?: string;
  content_format?: ContentFormat;
  content_trust?: MarkupTrust;
}

type Stored = Pick<PageRow, "site_id" | "content" | "content_format" | "content_trust">;

/** The format a stored row is in: `html` unless it says `markdown`. */
export function formatOf(row: Pick<PageRow, "content_format">): ContentFormat {
  return row.content_format === "markdown" ? "markdown" : "html";
}

/** A stored trust as a trust: `raw` only when it says so. */
export function trustOf(row: Pick<PageRow, "content_trust">): MarkupTrust {
  return row.content_trust === "raw" ? "raw" : "sanitized";
}

/** `content` and `content_format` of a write body, checked; undefined when it gives neither. */
export async function readContent(
  db: Db,
  siteId: number,
  body: Record<string, unknown>,
  trust: MarkupTrust,
  field = "content",
): Promise<ContentInput | undefined> {
  const text = contentFrom(body.content);
  const format = contentFormatFrom(body.content_format);
  if (text === undefined && format === undefined) return undefined;
  const said: Warning[] = [];
  const gate = await contentGate(db, siteId, trust, said);
  const input: ContentInput = { text, format, trust, gate, said, field };
  if (text !== undefined && format !== "markdown")
    input.html = { text: contentFrom(gate.html(text, field))!, warnings: said.splice(0) };
  return input;
}

/**
 * The columns `input` sets on a page standing as `current` (null: a page being made). `db` is
 * the write's transaction; what the gate warns of goes into `warnings`.
 */
export async function contentColumns(
  db: Db,
  input: ContentInput | undefined,
  current: Stored | null,
  warnings: Warning[],
): Promise<ContentColumns> {
  if (!input) return {};
  const before = current ? formatOf(current) : "html";
  const format = input.format ?? before;
  const checked = (source: string) => {
    input.gate.markdown(source, input.field);
    warnings.push(...input.said.splice(0));
  };
  if (input.text !== undefined && format === "markdown") {
    checked(input.text);
    return { content: input.text, content_format: format, content_trust: input.trust };
  }
  // HTML text went through the gate before the transaction (readContent).
  if (input.html) {
    warnings.push(...input.html.warnings);
    return { content: input.html.text, content_format: format, content_trust: input.trust };
  }
  if (!current) return { content_format: format, content_trust: input.trust };
  if (format === before) return {};
  const trust = input.trust === "raw" ? trustOf(current) : "sanitized";
  if (format === "markdown") {
    checked(current.content);
    return { content_format: format, content_trust: trust };
  }
  // The source becomes HTML, printed as stored: an editor's is sanitised now, whoever changes it.
  if (trustOf(current) === "raw") return { content_format: format, content_trust: trust };
  const gate = await contentGate(db, current.site_id, "sanitized", warnings);
  return {
    content: contentFrom(gate.html(current.content, input.field))!,
    content_format: format,
    content_trust: trust,
  };
}

/** The page a reference names in `lang` first, then in any language, as menu items resolve theirs. */
async function targetOf(db: Db, siteId: number, ref: string, lang: string) {
  const inLang = await lookupPage(db, siteId, ref, { lang });
  return "missing" in inLang ? lookupPage(db, siteId, ref) : inLang;
}

/**
 * Records the references of a page's content as it now stands (none for HTML), each page
 * reference with the page it names now: `unknown_page_ref` for one that names none or several
 * (it prints as text), `unknown_media_ref` for a file the site does not have (it prints nothing
 * until there is one).
 */
export async function writeContentRefs(
  trx: Db,
  row: Pick<PageRow, "id" | "site_id" | "lang" | "content" | "content_format">,
  warnings: Warning[],
): Promise<void> {
  await trx.deleteFrom("page_refs").where("page_id", "=", row.id).execute();
  if (formatOf(row) !== "markdown") return;
  const refs = (await markdown()).refs(row.content);
  const rows: Array<{
    site_id: number;
    page_id: number;
    kind: "page" | "media";
    ref: string;
    target_id: number | null;
  }> = [];
  for (const ref of refs.pages) {
    const found = await targetOf(trx, row.site_id, ref, row.lang);
    if (!("found" in found)) {
      const candidates = "candidates" in found ? { candidates: found.candidates.map(candidateOf) } : {};
      const why = "candidates" in found ? "names several pages; use the id or the full path" : "names no page";
      warnings.push(
        warning("unknown_page_ref", `page:${ref} ${why}: its link prints as text.`, {
          field: "content",
          ref,
          ...candidates,
        }),
      );
    }
    rows.push({
      site_id: row.site_id,
      page_id: row.id,
      kind: "page",
      ref,
      target_id: "found" in found ? found.found.id : null,
    });
  }
  for (const ref of refs.media) {
    if (!(await mediaNamed(trx, row.site_id, ref)))
      warnings.push(
        warning(
          "unknown_media_ref",
          `media:${ref} names no file of the site: it prints nothing until one has that name.`,
          {
            field: "content",
            ref,
          },
        ),
      );
    rows.push({ site_id: row.site_id, page_id: row.id, kind: "media", ref, target_id: null });
  }
  for (let at = 0; at < rows.length; at += 200)
    await trx
      .insertInto("page_refs")
      .values(rows.slice(at, at + 200))
      .execute();
}

/** Whether a reference as written could name this page (its id, its slug, or a path ending in its slug). */
function couldName(ref: string, page: Pick<PageRow, "id" | "slug">): boolean {
  const value = ref.trim().toLowerCase().replace(/\/+$/, "");
  return value === String(page.id) || value === page.slug || value.endsWith(`/${page.slug}`);
}

/**
 * The `page:` references that named no page when written and name `page` now (a page made,
 * renamed, moved or brought back): from now on they point to it, as if written after it, so the
 * linking pages print the link (the effects reach them through the page's change, effect-facts.ts).
 * Only the site's waiting references are read, and only those that could name the page are looked up.
 */
export async function claimWaitingRefs(trx: Db, page: Pick<PageRow, "id" | "site_id" | "slug">): Promise<void> {
  const waiting = await trx
    .selectFrom("page_refs as r")
    .innerJoin("pages as p", "p.id", "r.page_id")
    .select(["r.page_id", "r.ref", "p.lang"])
    .where("r.site_id", "=", page.site_id)
    .where("r.kind", "=", "page")
    .where("r.target_id", "is", null)
    .execute();
  for (const ref of waiting.filter((w) => couldName(w.ref, page))) {
    const found = await targetOf(trx, page.site_id, ref.ref, ref.lang);
    if (!("found" in found) || found.found.id !== page.id) continue;
    await trx
      .updateTable("page_refs")
      .set({ target_id: page.id })
      .where("page_id", "=", ref.page_id)
      .where("kind", "=", "page")
      .where("ref", "=", ref.ref)
      .execute();
  }
}

/** The page each `page:` reference of a page's content named when it was written (null: none). */
export async function pageRefTargets(db: Db, siteId: number, pageId: number): Promise<Map<string, number | null>> {
  const rows = await db
    .selectFrom("page_refs")
    .select(["ref", "target_id"])
    .where("site_id", "=", siteId)
    .where("page_id", "=", pageId)
    .where("kind", "=", "page")
    .execute();
  return new Map(rows.map((row) => [row.ref, row.target_id]));
}

/** The pages whose Markdown links to one of these pages, or names one of these media refs. */
export async function pagesReferring(
  db: Db,
  siteId: number,
  pageIds: readonly number[],
  mediaRefs: readonly string[],
): Promise<number[]> {
  const out = new Set<number>();
  const refs = db.selectFrom("page_refs").select("page_id").where("site_id", "=", siteId);
  for (let at = 0; at < pageIds.length; at += 500) {
    const ids = pageIds.slice(at, at + 500);
    for (const row of await refs.where("kind", "=", "page").where("target_id", "in", ids).execute())
      out.add(row.page_id);
  }
  for (let at = 0; at < mediaRefs.length; at += 500) {
    const names = mediaRefs.slice(at, at + 500);
    for (const row of await refs.where("kind", "=", "media").where("ref", "in", names).execute()) out.add(row.page_id);
  }
  return [...out].sort((a, b) => a - b);
}
