// The parameters of svc/repeat (docs/markup.md, "Lists"): `source` (required), `match`, `order_by`,
// `offset`, `limit` and `page_size`. A parameter of the wrong kind is warned at write time
// (`insert_param_invalid`) and the whole block prints nothing, as for every insert. A repeat outside
// other repeats that sorts or pages a source of the context is one of the frame's lists (analysis
// `lists`); the first of them that pages is the page's list (RepeatOp.list, set by the analysis once
// the markup is read: a repeat never closed is no list).
import type { AnalysisBuilder } from "./analysis.ts";
import type { ParsedInsert } from "./insert-grammar.ts";
import { invalid, markerClose, markerOpen, matchText, missing, toCount } from "./insert-ops.ts";
import { parseOrderBy } from "./list-order.ts";
import type { RepeatOp } from "./program.ts";
import { normalizeRepeatSource, PAGE_SOURCES } from "./tokens.ts";

/** `match`: an object of field → a scalar, or a non-empty list of scalars (any of them). */
function matchOf(a: AnalysisBuilder, ins: ParsedInsert, at: number, m: unknown): RepeatOp["match"] | undefined {
  if (m === null || typeof m !== "object" || Array.isArray(m)) {
    invalid(a, ins, "match", `"match" must be an object of field: value`, at);
    return undefined;
  }
  for (const [field, value] of Object.entries(m as Record<string, unknown>)) {
    // A list of values is any of them, as POST /data/resolve reads it (match.ts).
    const values = Array.isArray(value) ? value : [value];
    if (values.length === 0 || values.some((one) => matchText(one) === undefined)) {
      invalid(
        a,
        ins,
        "match",
        `match value of "${field}" must be a string, number, boolean or null, or a list of them`,
        at,
      );
      return undefined;
    }
  }
  return m as Record<string, unknown>;
}

/** A count parameter (`offset`, `limit`, `page_size`): absent, or a whole number from `min`. */
function countOf(
  a: AnalysisBuilder,
  ins: ParsedInsert,
  at: number,
  key: string,
  min: number,
): number | null | undefined {
  const value = ins.params?.[key];
  if (value === undefined || value === null) return null;
  const n = toCount(value);
  if (n === undefined || n < min) {
    invalid(a, ins, key, `"${key}" must be a whole number from ${min}`, at);
    return undefined;
  }
  return n;
}

/**
 * Builds the repeat operation for an open (or self-closed) svc/repeat; analysis included.
 * `topLevel`: it stands outside every other repeat of the frame.
 */
export function repeatOp(a: AnalysisBuilder, ins: ParsedInsert, at: number, topLevel = false): RepeatOp {
  a.repeats++;
  const params = ins.params ?? {};
  const op: RepeatOp = {
    t: "repeat",
    valid: !ins.paramsError,
    at,
    open: markerOpen(ins),
    close: markerClose(ins),
    source: { kind: "context", source: "" },
    match: null,
    orderBy: null,
    offset: 0,
    limit: -1,
    pageSize: 0,
    list: false,
    body: [],
  };
  if (!op.valid) return op;
  const source = params.source;
  if (typeof source !== "string" || source.trim() === "") {
    missing(a, ins, "source", `"source"`, at);
    op.valid = false;
    return op;
  }
  op.source = normalizeRepeatSource(source.trim());
  if (op.source.kind === "context") {
    a.source(op.source.source, at, source.trim());
    if (PAGE_SOURCES.has(op.source.source)) a.liveReason(`repeat ${op.source.source}`);
  }
  if (params.match !== undefined && params.match !== null) {
    const match = matchOf(a, ins, at, params.match);
    if (match === undefined) return invalidated(op);
    op.match = match;
  }
  if (params.order_by !== undefined && params.order_by !== null) {
    const order = parseOrderBy(params.order_by);
    if (order === undefined) {
      invalid(
        a,
        ins,
        "order_by",
        `"order_by" must be date, modified, title, menu_order or fields.<name>, "-" first to sort descending`,
        at,
      );
      return invalidated(op);
    }
    op.orderBy = order;
  }
  const offset = countOf(a, ins, at, "offset", 0);
  const limit = countOf(a, ins, at, "limit", 0);
  const pageSize = countOf(a, ins, at, "page_size", 1);
  if (offset === undefined || limit === undefined || pageSize === undefined) return invalidated(op);
  op.offset = offset ?? 0;
  op.limit = limit ?? -1;
  op.pageSize = pageSize ?? 0;
  if (topLevel && op.source.kind === "context" && (op.orderBy !== null || op.pageSize > 0)) {
    a.list(op, {
      at,
      source: op.source.source,
      match: op.match,
      order_by: params.order_by === undefined || params.order_by === null ? null : String(params.order_by).trim(),
      offset: op.offset,
      limit: limit,
      page_size: pageSize,
    });
  }
  return op;
}

function invalidated(op: RepeatOp): RepeatOp {
  op.valid = false;
  return op;
}
