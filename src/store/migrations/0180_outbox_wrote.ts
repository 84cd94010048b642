// What a write wrote, beside what it changed, in its outbox entry (write/pipeline.ts): every write
// states the objects it wrote, and the entry carries them for what reads the outbox next.
import type { Build } from "./build.ts";

export const up: Build = async (db) => {
  await db.schema
    .alterTable("publish_outbox")
    .addColumn("wrote_json", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
};
