// Preloaded into a service process by bench/profile-scale.ts (`node --import ./bench/sql-trace.mjs
// dist/main.js`): times every better-sqlite3 statement the process runs and counts the rows it
// reads, by SQL text. SIGUSR2 starts the count afresh (after start-up and warm-up); on exit the
// counts are written to $SQL_TRACE_FILE as JSON `{sql: {calls, ms, rows}}`.
import { createRequire } from "node:module";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const require = createRequire(join(process.cwd(), "package.json"));
const Database = require("better-sqlite3");
const probe = new Database(":memory:");
const proto = Object.getPrototypeOf(probe.prepare("select 1"));
probe.close();

let stats = new Map();
const count = (sql, ms, rows) => {
  let entry = stats.get(sql);
  if (!entry) {
    entry = { calls: 0, ms: 0, rows: 0 };
    stats.set(sql, entry);
  }
  entry.calls++;
  entry.ms += ms;
  entry.rows += rows;
};

for (const method of ["all", "get", "run", "iterate"]) {
  const original = proto[method];
  proto[method] = function (...args) {
    const t0 = performance.now();
    const out = original.apply(this, args);
    if (method === "iterate") {
      // Rows of an iterator are read later; count the statement only.
      count(this.source, performance.now() - t0, 0);
      return out;
    }
    count(
      this.source,
      performance.now() - t0,
      method === "all" ? out.length : method === "get" ? (out === undefined ? 0 : 1) : 0,
    );
    return out;
  };
}

process.on("SIGUSR2", () => {
  stats = new Map();
});
process.on("exit", () => {
  if (process.env.SQL_TRACE_FILE) writeFileSync(process.env.SQL_TRACE_FILE, JSON.stringify(Object.fromEntries(stats)));
});
