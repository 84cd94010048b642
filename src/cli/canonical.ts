// Hashes of objects, the same for a file and for the server's record of it (docs/cli.md,
// "Change detection"). A file kept byte for byte (a frame, a stylesheet, a media file) is hashed as
// it is: the sha256 the service reports for it. A JSON file (a page, a menu, a data set, the
// settings) is hashed by its value, not its text: keys sorted at every level, no white space, so
// re-indenting a file or reordering its keys is no change. Pure.
import { createHash } from "node:crypto";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function sha256(bytes: string | Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** JSON with the keys of every object sorted (code-unit order) and no white space. */
export function stableStringify(value: Json): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value))
    return `[${value.map((item) => stableStringify(item === undefined ? null : item)).join(",")}]`;
  const keys = Object.keys(value)
    .filter((key) => value[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${stableStringify(value[key])}`).join(",")}}`;
}

/** The hash of a JSON value, whatever its key order or layout. */
export function jsonHash(value: Json): string {
  return sha256(stableStringify(value));
}

/**
 * The text a JSON file is written with: two-space indentation, top-level keys in `order` first
 * (then the rest sorted), nested objects' keys as given, and a final newline.
 */
export function jsonFileText(value: Json, order: readonly string[] = []): string {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return `${JSON.stringify(value, null, 2)}\n`;
  const ordered: Record<string, Json> = {};
  for (const key of order) if (key in value && value[key] !== undefined) ordered[key] = value[key];
  for (const key of Object.keys(value).sort())
    if (!(key in ordered) && value[key] !== undefined) ordered[key] = value[key];
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
