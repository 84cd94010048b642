// The tools outside the groups' reads and writes (docs/mcp.md): site_overview, always offered,
// and delete, its own group. A site the token may not use answers as the API does: 404
// site_not_found, for one that does not exist too.
import { REVISION_KINDS } from "../revisions/revisions.ts";
import { succeeded } from "./answers.ts";
import { leastOf, REF, segment, type Rest, type RestAnswer, type Tool } from "./tool.ts";

/** What the overview reads of each site, by the name it answers it under. */
const SITE_READS: Array<[name: string, path: string]> = [
  ["settings", "/settings"],
  ["languages", "/languages"],
  ["usage", "/usage"],
  ["menus", "/menus"],
];

/** A read's answer without what the overview says once (success, site_id, warnings). */
function fieldsOf({ success: _, site_id: __, warnings: ___, ...fields }: Record<string, unknown>) {
  return fields;
}

/** The sites the caller holds a role on (GET /api/sites), as many as one page holds. */
export function callerSites(rest: Rest): Promise<RestAnswer> {
  return rest({ method: "GET", path: "/api/sites", query: { per_page: 500 } });
}

/**
 * site_overview: the caller's sites (or the one named), each with its settings, languages, use of
 * its quotas and menus with their locations: only what the caller's own REST reads answer.
 */
const siteOverview: Tool["run"] = async ({ rest }, input) => {
  const listed = await callerSites(rest);
  if (!succeeded(listed)) return listed;
  let sites = listed.body.sites as Array<{ id: number }>;
  if (input.site_id !== undefined) {
    sites = sites.filter((site) => site.id === input.site_id);
    if (sites.length === 0) return rest({ method: "GET", path: `/api/sites/${segment(input.site_id)}` });
  }
  const overview = [];
  for (const site of sites) {
    const entry: Record<string, unknown> = { site };
    for (const [name, path] of SITE_READS) {
      const answer = await rest({ method: "GET", path: `/api/site/${site.id}${path}` });
      entry[name] = fieldsOf(answer.body);
    }
    overview.push(entry);
  }
  return { status: 200, headers: {}, body: { success: true, total: listed.body.total, sites: overview } };
};

const DELETE_KINDS = [...REVISION_KINDS, "media"];

export const SITE_TOOLS: Tool[] = [
  {
    name: "site_overview",
    group: null,
    writes: false,
    least: "editor",
    site: false,
    description:
      "The sites this token reaches (or the one of site_id) with settings, languages, counts and menus with locations. Start here.",
    input: { own: { site_id: { type: "integer", description: "only this site" } } },
    run: siteOverview,
  },
  {
    name: "delete",
    group: "delete",
    writes: true,
    least: leastOf("DELETE", "/pages/:ref"),
    description:
      "Delete a frame, page, menu, data set, stylesheet, sidebar or media file. Without confirm: true nothing is deleted and the answer is the dry run naming what would go.",
    input: {
      own: {
        kind: { type: "string", enum: DELETE_KINDS },
        ref: { ...REF, description: "id, slug or name" },
        confirm: { type: "boolean", description: "true: delete; else only the dry run" },
      },
      required: ["kind", "ref"],
    },
    run: ({ rest }, input) =>
      rest({
        method: "DELETE",
        path: `/${segment(input.kind)}/${segment(input.ref)}`,
        query: input.confirm === true ? {} : { dry_run: 1 },
      }),
  },
];
