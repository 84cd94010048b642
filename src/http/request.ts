// Reading a request's parts the same way in every route file.
import type { FastifyRequest } from "fastify";
import { fail } from "../errors.ts";
import { Opt, Type } from "./schema.ts";

/** The JSON body as an object (absent: no fields); typed by the route's body schema (http/typed-fastify.ts). */
export function bodyOf(request: { body?: Record<string, unknown> | null }): Record<string, unknown> {
  return request.body ?? {};
}

/** One field of a request part no schema types where it is read (a hook, which serves every route). */
export function fieldOf(part: unknown, name: string): unknown {
  return typeof part === "object" && part !== null ? Reflect.get(part, name) : undefined;
}

/**
 * A call without a body means "no fields": the service answers its own code (nothing_to_rebake,
 * page_required, frame_html_required, …) rather than the validator refusing `undefined`.
 */
export async function absentBodyIsEmpty(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}

/** `?dry_run=1` in a route's query schema (DELETE and PATCH alike). */
export const DryRunQuery = {
  dry_run: Opt(
    Type.String({ description: "1 or true: answer what the write would do, with its warnings, and change nothing" }),
  ),
};

/** What a dry run adds to an answer (`dry_run: true, applied: false`); nothing on a real write. */
export function dryRunFields(dryRun: boolean): { dry_run?: true; applied?: false } {
  return dryRun ? { dry_run: true, applied: false } : {};
}

/** `?dry_run`: 1/true or 0/false (absent: false); anything else is 400 invalid_parameter. */
export function dryRunOf(request: { query?: { dry_run?: string } }): boolean {
  const value = request.query?.dry_run;
  if (value === undefined || value === "0" || value === "false") return false;
  if (value === "1" || value === "true" || value === "") return true;
  throw fail(
    "invalid_parameter",
    { parameter: "dry_run", value, allowed: ["1", "true", "0", "false"] },
    "dry_run must be 1 or true (or 0, false).",
  );
}

/**
 * A write's body with `dry_run: true` when the query asks for a dry run: frame writes take
 * `dry_run` in the body (docs/frames.md, "Writes") and `?dry_run=1` (every other write's); either one
 * asking is a dry run (a dry run never writes).
 */
export function bodyWithDryRun(request: {
  body?: Record<string, unknown> | null;
  query?: { dry_run?: string };
}): Record<string, unknown> {
  const sent = bodyOf(request);
  return dryRunOf(request) ? { ...sent, dry_run: true } : sent;
}
