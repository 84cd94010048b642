// docs/roles.md's table is the route groups of src/http/route-groups.ts, row for row: the table
// the site scope checks every call against (test/http/roles.test.ts calls every route with it).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { NETWORK_ROUTE_GROUPS, SITE_ROUTE_GROUPS, type RouteGroup } from "../../src/http/route-groups.ts";
import { reaches, SITE_ROLES, type SiteRole } from "../../src/site/roles.ts";

/** What a role may do in a group: `read, write`, `read`, `write` or `—`. */
function cell(group: RouteGroup, role: SiteRole): string {
  const may = [
    ...(group.read !== null && reaches(role, group.read) ? ["read"] : []),
    ...(group.write !== null && reaches(role, group.write) ? ["write"] : []),
  ];
  return may.length > 0 ? may.join(", ") : "—";
}

const code = (paths: readonly string[]) => paths.map((path) => `\`${path.replace(/:(\w+)/g, "{$1}")}\``).join(", ");

function expectedRows(): string[] {
  return [
    `| Group | Calls | ${SITE_ROLES.join(" | ")} |`,
    "|---|---|---|---|",
    ...SITE_ROUTE_GROUPS.map(
      (group) =>
        `| ${group.name} | ${code(group.paths)} | ${SITE_ROLES.map((role) => cell(group, role)).join(" | ")} |`,
    ),
    ...NETWORK_ROUTE_GROUPS.map(
      (group) => `| ${group.name} | ${code(group.paths)} | ${group.administrator} | ${group.editor} |`,
    ),
  ];
}

describe("docs/roles.md", () => {
  const doc = readFileSync("docs/roles.md", "utf8");

  it("its one table is the route groups of src/http/route-groups.ts, in order, with each role's cells", () => {
    const tables: string[][] = [];
    let previous = "";
    for (const line of doc.split("\n")) {
      if (line.startsWith("|") && !previous.startsWith("|")) tables.push([]);
      if (line.startsWith("|")) tables.at(-1)!.push(line);
      previous = line;
    }
    assert.equal(tables.length, 1, "one table");
    assert.deepEqual(tables[0], expectedRows());
  });

  it("is linked from the documentation index", () => {
    assert.match(readFileSync("docs/README.md", "utf8"), /\]\(roles\.md\)/);
  });
});
