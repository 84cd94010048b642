// The revisions group (docs/mcp.md): an object's revisions or the site's recent changes, and a
// restore (docs/revisions.md). A restore is a write through the kind's own write service.
import { REVISION_KINDS } from "../revisions/revisions.ts";
import { leastOf, queryOf, REF, segment, type JsonSchema, type Tool } from "./tool.ts";

const KIND: JsonSchema = { type: "string", enum: [...REVISION_KINDS] };
const objectPath = (input: Record<string, unknown>) => `/${segment(input.kind)}/${segment(input.ref)}`;

export const REVISION_TOOLS: Tool[] = [
  {
    name: "list_revisions",
    group: "revisions",
    writes: false,
    least: leastOf("GET", "/revisions"),
    description: "The revisions of one object (kind and ref), newest first; without them, the site's recent changes.",
    input: { query: ["get", "/revisions"], own: { kind: KIND, ref: REF } },
    run: ({ rest }, input) =>
      input.kind === undefined
        ? rest({ method: "GET", path: "/revisions", query: queryOf(input) })
        : rest({ method: "GET", path: `${objectPath(input)}/revisions`, query: queryOf(input, "kind", "ref") }),
  },
  {
    name: "restore_revision",
    group: "revisions",
    writes: true,
    least: leastOf("POST", "/pages/:ref"),
    description: "Write an object's revision back as its current state (a new revision; published as any write).",
    input: {
      own: { kind: KIND, ref: REF, revision: { type: "integer", minimum: 1 } },
      required: ["kind", "ref", "revision"],
    },
    run: ({ rest }, input) =>
      rest({ method: "POST", path: `${objectPath(input)}/revisions/${segment(input.revision)}/restore` }),
  },
];
