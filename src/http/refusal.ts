// Schema-declared refusals. Where a capability's documentation answers a bad value with a code
// of its own (menus' 400 bad_items listing every item's problem, 400 bad_reorder, …) rather than
// the validator's 400 invalid_field, the route schema says so: `Refusing(schema, code, form)`.
// The validator (validation.ts) answers a failure with the code declared on the failing schema or
// on its nearest ancestor, else invalid_field; a missing required property answers the code
// declared on that property. So a value's type is checked once, by the route schema, and the
// service keeps only the rules a schema cannot state (docs/architecture.md, "The write path").
import type { TSchema } from "@sinclair/typebox";
import type { ErrorCode } from "../errors.ts";

/**
 * The schema keyword holding the code. An `x-` keyword is an OpenAPI specification extension, so
 * the description keeps it: a reader of the document sees which code a value's refusal answers.
 */
export const REFUSAL = "x-refusal";
/** The rest of a declaration; under a symbol, so JSON (the OpenAPI document) leaves it out. */
const FORM: unique symbol = Symbol.for("svc.refusal.form");

/** Where one listed error stands: its details (e.g. `{at, field}`), and the name its message gives the value. */
export interface ListedPlace {
  where: Record<string, string>;
  subject: string;
}

export interface RefusalForm {
  /**
   * Every failure under the declaring value is listed in `errors` (each its place and message),
   * instead of the first one being named by `field`. `place` reads where a failure stands from its
   * path's segments below the declaring value (`[]`: the value itself). With `max`, at most that
   * many are listed and `total_errors` counts them all.
   */
  list?: { place: (below: readonly string[]) => ListedPlace; max?: number };
  /** Details every refusal of the value carries besides `field` or `errors` (e.g. the names allowed). */
  details?: Record<string, unknown>;
  /** The detail naming the refused value's place, `field` unless said (`parameter`, `quota`). */
  name?: string;
  /** The detail that repeats the refused value, if any (`value`, `status`). */
  value?: string;
}

/** A schema whose failures answer `code` (and, as a required property, its absence too). */
export function Refusing<S extends TSchema>(schema: S, code: ErrorCode, form: RefusalForm = {}): S {
  return { ...schema, [REFUSAL]: code, [FORM]: form };
}

export interface Declaration {
  code: ErrorCode;
  form: RefusalForm;
  /** How many segments of the failure's path lead to the declaring value. */
  depth: number;
}

type Node = TSchema & {
  $id?: string;
  $ref?: string;
  anyOf?: TSchema[];
  properties?: Record<string, TSchema>;
  items?: TSchema;
  additionalProperties?: unknown;
  patternProperties?: Record<string, TSchema>;
  [REFUSAL]?: ErrorCode;
  [FORM]?: RefusalForm;
};

const idsByRoot = new WeakMap<TSchema, Map<string, Node>>();

/** The schemas a root names by `$id` (a recursive one: `Type.Recursive`), for its `$ref`s. */
function idsOf(root: TSchema): Map<string, Node> {
  let ids = idsByRoot.get(root);
  if (ids) return ids;
  ids = new Map();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === "object") {
      const node = value as Node;
      if (typeof node.$id === "string") ids!.set(node.$id, node);
      Object.values(node).forEach(walk);
    }
  };
  walk(root);
  idsByRoot.set(root, ids);
  return ids;
}

const deref = (schema: Node, ids: Map<string, Node>): Node =>
  typeof schema.$ref === "string" ? (ids.get(schema.$ref) ?? schema) : schema;

/** The schema of a value's child (a property, an array item), if the schema has one. */
function childOf(schema: Node, segment: string): Node | undefined {
  if (schema.type === "array") return /^\d+$/.test(segment) ? (schema.items as Node | undefined) : undefined;
  if (schema.type !== "object") return undefined;
  const own = schema.properties?.[segment];
  if (own) return own as Node;
  const pattern = Object.values(schema.patternProperties ?? {})[0];
  if (pattern) return pattern as Node;
  return typeof schema.additionalProperties === "object" ? (schema.additionalProperties as Node) : undefined;
}

/** Whether a schema can hold the child `segment`, itself or through one of its variants. */
function leadsTo(schema: Node, segment: string, ids: Map<string, Node>): boolean {
  if (Array.isArray(schema.anyOf))
    return schema.anyOf.some((variant) => leadsTo(deref(variant as Node, ids), segment, ids));
  return childOf(schema, segment) !== undefined;
}

/** The first variant of a union that can hold the child `segment`. */
function variantToward(variants: TSchema[], segment: string, ids: Map<string, Node>): Node | undefined {
  return variants.map((variant) => deref(variant as Node, ids)).find((variant) => leadsTo(variant, segment, ids));
}

/**
 * The declaration nearest to the value at `segments` (a failure's path): the schema's own, else
 * its nearest ancestor's, following the path through properties, array items, unions and
 * references; null when none declares one.
 */
export function declarationAt(root: TSchema, segments: readonly string[]): Declaration | null {
  const ids = idsOf(root);
  let found: Declaration | null = null;
  let schema: Node | undefined = root as Node;
  for (let depth = 0; schema !== undefined; depth++) {
    for (;;) {
      schema = deref(schema, ids);
      const code = schema[REFUSAL];
      if (code !== undefined) found = { code, form: schema[FORM] ?? {}, depth };
      if (!Array.isArray(schema.anyOf) || depth === segments.length) break;
      const variant = variantToward(schema.anyOf, segments[depth], ids);
      if (variant === undefined) return found;
      schema = variant;
    }
    if (depth === segments.length) return found;
    schema = childOf(schema, segments[depth]);
  }
  return found;
}
