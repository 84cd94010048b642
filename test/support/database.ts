// Where a test's service keeps its data. With TEST_DATABASE_URL (npm run test:pg) every test app
// or process gets a database of its own, created on that server and dropped afterwards;
// without it, a SQLite file in the test's temporary folder (databaseUrl null).
import { randomBytes } from "node:crypto";
import pg from "pg";

export interface TestDatabase {
  url: string | null;
  drop(): Promise<void>;
}

export const testServerUrl = process.env.TEST_DATABASE_URL?.trim() || null;

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testServerUrl! });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function freshDatabase(): Promise<TestDatabase> {
  if (!testServerUrl) return { url: null, async drop() {} };
  const name = `svc_test_${randomBytes(6).toString("hex")}`;
  await admin((client) => client.query(`create database ${name}`));
  return {
    url: withDatabase(testServerUrl, name),
    async drop() {
      await admin((client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}
