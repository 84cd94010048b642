// Stylesheet names and sizes (docs/styles.md). A name follows the data-set name rule
// (data/datasets.ts), taken as written (no lower-casing), and is what `@import "<name>"`,
// `svc/styles` and the public address `/styles/<name>.<hash>.css` name a stylesheet by.
import { fail, type ServiceError } from "../errors.ts";
import { DATASET_NAME_PATTERN, MAX_DATASET_NAME } from "../data/datasets.ts";

const STYLE_NAME = new RegExp(DATASET_NAME_PATTERN);

/** The CSS of one stylesheet, as uploaded: 1 MiB of UTF-8. */
export const MAX_STYLE_BYTES = 1024 * 1024;

export function isStyleName(name: string): boolean {
  return name.length <= MAX_DATASET_NAME && STYLE_NAME.test(name);
}

/** A stylesheet name from input; 400 invalid_style_name when it breaks the rule. */
export function styleNameFrom(value: unknown): string {
  const name = typeof value === "string" ? value : "";
  if (!isStyleName(name))
    throw fail("invalid_style_name", {
      name: value ?? null,
      pattern: DATASET_NAME_PATTERN,
      max_length: MAX_DATASET_NAME,
    });
  return name;
}

/** The `css` of a write (a string, by the route schema): at most MAX_STYLE_BYTES of UTF-8, else 400 invalid_field. */
export function cssFrom(value: string): string {
  if (Buffer.byteLength(value, "utf8") > MAX_STYLE_BYTES)
    throw fail(
      "invalid_field",
      { field: "css", max_bytes: MAX_STYLE_BYTES },
      `css is larger than ${MAX_STYLE_BYTES} bytes.`,
    );
  return value;
}

/** 404 style_not_found: the theme has no stylesheet by that name (another site's are never looked at). */
export function styleNotFound(name: string, theme: string): ServiceError {
  return fail("style_not_found", { name, theme }, `Theme "${theme}" has no stylesheet "${name}".`);
}
