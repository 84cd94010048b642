// The host names an editor's `<iframe src>` may name (setting `iframe_hosts`, docs/roles.md): a
// JSON array of strings; null while none was set (no host: every iframe an editor writes goes).
import type { Build } from "./build.ts";

export const up: Build = async (db) => {
  await db.schema.alterTable("site_settings").addColumn("iframe_hosts_json", "text").execute();
};
