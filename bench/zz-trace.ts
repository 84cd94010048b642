import { readFileSync } from "node:fs";
import { ADMIN_TOKEN, load, startService } from "./lib.ts";
async function main() {
  const s = await startService("/tmp/notes/listdb", { SQL_TRACE_FILE: "/tmp/notes/list-sql.json" }, ["--import", "./bench/sql-trace.mjs"]);
  const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const r = await load(`http://127.0.0.1:${s.port}/api/site/1/pages?per_page=100`, { connections: 8, duration: 3, headers });
  console.log(r.rps, r.requests);
  await s.stop();
  const stats = JSON.parse(readFileSync("/tmp/notes/list-sql.json", "utf8"));
  const rows = Object.entries(stats as Record<string, any>).sort((a, b) => b[1].ms - a[1].ms).slice(0, 12);
  for (const [sql, e] of rows) console.log(e.ms.toFixed(0).padStart(6), "ms", String(e.calls).padStart(6), "calls", String(e.rows).padStart(8), "rows", sql.slice(0, 160));
}
main();
