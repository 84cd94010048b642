// styles/<theme>/<name>.css: every theme's stylesheets as uploaded, written back with PUT's own
// service (docs/styles.md), so each is checked and bundled as an upload is.
import { deleteStyle, putStyle } from "../../styles/write-service.ts";
import { memoryEntry } from "../archive-write.ts";
import type { BundleKind } from "./kind.ts";

const PATH = /^styles\/([A-Za-z0-9][A-Za-z0-9_.-]{0,99})\/([a-z0-9][a-z0-9_-]*)\.css$/;

function split(name: string): { theme: string; sheet: string } {
  const slash = name.indexOf("/");
  return { theme: name.slice(0, slash), sheet: name.slice(slash + 1) };
}

export const styles: BundleKind = {
  kind: "styles",
  async read({ ctx, site }) {
    const rows = await ctx.db
      .selectFrom("styles")
      .select(["theme", "name", "css"])
      .where("site_id", "=", site.id)
      .orderBy("theme")
      .orderBy("name")
      .execute();
    return rows.map((row) => ({
      name: `${row.theme}/${row.name}`,
      entry: memoryEntry(`styles/${row.theme}/${row.name}.css`, Buffer.from(row.css)),
    }));
  },
  nameOf(path) {
    const match = PATH.exec(path);
    return match ? `${match[1]}/${match[2]}` : null;
  },
  async put({ ctx, site }, name, bytes) {
    const { theme, sheet } = split(name);
    await putStyle(ctx, site, sheet, { css: bytes.toString("utf8"), theme }, false);
  },
  async remove({ ctx, site }, name) {
    const { theme, sheet } = split(name);
    await deleteStyle(ctx, site, sheet, { theme, force: "true" });
  },
};
