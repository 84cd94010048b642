// Frame slugs are `block__element--modifier`; element and modifier
// are optional, each part is lower-case words joined by single dashes.

export const SLUG_PATTERN = "^[a-z0-9]+(?:-[a-z0-9]+)*(?:__[a-z0-9]+(?:-[a-z0-9]+)*)?(?:--[a-z0-9]+(?:-[a-z0-9]+)*)?$";
const SLUG = new RegExp(SLUG_PATTERN);

export const SLUG_HINT =
  "Use block__element--modifier: lower-case letters and digits, words joined by single dashes; " +
  "element after a double underscore and modifier after a double dash are optional (e.g. article, article__faq, article__faq--simple).";

export const MAX_SLUG_LENGTH = 200;

export interface SlugParts {
  block: string;
  element: string | null;
  modifier: string | null;
}

/** Slugs are lower-cased on input; surrounding white space is not part of a slug. */
export function normalizeSlug(input: string): string {
  return input.trim().toLowerCase();
}

export function isValidSlug(slug: string): boolean {
  return slug.length > 0 && slug.length <= MAX_SLUG_LENGTH && SLUG.test(slug);
}

/** Splits a valid slug. The block holds no `__` and no `--`, so the first of either ends it. */
export function splitSlug(slug: string): SlugParts {
  const modifierAt = slug.indexOf("--");
  const beforeModifier = modifierAt === -1 ? slug : slug.slice(0, modifierAt);
  const modifier = modifierAt === -1 ? null : slug.slice(modifierAt + 2);
  const elementAt = beforeModifier.indexOf("__");
  return {
    block: elementAt === -1 ? beforeModifier : beforeModifier.slice(0, elementAt),
    element: elementAt === -1 ? null : beforeModifier.slice(elementAt + 2),
    modifier,
  };
}

/** A valid slug close to a rejected input, offered in the refusal; null when nothing is left. */
export function suggestSlug(input: string): string | null {
  const words = (part: string) =>
    part
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "");
  const [head, ...rest] = normalizeSlug(input).split("--");
  const [block, ...elements] = head.split("__");
  const parts = { block: words(block), element: words(elements.join("-")), modifier: words(rest.join("-")) };
  if (!parts.block) return null;
  const suggestion =
    parts.block + (parts.element ? `__${parts.element}` : "") + (parts.modifier ? `--${parts.modifier}` : "");
  return isValidSlug(suggestion) ? suggestion : null;
}
