// redirects.json: the site's redirects `[{from, to, status}]` by address, automatic ones too.
// Written one by one with the SEO feature's own call (each replaces the redirect at its address);
// with replace, those at addresses the bundle lacks are deleted.
import { ServiceError } from "../../errors.ts";
import { listRedirects } from "../../redirects/redirects.ts";
import { createRedirect, removeRedirect, type CreateRedirectBody } from "../../seo/redirect-service.ts";
import { memoryEntry } from "../archive-write.ts";
import { jsonEntry } from "../format.ts";
import { jsonOf, type BundleKind } from "./kind.ts";

interface Row {
  from: string;
  to: string;
  status: number;
}

export const redirects: BundleKind = {
  kind: "redirects",
  nameOf: (path) => (path === "redirects.json" ? "redirects" : null),
  async read({ ctx, site }) {
    const rows = (await listRedirects(ctx.db, site.id))
      .map(({ from, to, status }) => ({ from, to, status }))
      .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
    if (rows.length === 0) return [];
    return [{ name: "redirects", entry: memoryEntry("redirects.json", jsonEntry(rows)) }];
  },
  async put({ ctx, site }, _name, bytes, _entries, { replace }) {
    const wanted = jsonOf(bytes) as Row[];
    const have = new Map((await listRedirects(ctx.db, site.id)).map((row) => [row.from, row]));
    let refused: ServiceError | null = null;
    for (const row of wanted) {
      const held = have.get(row.from);
      if (held && held.to === row.to && held.status === row.status) continue;
      try {
        await createRedirect(ctx, site, row as CreateRedirectBody);
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        refused ??= error;
      }
    }
    if (replace) {
      const keep = new Set(wanted.map((row) => row.from));
      for (const row of have.values()) if (!keep.has(row.from)) await removeRedirect(ctx, site, String(row.id));
    }
    if (refused) throw refused;
  },
  async remove(io, name) {
    await this.put(io, name, Buffer.from("[]"), new Map(), { replace: true });
  },
};
