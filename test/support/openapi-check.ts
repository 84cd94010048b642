// Every answer a test app gives is checked against the OpenAPI document it serves
// (docs/api-reference.md):
// the schema of its operation and status (the exact code, else its range `4XX`, else `default`)
// must hold the body, and a request the API accepted (2xx) must fit the operation's documented
// request body. startTestApp records every answer (an onSend hook) and checks them when the app
// closes, so a test that received an answer its route does not document fails in its `after`.
// Only operations with an operationId are checked (routes a test adds itself have none).
// With SVC_OPENAPI_COVERAGE=<dir>, each process writes the operations and statuses it checked
// to <dir>/<pid>.json (node --import tsx test/support/openapi-coverage.ts <dir> sums them up).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

type Json = Record<string, any>;

export interface Recorded {
  method: string;
  /** The route's pattern (`/api/site/:site_id/frames/:ref`). */
  route: string;
  url: string;
  status: number;
  contentType: string;
  body: string | null;
  /** The body was a stream (an event stream): its type is checked, not its content. */
  streamed?: boolean;
  requestBody: unknown;
}

const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false, validateFormats: false });
const compiled = new Map<string, ValidateFunction>();
const documents = new Map<string, string>();
/** Each document object's id: the text (of a few hundred kilobytes) is made once per object, not per answer. */
const documentIds = new WeakMap<Json, string>();
const covered = new Set<string>();

/** The id ajv knows `doc` by: one per distinct text, so apps serving the same document share validators. */
function documentId(doc: Json): string {
  const known = documentIds.get(doc);
  if (known !== undefined) return known;
  const text = JSON.stringify(doc);
  let id = documents.get(text);
  if (id === undefined) {
    id = `openapi-${documents.size}.json`;
    documents.set(text, id);
    ajv.addSchema(doc, id);
  }
  documentIds.set(doc, id);
  return id;
}

/** A validator for a schema of `doc` (its refs resolved within the document). */
function validatorFor(doc: Json, pointer: string): ValidateFunction {
  const id = documentId(doc);
  const key = `${id}#${pointer}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: key });
    compiled.set(key, validate);
  }
  return validate;
}

/** A key as one segment of a JSON pointer (RFC 6901: `~` → `~0`, `/` → `~1`). */
const pointerSegment = (part: string) => part.replaceAll("~", "~0").replaceAll("/", "~1");

/** `/api/site/:site_id/data/:name` → the document's path for it (names may differ: http/openapi.ts). */
function pathOf(doc: Json, route: string): string | null {
  const template = route.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\/$/, "") || "/";
  if (doc.paths[template]) return template;
  const shape = template.replace(/\{[^}]+\}/g, "{}");
  return Object.keys(doc.paths).find((path) => path.replace(/\{[^}]+\}/g, "{}") === shape) ?? null;
}

function statusKey(responses: Json, status: number): string | null {
  for (const key of [String(status), `${String(status)[0]}XX`, "default"]) if (responses[key]) return key;
  return null;
}

/** The problems of one answer: [] when the document describes it. */
export function problemsOf(doc: Json, answer: Recorded): string[] {
  const path = pathOf(doc, answer.route);
  const method = answer.method.toLowerCase() === "head" ? "get" : answer.method.toLowerCase();
  const operation = path === null ? undefined : doc.paths[path]?.[method];
  if (!operation?.operationId) return [];
  const where = `${answer.method} ${answer.url} → ${answer.status} (${operation.operationId})`;
  const key = statusKey(operation.responses ?? {}, answer.status);
  covered.add(`${operation.operationId} ${key ?? answer.status}`);
  if (key === null)
    return [
      `${where}: status ${answer.status} is not documented (${Object.keys(operation.responses ?? {}).join(", ")})`,
    ];
  const problems: string[] = [];
  const content = operation.responses[key].content as Json | undefined;
  const empty = !answer.streamed && (answer.body === null || answer.body === "");
  if (answer.method !== "HEAD" && !empty) {
    const type = answer.contentType.split(";")[0].trim().toLowerCase();
    const media = content && (content[type] ?? (type.endsWith("+json") ? content["application/json"] : undefined));
    if (!media)
      problems.push(
        `${where}: a ${type || "body without a type"} answer, documented as ${content ? Object.keys(content).join(", ") : "no body"}`,
      );
    else if (media.schema && type.includes("json") && answer.body !== null) {
      const pointer = [
        "",
        "paths",
        pointerSegment(path!),
        method,
        "responses",
        key,
        "content",
        pointerSegment(content![type] ? type : "application/json"),
        "schema",
      ].join("/");
      const validate = validatorFor(doc, pointer);
      if (!validate(JSON.parse(answer.body!)))
        problems.push(
          `${where}: ${ajv.errorsText(validate.errors, { separator: "; " })}; body ${answer.body!.slice(0, 400)}`,
        );
    }
  } else if (empty && content && answer.method !== "HEAD" && answer.status !== 304 && answer.status !== 204) {
    problems.push(`${where}: no body, documented as ${Object.keys(content).join(", ")}`);
  }
  const accepted = answer.status >= 200 && answer.status < 300;
  const requestSchema = operation.requestBody?.content?.["application/json"]?.schema;
  if (
    accepted &&
    requestSchema &&
    answer.requestBody !== undefined &&
    answer.requestBody !== null &&
    typeof answer.requestBody === "object" &&
    !Buffer.isBuffer(answer.requestBody)
  ) {
    const pointer = [
      "",
      "paths",
      pointerSegment(path!),
      method,
      "requestBody",
      "content",
      "application~1json",
      "schema",
    ].join("/");
    const validate = validatorFor(doc, pointer);
    if (!validate(answer.requestBody)) {
      problems.push(
        `${where}: accepted a request body its documented schema refuses: ${ajv.errorsText(validate.errors, { separator: "; " })}; body ${JSON.stringify(answer.requestBody).slice(0, 400)}`,
      );
    }
  }
  return problems;
}

/** Records every answer of `app` (call before ready); `check()` returns the problems found. */
export function recordAnswers(app: FastifyInstance): { check(): string[] } {
  const answers: Recorded[] = [];
  app.addHook("onSend", (request, reply, payload, done) => {
    const route = request.routeOptions.url;
    if (route && request.url.startsWith("/api")) {
      const body =
        typeof payload === "string"
          ? payload
          : Buffer.isBuffer(payload)
            ? payload.toString("utf8")
            : payload == null
              ? null
              : "[stream]";
      answers.push({
        method: request.method,
        route,
        url: request.url,
        status: reply.statusCode,
        contentType: String(reply.getHeader("content-type") ?? ""),
        body: body === "[stream]" ? null : body,
        streamed: body === "[stream]",
        requestBody: request.body,
      });
    }
    done(null, payload);
  });
  return {
    check() {
      if (answers.length === 0) return [];
      const doc = app.swagger() as Json;
      const problems = answers.flatMap((answer) => problemsOf(doc, answer));
      answers.length = 0;
      const dir = process.env.SVC_OPENAPI_COVERAGE;
      if (dir) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify([...covered].sort()));
      }
      return problems;
    },
  };
}
