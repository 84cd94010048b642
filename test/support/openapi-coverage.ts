// Sums up what the suite's answer checks reached (test/support/openapi-check.ts): run the tests
// with SVC_OPENAPI_COVERAGE=<dir>, then `node --import tsx test/support/openapi-coverage.ts <dir>`
// prints each operation of the document with the statuses checked, and lists the operations no
// answer reached (exit 1 when there are any).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openApiDocument } from "../../scripts/openapi-document.ts";

const dir = process.argv[2];
if (!dir) {
  process.stderr.write("usage: openapi-coverage.ts <dir written by SVC_OPENAPI_COVERAGE>\n");
  process.exit(2);
}
const checked = new Map<string, Set<string>>();
for (const name of readdirSync(dir).filter((file) => file.endsWith(".json"))) {
  for (const entry of JSON.parse(readFileSync(join(dir, name), "utf8")) as string[]) {
    const [operation, status] = entry.split(" ");
    checked.set(operation, (checked.get(operation) ?? new Set()).add(status));
  }
}
const doc = (await openApiDocument()) as { paths: Record<string, Record<string, { operationId?: string }>> };
const missing: string[] = [];
for (const [path, item] of Object.entries(doc.paths)) {
  for (const [method, operation] of Object.entries(item)) {
    const id = operation.operationId ?? `${method} ${path}`;
    const statuses = checked.get(id);
    if (!statuses) missing.push(`${id} (${method.toUpperCase()} ${path})`);
    else process.stdout.write(`${id}: ${[...statuses].sort().join(", ")}\n`);
  }
}
process.stdout.write(
  `\n${missing.length} operation(s) no checked answer reached${missing.length ? `:\n  ${missing.join("\n  ")}` : ""}\n`,
);
process.exitCode = missing.length > 0 ? 1 : 0;
