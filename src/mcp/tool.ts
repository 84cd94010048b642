// What an MCP tool is (docs/mcp.md): a name, a group, whether it writes, the least role it needs,
// a short description, its input schema and how it runs. A tool runs as REST calls of the
// service's own API (`Rest`, sent in-process by routes.ts with the caller's token), so the route's
// schema checks its input, the gate and site scope admit it, the route's service does the work
// and the answer is the REST answer: one source of truth for checks, roles, read-only refusals,
// site isolation, events, revisions and publishing.
import type { SiteRole } from "../site/roles.ts";
import { leastRoleFor } from "../http/route-groups.ts";

export interface RestRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** A network path (`/api/…`) as is; any other path is the site's, under `/api/site/{site_id}`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Raw bytes sent as the body with their Content-Type (a media upload) instead of `body`. */
  bytes?: { data: Buffer; type: string };
  headers?: Record<string, string>;
}

export interface RestAnswer {
  status: number;
  /** The answer's JSON (an object), or its text when it is not JSON. */
  body: JsonObject;
  headers: Record<string, string | string[] | number | undefined>;
}

/** Sends one REST call of the caller's, as the caller. */
export type Rest = (request: RestRequest) => Promise<RestAnswer>;

/** A site's call of a tool: the REST calls go to `/api/site/{siteId}/…`. */
export interface ToolCall {
  siteId: number;
  rest: Rest;
}

/** The groups of `?tools=` and `--tools` (docs/mcp.md); site_overview belongs to none and is always offered. */
export const TOOL_GROUPS = ["frames", "pages", "menus", "data", "revisions", "media", "delete"] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];

/** An operation of the OpenAPI document, site-relative (`["post", "/frames"]`). */
export type Operation = [method: "get" | "post" | "put" | "patch" | "delete", path: string];

/**
 * Where a tool's input properties come from: the body of a REST operation (`body`; `items` names
 * an array property whose item schema is taken instead, as check_frame takes one of `frames`), its
 * query parameters (`query`), and properties of the tool's own (`own`, e.g. a `ref` that is a
 * path parameter).
 */
export interface InputSource {
  body?: Operation;
  items?: string;
  query?: Operation;
  own?: Record<string, JsonSchema>;
  required?: string[];
  /** Body properties left out (aliases, switches the tool sets itself). */
  omit?: string[];
}

export type JsonSchema = Record<string, unknown>;
export type JsonObject = Record<string, unknown>;

export interface Tool {
  name: string;
  group: ToolGroup | null;
  writes: boolean;
  /** The least role on a site that may call it (http/route-groups.ts of its main REST call). */
  least: SiteRole;
  description: string;
  input: InputSource;
  /** false: the tool acts on no one site and takes no site_id (site_overview). */
  site?: false;
  run(call: ToolCall, input: Record<string, unknown>): Promise<RestAnswer>;
}

/** The least role of a REST call: its route group's (docs/roles.md). */
export function leastOf(method: string, path: string): SiteRole {
  return leastRoleFor(method, path);
}

/** A string input (or undefined), as the REST path segment it fills. */
export function segment(value: unknown): string {
  return encodeURIComponent(typeof value === "number" ? String(value) : typeof value === "string" ? value : "");
}

/** The input without the named properties (site_id and the tool's own): what the REST body takes. */
export function without(input: Record<string, unknown>, ...names: string[]): Record<string, unknown> {
  const rest = { ...input };
  for (const name of ["site_id", ...names]) delete rest[name];
  return rest;
}

/** The query of a read tool: the input's scalar values but site_id and the named ones. */
export function queryOf(
  input: Record<string, unknown>,
  ...names: string[]
): Record<string, string | number | boolean | undefined> {
  const query: Record<string, string | number | boolean | undefined> = {};
  for (const [name, value] of Object.entries(without(input, ...names)))
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") query[name] = value;
  return query;
}

/** Schemas of the tools' own properties. */
export const REF: JsonSchema = { type: ["string", "integer"], description: "id or slug" };
