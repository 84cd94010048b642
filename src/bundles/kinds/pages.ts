// pages/<lang>/<path>.json (pages/_/… without a language): what an author writes of a page —
// title, status, date, when it was made and last modified, frame (its slug), order, tags, feed,
// format, SEO, fields, content as stored — and its translations by reference. Written with POST
// /pages's own upsert (placed by slug under its parent in its language), so a draft stays a draft
// and a date is kept; translations are linked once every page is written, and then each page is
// given back the times it was made and last modified.
import { deletePage } from "../../pages/delete-service.ts";
import { pageRecords } from "../../pages/record.ts";
import { publishPage } from "../../pages/publish-service.ts";
import { linkTranslation } from "../../pages/translations.ts";
import { keepTimes, type PageTimes } from "../../pages/kept-times.ts";
import { isoDate } from "../../pages/post-fields.ts";
import { ATOM_KEY, atomKeyOf } from "../../seo/feed.ts";
import { jsonEntry } from "../format.ts";
import { memoryEntry } from "../archive-write.ts";
import { refOrId, type PageNames } from "../page-names.ts";
import { isRecord, jsonOf, type BundleKind, type Reference } from "./kind.ts";

const NO_LANG = "_";
const PATH = /^pages\/([a-z]{2}(?:-[a-z]{2})?|_)((?:\/[a-z0-9]+(?:-[a-z0-9]+)*)+)\.json$/;

interface PageFile {
  title: string;
  status: string;
  date: string | null;
  /** When it was made and last modified (absent from bundles written before they were kept). */
  created?: string;
  modified?: string;
  /** What its Atom ids are made of (seo/feed.ts `atomKeyOf`; absent from bundles written before it was kept). */
  atom_key?: string;
  frame: string | null;
  menu_order: number;
  tags: string[];
  feed: boolean;
  content_format: string;
  translations: Record<string, string>;
  seo: Record<string, unknown>;
  fields: Record<string, unknown>;
  content: string;
}

/** The page a plan name (`<lang>:<path>`) stands for. */
function placeOf(name: string): { lang: string | null; path: string } {
  const colon = name.indexOf(":");
  const lang = name.slice(0, colon);
  return { lang: lang === NO_LANG ? null : lang, path: name.slice(colon + 1) };
}

function fileOf(bytes: Buffer): PageFile {
  const value = jsonOf(bytes);
  if (!isRecord(value) || typeof value.title !== "string") throw new Error("a page entry is an object with a title");
  return value as unknown as PageFile;
}

function parentOf(path: string): string | null {
  const cut = path.lastIndexOf("/");
  return cut <= 0 ? null : path.slice(0, cut);
}

function refIn(names: PageNames, lang: string | null, path: string): string {
  return names.refOf({ lang, path });
}

export const pages: BundleKind = {
  kind: "pages",
  async read({ ctx, site, pages: names }) {
    const rows = await ctx.db
      .selectFrom("pages")
      .selectAll()
      .where("site_id", "=", site.id)
      .where("status", "!=", "trash")
      // In the order the site made them: an import makes them in the bundle's order.
      .orderBy("id")
      .execute();
    const records = await pageRecords(ctx.db, site, ctx.publicFront, rows);
    const rowOf = new Map(rows.map((row) => [row.id, row]));
    return records.map((page) => {
      const translations: Record<string, string> = {};
      for (const [lang, id] of Object.entries(page.translations).sort(([a], [b]) => (a < b ? -1 : 1)))
        if (lang !== page.lang && id !== page.id) translations[lang] = String(refOrId(names, id));
      const file: PageFile = {
        title: page.title,
        status: page.status,
        date: page.date,
        created: isoDate(page.created_at_gmt) ?? undefined,
        modified: isoDate(page.updated_at_gmt) ?? undefined,
        atom_key: atomKeyOf(site, rowOf.get(page.id)!),
        frame: page.frame,
        menu_order: page.menu_order,
        tags: page.tags,
        feed: page.feed,
        content_format: page.content_format,
        translations,
        seo: page.seo as unknown as Record<string, unknown>,
        fields: page.fields,
        content: page.content,
      };
      const lang = page.lang ?? NO_LANG;
      return { name: `${lang}:${page.path}`, entry: memoryEntry(`pages/${lang}${page.path}.json`, jsonEntry(file)) };
    });
  },
  nameOf(path) {
    const match = PATH.exec(path);
    return match ? `${match[1]}:${match[2]}` : null;
  },
  references(name, bytes) {
    const { lang, path } = placeOf(name);
    const file = fileOf(bytes);
    const out: Reference[] = [];
    if (file.frame) out.push({ kind: "frames", name: file.frame });
    const parent = parentOf(path);
    if (parent !== null) out.push({ kind: "pages", name: `${lang ?? NO_LANG}:${parent}` });
    return out;
  },
  async put({ ctx, site }, name, bytes) {
    const { lang, path } = placeOf(name);
    const file = fileOf(bytes);
    const parent = parentOf(path);
    await publishPage(
      ctx,
      site,
      {
        title: file.title,
        slug: path.slice(path.lastIndexOf("/") + 1),
        parent: parent ?? 0,
        ...(lang === null ? {} : { lang }),
        status: file.status,
        ...(file.date === null ? {} : { date: file.date }),
        frame: file.frame,
        menu_order: file.menu_order,
        tags: file.tags,
        feed: file.feed,
        content_format: file.content_format,
        seo: file.seo,
        fields: file.fields,
        content: file.content,
      },
      "raw",
    );
  },
  async remove(io, name) {
    const { lang, path } = placeOf(name);
    const page = io.pages.byRef.get(refIn(io.pages, lang, path));
    if (page) await deletePage(io.ctx, io.site, String(page.id), { force: true });
  },
  async finish(io, written) {
    const times: PageTimes[] = [];
    for (const { name, bytes } of written) {
      const { lang, path } = placeOf(name);
      const page = io.pages.byRef.get(refIn(io.pages, lang, path));
      if (!page) continue;
      const file = fileOf(bytes);
      const { created, modified, atom_key: atomKey } = file;
      if ([created, modified].every((at) => typeof at === "string" && !Number.isNaN(Date.parse(at))))
        times.push({
          id: page.id,
          created: created!,
          modified: modified!,
          // One not of the key's form is left out: the page's ids are then made of it as it is here.
          ...(typeof atomKey === "string" && ATOM_KEY.test(atomKey) ? { atomKey } : {}),
        });
      for (const [other, ref] of Object.entries(file.translations)) {
        const partner = io.pages.byRef.get(ref);
        if (!partner || partner.lang !== other) continue;
        const group = await io.ctx.db
          .selectFrom("pages")
          .select(["id", "translation_group"])
          .where("id", "in", [page.id, partner.id])
          .execute();
        const [a, b] = group;
        if (a && b && a.translation_group !== null && a.translation_group === b.translation_group) continue;
        await linkTranslation(io.ctx, io.site, { page: page.id, lang: other, translation: partner.id }, "raw");
      }
    }
    // Last, after the writes above that stamp their pages with the time of the import.
    await keepTimes(io.ctx, io.site, times);
  },
};
