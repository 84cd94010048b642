// Every MCP tool, and which of them a connection is offered (docs/mcp.md): the groups it asked
// for (`?tools=`, `--tools`), only the reading tools for a read-only token or `?read_only=1`, and
// only the tools the caller's highest role may call (an editor is offered no frame writes). A
// tool's input schema is built from the OpenAPI document's own schema of its REST call, so its
// properties are the REST body's or query's names, plus `site_id`.
import { reaches, type SiteRole } from "../site/roles.ts";
import { DATA_TOOLS } from "./data-tools.ts";
import { FRAME_TOOLS } from "./frames-tools.ts";
import { MEDIA_TOOLS } from "./media-tools.ts";
import { MENU_TOOLS } from "./menus-tools.ts";
import { PAGE_TOOLS } from "./pages-tools.ts";
import { REVISION_TOOLS } from "./revisions-tools.ts";
import { SITE_TOOLS } from "./site-tools.ts";
import type { JsonSchema, Operation, Tool, ToolGroup } from "./tool.ts";

export const TOOLS: readonly Tool[] = [
  ...SITE_TOOLS.filter((tool) => tool.group === null),
  ...FRAME_TOOLS,
  ...PAGE_TOOLS,
  ...MENU_TOOLS,
  ...DATA_TOOLS,
  ...REVISION_TOOLS,
  ...MEDIA_TOOLS,
  ...SITE_TOOLS.filter((tool) => tool.group !== null),
];

/** What a connection is offered. `groups` null: every group. */
export interface Offer {
  groups: ReadonlySet<ToolGroup> | null;
  readOnly: boolean;
  /** The caller's highest role on any site; null: none. */
  role: SiteRole | null;
}

/** Why a tool is not offered, or null when it is. */
export function notOffered(tool: Tool, offer: Offer): "read_only" | "role" | "group" | null {
  if (offer.groups !== null && tool.group !== null && !offer.groups.has(tool.group)) return "group";
  if (offer.readOnly && tool.writes) return "read_only";
  if (offer.role === null || !reaches(offer.role, tool.least)) return "role";
  return null;
}

export function offeredTools(offer: Offer): Tool[] {
  return TOOLS.filter((tool) => notOffered(tool, offer) === null);
}

/** The served OpenAPI document, as far as the schemas read here. */
interface DocumentOperation {
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  parameters?: Array<{ in: string; name: string; schema?: JsonSchema; description?: string }>;
}

export interface ApiDocument {
  paths: Record<string, Record<string, DocumentOperation>>;
  components?: { schemas?: Record<string, unknown> };
}

const COMPONENTS = "#/components/schemas/";

const SITE_ID: JsonSchema = {
  type: "integer",
  description: "the site; may be left out when the token reaches one site",
};

/**
 * A schema without the document's own annotations (`x-…`), which mean nothing to an agent, and
 * with its references to the document's components pointing into its own `$defs`; the names
 * referenced are added to `referenced`.
 */
function plain(schema: unknown, referenced: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => plain(item, referenced));
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith("x-")) continue;
    if (key === "$ref" && typeof value === "string" && value.startsWith(COMPONENTS)) {
      referenced.add(value.slice(COMPONENTS.length));
      out[key] = `#/$defs/${value.slice(COMPONENTS.length)}`;
    } else out[key] = plain(value, referenced);
  }
  return out;
}

/** The schema made plain, with `$defs` holding every component it reaches. */
function selfContained(schema: JsonSchema, document: ApiDocument): JsonSchema {
  const referenced = new Set<string>();
  const out = plain(schema, referenced) as JsonSchema;
  const defs: Record<string, unknown> = {};
  for (const name of referenced) defs[name] = plain(document.components?.schemas?.[name] ?? {}, referenced);
  return Object.keys(defs).length === 0 ? out : { ...out, $defs: defs };
}

function operationOf(document: ApiDocument, [method, path]: Operation) {
  const operation = document.paths[`/api/site/{site_id}${path}`]?.[method];
  if (operation === undefined) throw new Error(`MCP tool input: no operation ${method} ${path} in the document`);
  return operation;
}

/** The body schema of an operation, or the item schema of one of its array properties. */
function bodyOf(document: ApiDocument, operation: Operation, items?: string): JsonSchema {
  const schema = operationOf(document, operation).requestBody?.content?.["application/json"]?.schema ?? {};
  if (items === undefined) return schema;
  const properties = schema.properties as Record<string, { items?: JsonSchema }> | undefined;
  return properties?.[items]?.items ?? {};
}

function queryOf(document: ApiDocument, operation: Operation): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  for (const parameter of operationOf(document, operation).parameters ?? [])
    if (parameter.in === "query")
      properties[parameter.name] = {
        ...parameter.schema,
        ...(parameter.description ? { description: parameter.description } : {}),
      };
  return properties;
}

/** Each document's tool schemas, made once: every MCP request is a server of its own (server.ts), and tools/list asks for all of them. */
const schemasOf = new WeakMap<ApiDocument, Map<string, JsonSchema>>();

/** A tool's input schema (JSON Schema, an object), from the document and the tool's own properties. */
export function inputSchemaOf(tool: Tool, document: ApiDocument): JsonSchema {
  let made = schemasOf.get(document);
  if (made === undefined) {
    made = new Map();
    schemasOf.set(document, made);
  }
  let schema = made.get(tool.name);
  if (schema === undefined) {
    schema = schemaOf(tool, document);
    made.set(tool.name, schema);
  }
  return schema;
}

function schemaOf(tool: Tool, document: ApiDocument): JsonSchema {
  const { input } = tool;
  const body = input.body ? bodyOf(document, input.body, input.items) : undefined;
  const properties: Record<string, JsonSchema> = {
    ...(tool.site === false ? {} : { site_id: SITE_ID }),
    ...(body?.properties as Record<string, JsonSchema> | undefined),
    ...(input.query ? queryOf(document, input.query) : {}),
    ...input.own,
  };
  for (const name of input.omit ?? []) delete properties[name];
  const required = input.required ?? (body?.required as string[] | undefined) ?? [];
  return selfContained({ type: "object", properties, ...(required.length > 0 ? { required } : {}) }, document);
}
