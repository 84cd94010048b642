// Small input checks shared by the network services.
import { fail } from "../errors.ts";
import type { Caller } from "../site/callers.ts";

export function requireSuperAdmin(caller: Caller): void {
  if (!caller.superAdmin) throw fail("insufficient_role", {}, "Only a super-administrator may do this.");
}

/** A site id from a path (`/api/sites/{id}`); anything but a positive whole number is no site. */
export function siteIdFrom(raw: string): number {
  if (!/^[1-9]\d{0,9}$/.test(raw)) throw fail("site_not_found");
  return Number(raw);
}

/** A string field, or undefined when absent; wrong type or over-long is 400 invalid_field. */
export function optionalString(value: unknown, field: string, maxLength: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string")
    throw fail("invalid_field", { field, expected: "string" }, `${field} must be a string.`);
  if (value.length > maxLength) {
    throw fail("invalid_field", { field, max_length: maxLength }, `${field} is longer than ${maxLength} characters.`);
  }
  return value;
}

export function optionalBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean")
    throw fail("invalid_field", { field, expected: "boolean" }, `${field} must be true or false.`);
  return value;
}
