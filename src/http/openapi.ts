// The OpenAPI 3.1 document served at GET /api/openapi.json (docs/api-reference.md), built by
// @fastify/swagger from the route schemas. What the routes cannot say about themselves is added
// here, for the document only (validation is untouched):
// - `servers`: the origin clients reach the service at (config `apiUrl`, SVC_API_URL);
// - the site's `site_id` path parameter on `/api/site/{site_id}/…`, and the legacy selectors
//   (`blog_id`, `domain`, `X-Svc-Blog-Id`) on the legacy `/api/…` twins;
// - operation ids: each route declares its name (`listFrames`); the legacy twin is that name
//   with `Legacy` appended (`listFramesLegacy`);
// - `security: []` on the calls that need no token;
// - the typed form of values the services check themselves (`ServiceChecked` in schema.ts);
// - one template per path: two routes whose templates differ only in a parameter's name
//   (`/data/{source}`, `/data/{name}`) are listed under one.
import type { FastifyDynamicSwaggerOptions } from "@fastify/swagger";
import type { RouteOptions } from "fastify";
import type { Config } from "../config.ts";
import { DOCUMENTED, Type } from "./schema.ts";

export const OPENAPI_PATH = "/api/openapi.json";
/** The header every answer under /api/ carries (RFC 8631): where the API's description is. */
export const SERVICE_DESC_LINK = `<${OPENAPI_PATH}>; rel="service-desc"`;

type Schema = Record<string, unknown>;
type RouteSchema = Record<string, unknown> & {
  params?: Schema;
  querystring?: Schema;
  headers?: Schema;
  operationId?: string;
};

const SiteId = Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: "the site's id" });
const LegacyQuery = {
  blog_id: Type.Optional(Type.Integer({ minimum: 1, description: "the site's id; read first" })),
  domain: Type.Optional(
    Type.String({ description: "any of the site's domains; read after blog_id and X-Svc-Blog-Id" }),
  ),
};
const LegacyHeaders = {
  "x-svc-blog-id": Type.Optional(Type.Integer({ minimum: 1, description: "the site's id; read after ?blog_id" })),
};
/** The legacy twins are listed apart, so a reader meets each call once under its feature. */
const LEGACY_TAG = "legacy addresses";
const LEGACY_NOTE =
  "Legacy address: the site is chosen by ?blog_id, then X-Svc-Blog-Id, then ?domain, else the main site " +
  "(the answer's X-Svc-Blog-Source says which). The same call as its /api/site/{site_id}/… twin.";

/** A copy of a route schema with every `ServiceChecked` value replaced by its documented form. */
function documented(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(documented);
  if (value === null || typeof value !== "object") return value;
  const shown = (value as { [DOCUMENTED]?: unknown })[DOCUMENTED];
  if (shown !== undefined) return documented(shown);
  const out: Schema = {};
  for (const [key, inner] of Object.entries(value)) out[key] = documented(inner);
  return out;
}

/** An object schema with more properties (the route's own first, so they keep their place). */
function withProperties(schema: Schema | undefined, more: Record<string, unknown>, required: string[] = []): Schema {
  const base = schema ?? { type: "object", properties: {} };
  const properties = { ...(base.properties as Schema | undefined), ...more };
  const all = [...new Set([...((base.required as string[] | undefined) ?? []), ...required])];
  return { ...base, type: "object", properties, ...(all.length > 0 ? { required: all } : {}) };
}

function documentRoute({ schema, url, route }: { schema: unknown; url: string; route: RouteOptions }) {
  if (!schema) return { schema: schema as never, url };
  const doc = documented(schema) as RouteSchema;
  const config = (route.config ?? {}) as { siteAddressStyle?: "path" | "legacy"; auth?: string };
  if (config.siteAddressStyle === "path") {
    doc.params = withProperties(doc.params, { site_id: SiteId }, ["site_id"]);
  } else if (config.siteAddressStyle === "legacy") {
    doc.querystring = withProperties(doc.querystring, LegacyQuery);
    doc.headers = withProperties(doc.headers, LegacyHeaders);
    if (typeof doc.operationId === "string") doc.operationId = `${doc.operationId}Legacy`;
    doc.tags = [LEGACY_TAG];
    doc.description = doc.description ? `${doc.description}\n\n${LEGACY_NOTE}` : LEGACY_NOTE;
  }
  if (config.auth === "none") doc.security = [];
  return { schema: doc as never, url };
}

type Operation = {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
};
type Paths = Record<string, Record<string, Operation>>;

/**
 * Routes whose templates differ only in their parameters' names are one path in OpenAPI (two
 * would be ambiguous). They are listed under the names most of their operations use; the other
 * operations' path parameters are renamed to match, position by position.
 */
export function mergeTwinTemplates(paths: Paths): Paths {
  const shape = (template: string) => template.replace(/\{[^}]+\}/g, "{}");
  const names = (template: string) => [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const groups = new Map<string, string[]>();
  for (const template of Object.keys(paths))
    groups.set(shape(template), [...(groups.get(shape(template)) ?? []), template]);
  const out: Paths = {};
  for (const template of Object.keys(paths)) {
    const twins = groups.get(shape(template))!;
    if (twins.length === 1) {
      out[template] = paths[template];
      continue;
    }
    const chosen = twins.reduce((best, t) =>
      Object.keys(paths[t]).length > Object.keys(paths[best]).length ? t : best,
    );
    if (out[chosen]) continue;
    const merged: Record<string, Operation> = {};
    for (const twin of twins) {
      const rename = new Map(names(twin).map((name, i) => [name, names(chosen)[i]]));
      for (const [method, operation] of Object.entries(paths[twin])) {
        const parameters = operation.parameters?.map((p) =>
          p.in === "path" && rename.has(p.name) ? { ...p, name: rename.get(p.name)! } : p,
        );
        merged[method] = { ...operation, ...(parameters ? { parameters } : {}) };
      }
    }
    out[chosen] = merged;
  }
  return out;
}

/**
 * A JSON body whose fields are all optional may be left out (an absent body reads as `{}`), so
 * such a request body is not `required` (Fastify's swagger marks every declared body required).
 */
function optionalBodies(paths: Paths): Paths {
  const out: Paths = {};
  for (const [template, operations] of Object.entries(paths)) {
    out[template] = {};
    for (const [method, operation] of Object.entries(operations)) {
      const schema = operation.requestBody?.content?.["application/json"]?.schema;
      const optional = schema !== undefined && !(Array.isArray(schema.required) && schema.required.length > 0);
      out[template][method] = optional
        ? { ...operation, requestBody: { ...operation.requestBody, required: false } }
        : operation;
    }
  }
  return out;
}

export function openApiOptions(config: Config): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Site-builder management API",
        version: "1.0.0",
        description:
          "Frames, menus, pages, data and the network of sites. Site-scoped calls are served at `/api/site/{site_id}/…` and, " +
          "deprecated, at the legacy `/api/…` (operation ids ending in `Legacy`). Every answer under /api/ carries " +
          '`Link: </api/openapi.json>; rel="service-desc"`. Errors come in two envelopes: a handler\'s ' +
          "`{success: false, error, message, …details}` and one raised before a handler (token, site, body, route) " +
          "`{code, message, data: {status}}`.",
      },
      servers: [{ url: config.apiUrl, description: "this service (SVC_API_URL, default http://HOST:PORT)" }],
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer" },
          svcKey: { type: "apiKey", in: "header", name: "X-Svc-Key" },
        },
      },
      security: [{ bearer: [] }, { svcKey: [] }],
    },
    // The server's URL has no path the routes start with; never strip one from them.
    stripBasePath: false,
    // A schema given an $id of its own (a recursive one: MenuItemInput) is listed under that name.
    refResolver: {
      buildLocalReference: (json: Schema, _base: unknown, _fragment: unknown, i: number) =>
        typeof json.$id === "string" && !/^T\d+$/.test(json.$id) ? json.$id : `def-${i}`,
    },
    transform: documentRoute as FastifyDynamicSwaggerOptions["transform"],
    transformObject: ({ openapiObject }: { openapiObject: Record<string, unknown> }) => ({
      ...openapiObject,
      paths: optionalBodies(mergeTwinTemplates(openapiObject.paths as Paths)),
    }),
  } as FastifyDynamicSwaggerOptions;
}
