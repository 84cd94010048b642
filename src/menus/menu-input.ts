// What the menu calls read of a body besides items and locations: the menu's name and slug,
// allow_invalid, the selectors (lang, theme) and the fields no call knows.
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import { slugify } from "../pages/slug.ts";
import type { MenuRow } from "./queries.ts";

export const MAX_NAME = 200;

export function unknownKeys(body: Record<string, unknown>, known: readonly string[]): Warning[] {
  return Object.keys(body)
    .filter((key) => !known.includes(key))
    .map((field) => warning("unknown_field", `Field "${field}" is not known here and was ignored.`, { field }));
}

/** The selectors of a call (lang, theme; docs/menus.md): from the body, else from the query. */
export function selectors(body: Record<string, unknown>, query: Record<string, unknown>) {
  return { lang: body.lang ?? query.lang, theme: body.theme ?? query.theme };
}

/** A menu name from input: 400 menu_name_required when absent or blank. */
export function nameFrom(value: unknown): string {
  if (value === undefined || value === null || (typeof value === "string" && value.trim() === ""))
    throw fail("menu_name_required", { field: "name" });
  if (typeof value !== "string")
    throw fail("invalid_field", { field: "name", expected: "string" }, "name must be a string.");
  const name = value.trim();
  if (name.length > MAX_NAME)
    throw fail("invalid_field", { field: "name", max_length: MAX_NAME }, `name is longer than ${MAX_NAME} characters.`);
  return name;
}

/** An explicit slug, made a slug (lower-case words joined by dashes); warns when it changed. */
export function slugInput(value: unknown, warnings: Warning[]): string {
  if (typeof value !== "string" && typeof value !== "number")
    throw fail("invalid_field", { field: "slug", expected: "string" }, "slug must be a string.");
  const given = String(value).trim();
  const slug = slugify(given);
  if (slug === "")
    throw fail(
      "invalid_slug",
      {
        field: "slug",
        slug: value,
        pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$",
        hint: "Use letters, digits and dashes, e.g. main-menu.",
      },
      "A menu slug is lower-case letters and digits joined by dashes.",
    );
  if (slug !== given)
    warnings.push(warning("slug_normalized", `The slug was written as "${slug}".`, { from: given, to: slug }));
  return slug;
}

export function allowInvalidFrom(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean")
    throw fail(
      "invalid_field",
      { field: "allow_invalid", expected: "boolean" },
      "allow_invalid must be true or false.",
    );
  return value;
}

export function slugTaken(occupant: MenuRow | undefined, slug: string) {
  return fail(
    "slug_taken",
    { field: "slug", slug, id: occupant?.id ?? null, name: occupant?.name ?? null },
    "Another menu already has this slug.",
  );
}
