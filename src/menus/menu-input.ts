// What the menu calls read of a body besides items and locations: the menu's name and slug,
// the selectors (lang, theme) and the fields no call knows. The route schemas have checked their
// types (schemas.ts); here are the rules on their trimmed values.
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import { slugify } from "../pages/slug.ts";
import type { MenuRow } from "./queries.ts";

export const MAX_NAME = 200;

export function unknownKeys(body: object, known: readonly string[]): Warning[] {
  return Object.keys(body)
    .filter((key) => !known.includes(key))
    .map((field) => warning("unknown_field", `Field "${field}" is not known here and was ignored.`, { field }));
}

/** The selectors of a call (lang, theme; docs/menus.md): from the body, else from the query. */
export function selectors(body: Selectors, query: Selectors) {
  return { lang: body.lang ?? query.lang, theme: body.theme ?? query.theme };
}

/** The selectors a body or query may give (lang, theme). */
export interface Selectors {
  lang?: string | null;
  theme?: string | null;
}

/** A menu name, trimmed: 400 menu_name_required when blank (absent or not a string: the schema's). */
export function nameFrom(value: string): string {
  const name = value.trim();
  if (name === "") throw fail("menu_name_required", { field: "name" });
  if (name.length > MAX_NAME)
    throw fail("invalid_field", { field: "name", max_length: MAX_NAME }, `name is longer than ${MAX_NAME} characters.`);
  return name;
}

/** An explicit slug, made a slug (lower-case words joined by dashes); warns when it changed. */
export function slugInput(value: string | number, warnings: Warning[]): string {
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

export function slugTaken(occupant: MenuRow | undefined, slug: string) {
  return fail(
    "slug_taken",
    { field: "slug", slug, id: occupant?.id ?? null, name: occupant?.name ?? null },
    "Another menu already has this slug.",
  );
}
