// Versioned migrations, run at start, one file each under migrations/. SQL stays portable:
// ids come from an auto-increment column whose type is the only dialect-specific part.
// Several processes may start at once on one PostgreSQL database: Kysely's migrator creates its
// own tables race-free and runs the migrations under a session advisory lock (one process
// migrates, the others wait, then find nothing left to do).
import { Migrator, type Migration, type MigrationProvider } from "kysely/migration";
import type { AnyDb, Dialect } from "./database.ts";
import type { Build } from "./migrations/build.ts";
import * as m0001 from "./migrations/0001_foundation.ts";
import * as m0002 from "./migrations/0002_content.ts";
import * as m0010 from "./migrations/0010_frames.ts";
import * as m0020 from "./migrations/0020_menus.ts";
import * as m0030 from "./migrations/0030_rate_limits.ts";
import * as m0040 from "./migrations/0040_invalidation_marks.ts";
import * as m0050 from "./migrations/0050_quotas.ts";
import * as m0060 from "./migrations/0060_media.ts";
import * as m0070 from "./migrations/0070_styles.ts";
import * as m0080 from "./migrations/0080_domains.ts";
import * as m0090 from "./migrations/0090_seo.ts";
import * as m0100 from "./migrations/0100_sidebars.ts";
import * as m0110 from "./migrations/0110_strings.ts";
import * as m0120 from "./migrations/0120_revisions.ts";
import * as m0130 from "./migrations/0130_preview_links.ts";
import * as m0140 from "./migrations/0140_counted_history.ts";
import * as m0150 from "./migrations/0150_counted_style_copies.ts";
import * as m0160 from "./migrations/0160_media_variants.ts";
import * as m0170 from "./migrations/0170_publish_outbox.ts";
import * as m0180 from "./migrations/0180_outbox_wrote.ts";
import * as m0190 from "./migrations/0190_iframe_hosts.ts";
import * as m0200 from "./migrations/0200_sessions.ts";
import * as m0210 from "./migrations/0210_events.ts";
import * as m0220 from "./migrations/0220_webhooks.ts";
import * as m0230 from "./migrations/0230_page_content.ts";
import * as m0240 from "./migrations/0240_markdown.ts";
import * as m0250 from "./migrations/0250_seo_languages.ts";
import * as m0260 from "./migrations/0260_menu_locations.ts";
import * as m0270 from "./migrations/0270_page_feed.ts";
import * as m0280 from "./migrations/0280_counted_tags.ts";
import * as m0290 from "./migrations/0290_read_only_tokens.ts";
import * as m0300 from "./migrations/0300_search.ts";
import * as m0310 from "./migrations/0310_forms.ts";
import * as m0350 from "./migrations/0350_domain_https.ts";
import * as m0360 from "./migrations/0360_page_atom_key.ts";

/** In order; a name once released never changes. */
const MIGRATIONS: Array<[string, Build]> = [
  ["0001_foundation", m0001.up],
  ["0002_content", m0002.up],
  ["0010_frames", m0010.up],
  ["0020_menus", m0020.up],
  ["0030_rate_limits", m0030.up],
  ["0040_invalidation_marks", m0040.up],
  ["0050_quotas", m0050.up],
  ["0060_media", m0060.up],
  ["0070_styles", m0070.up],
  ["0080_domains", m0080.up],
  ["0090_seo", m0090.up],
  ["0100_sidebars", m0100.up],
  ["0110_strings", m0110.up],
  ["0120_revisions", m0120.up],
  ["0130_preview_links", m0130.up],
  ["0140_counted_history", m0140.up],
  ["0150_counted_style_copies", m0150.up],
  ["0160_media_variants", m0160.up],
  ["0170_publish_outbox", m0170.up],
  ["0180_outbox_wrote", m0180.up],
  ["0190_iframe_hosts", m0190.up],
  ["0200_sessions", m0200.up],
  ["0210_events", m0210.up],
  ["0220_webhooks", m0220.up],
  ["0230_page_content", m0230.up],
  ["0240_markdown", m0240.up],
  ["0250_seo_languages", m0250.up],
  ["0260_menu_locations", m0260.up],
  ["0270_page_feed", m0270.up],
  ["0280_counted_tags", m0280.up],
  ["0290_read_only_tokens", m0290.up],
  ["0300_search", m0300.up],
  ["0310_forms", m0310.up],
  ["0350_domain_https", m0350.up],
  ["0360_page_atom_key", m0360.up],
];

export async function migrate(db: AnyDb, dialect: Dialect): Promise<void> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, build] of MIGRATIONS) out[name] = { up: (trx) => build(trx, dialect) };
      return out;
    },
  };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
