// frames/<slug>.html: a frame's markup byte for byte as stored, written back with the frames
// feature's own create and replace (docs/frames.md).
import { deleteFrame } from "../../frames/delete-service.ts";
import { frameBySlug } from "../../frames/queries.ts";
import { createFrame, replaceFrame } from "../../frames/write-service.ts";
import { unbindFrame } from "../../pages/frame-unbinding.ts";
import { memoryEntry } from "../archive-write.ts";
import { stemIn, type BundleKind } from "./kind.ts";

export const frames: BundleKind = {
  kind: "frames",
  async read({ ctx, site }) {
    const rows = await ctx.db
      .selectFrom("frames")
      .select(["slug", "html"])
      .where("site_id", "=", site.id)
      .orderBy("slug")
      .execute();
    return rows.map((row) => ({
      name: row.slug,
      entry: memoryEntry(`frames/${row.slug}.html`, Buffer.from(row.html)),
    }));
  },
  nameOf: (path) => stemIn(path, "frames", ".html"),
  async put({ ctx, site, userId }, slug, bytes) {
    const html = bytes.toString("utf8");
    if (await frameBySlug(ctx.db, site.id, slug)) await replaceFrame(ctx, site.id, userId, slug, { html }, undefined);
    else await createFrame(ctx, site.id, userId, { slug, html });
  },
  async remove({ ctx, site }, slug) {
    await deleteFrame(ctx, unbindFrame(site, ctx.publicFront), site.id, slug, {}, undefined);
  },
};
