// Versioned migrations, run at start. SQL stays portable: ids come from an
// auto-increment column whose type is the only dialect-specific part.
import type { Kysely } from "kysely";
import { Migrator, type Migration, type MigrationProvider } from "kysely/migration";
import type { Dialect } from "./database.ts";

type Build = (db: Kysely<any>, dialect: Dialect) => Promise<void>;

/** `integer primary key autoincrement` on SQLite, `serial primary key` on PostgreSQL. */
export function idType(dialect: Dialect) {
  return dialect === "postgres" ? "serial" : "integer";
}

const foundation: Build = async (db, dialect) => {
  await db.schema
    .createTable("sites")
    .addColumn("id", idType(dialect), (c) => (dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("domain", "text", (c) => c.notNull().unique())
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("users")
    .addColumn("id", idType(dialect), (c) => (dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("login", "text", (c) => c.notNull().unique())
    .addColumn("email", "text")
    .addColumn("password_hash", "text")
    .addColumn("super_admin", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("memberships")
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("memberships_pk", ["site_id", "user_id"])
    .execute();

  await db.schema
    .createTable("tokens")
    .addColumn("id", idType(dialect), (c) => (dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("label", "text")
    .addColumn("hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addColumn("last_issued_at_gmt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("tokens_user").on("tokens").column("user_id").execute();
};

/** In order; a name once released never changes. */
const MIGRATIONS: Array<[string, Build]> = [["0001_foundation", foundation]];

export async function migrate(db: Kysely<any>, dialect: Dialect): Promise<void> {
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
