// `tokens.read_only` (docs/security.md, "Read-only tokens"): 1 for a token that reads only, refused
// every write (403 read_only_token) and offered only the reading MCP tools (docs/mcp.md); 0, every
// token before, for a token that acts with its user's full role.
import type { Build } from "./build.ts";

export const up: Build = async (db) => {
  await db.schema
    .alterTable("tokens")
    .addColumn("read_only", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
};
