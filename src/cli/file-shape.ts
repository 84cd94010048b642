// What every reader of a folder's JSON files checks the same way: an object, a refusal naming the
// file, fields the file may not hold.
import { CliError } from "./errors.ts";

export type Rec = Record<string, unknown>;

export function isRecord(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A file that cannot be sent: `invalid_file: <key>: <message>` (exit 1). */
export function bad(key: string, message: string): CliError {
  return new CliError(1, `invalid_file: ${key}: ${message}`);
}

/** Refuses fields a file of this kind does not hold. */
export function refuseUnknown(key: string, value: Rec, known: readonly string[], what: string): void {
  const unknown = Object.keys(value).filter((k) => !known.includes(k));
  if (unknown.length)
    throw bad(
      key,
      `unknown field${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (${what} holds ${known.join(", ")})`,
    );
}
