// media/<slug>.<ext>: a media file's bytes as stored; media/<slug>.<ext>.json beside it: its file
// name and its alt and title texts per language (`""` on a site without languages). The bytes
// are uploaded with the media feature's own upload (kept as sent, metadata and all, so the
// sha256 stays the bundle's); bytes the site already holds under the slug are not sent again,
// and the blob store keeps each sha256 once whatever the slugs (docs/media.md).
import { createMedia, replaceMedia } from "../../media/upload-service.ts";
import type { UploadBody } from "../../media/upload-body.ts";
import { deleteMedia, patchMedia } from "../../media/write-service.ts";
import { findMedia } from "../../media/queries.ts";
import { parseTexts } from "../../media/texts.ts";
import type { OutEntry } from "../archive-write.ts";
import { memoryEntry } from "../archive-write.ts";
import { jsonEntry } from "../format.ts";
import { isRecord, jsonOf, type BundleKind, type SiteIO } from "./kind.ts";

const FILE = /^media\/([a-z0-9]+(?:-[a-z0-9]+)*)(\.[a-z0-9]+)?$/;
const TEXTS = /^media\/([a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+)?)\.json$/;

function extensionOf(filename: string): string {
  const match = /\.([A-Za-z0-9]+)$/.exec(filename);
  return match ? `.${match[1].toLowerCase()}` : "";
}

const slugOf = (name: string) => name.split(".")[0];

async function mediaRows({ ctx, site }: SiteIO) {
  return ctx.db.selectFrom("media").selectAll().where("site_id", "=", site.id).orderBy("slug").execute();
}

function uploadOf(filename: string, bytes: Buffer): UploadBody {
  return {
    source: {
      filename,
      contentType: null,
      bytes: (async function* () {
        yield bytes;
      })(),
      declaredBytes: bytes.length,
      keepMetadata: true,
    },
    fields: async () => ({}),
    ignored: () => [],
    abandon: () => {},
  };
}

export const media: BundleKind = {
  kind: "media",
  async read(io) {
    return (await mediaRows(io)).map((row) => {
      const name = `${row.slug}${extensionOf(row.filename)}`;
      const entry: OutEntry = {
        path: `media/${name}`,
        sha256: row.sha256,
        size: Number(row.bytes),
        open: async () => {
          const stream = await io.files.blobs.read(row.sha256);
          if (!stream) throw new Error(`the bytes of media ${row.slug} are missing from the store`);
          return stream;
        },
      };
      return { name, entry };
    });
  },
  nameOf(path) {
    const match = FILE.exec(path);
    return match ? `${match[1]}${match[2] ?? ""}` : null;
  },
  async put(io, name, bytes, entries) {
    const texts = entries.get(`media/${name}.json`);
    const given = texts ? jsonOf(texts) : null;
    const filename = isRecord(given) && typeof given.filename === "string" ? given.filename : name;
    const slug = slugOf(name);
    const held = await findMedia(io.ctx.db, io.site.id, slug);
    if (held) {
      await replaceMedia(io.ctx, io.files, io.site, io.userId, String(held.id), uploadOf(filename, bytes));
      return;
    }
    const made = await createMedia(io.ctx, io.files, io.site, io.userId, uploadOf(filename, bytes));
    if (made.media.slug !== slug) await patchMedia(io.ctx, io.site, io.userId, String(made.media.id), { slug });
  },
  async remove(io, name) {
    await deleteMedia(io.ctx, io.files, io.site, slugOf(name), true);
  },
};

/** The texts as the bundle keeps them: a site without languages keys its one text by "". */
export const mediaTexts: BundleKind = {
  kind: "media-texts",
  async read(io) {
    return (await mediaRows(io)).map((row) => {
      const name = `${row.slug}${extensionOf(row.filename)}`;
      const file = { filename: row.filename, alt: parseTexts(row.alt_json), title: parseTexts(row.title_json) };
      return { name, entry: memoryEntry(`media/${name}.json`, jsonEntry(file)) };
    });
  },
  nameOf(path) {
    const match = TEXTS.exec(path);
    return match ? match[1] : null;
  },
  async put(io, name, bytes) {
    const file = jsonOf(bytes);
    const slug = slugOf(name);
    const held = await findMedia(io.ctx.db, io.site.id, slug);
    if (!held || !isRecord(file)) return;
    const body: Record<string, Record<string, string | null>> = {};
    for (const [field, column] of [
      ["alt", held.alt_json],
      ["title", held.title_json],
    ] as const) {
      const want = isRecord(file[field]) ? (file[field] as Record<string, string>) : {};
      const have = parseTexts(column);
      body[field] = { ...Object.fromEntries(Object.keys(have).map((lang) => [lang, null])), ...want };
    }
    if (Object.keys(body.alt).length + Object.keys(body.title).length === 0) return;
    await patchMedia(io.ctx, io.site, io.userId, String(held.id), body);
  },
};
