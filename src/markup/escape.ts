// HTML escaping for values written into text and attribute values, and the small entity
// decoder used on bind attribute values (the tokenizer runs without entity decoding).

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const NEEDS_ESCAPE = /[&<>"']/;
const ESCAPE_ALL = /[&<>"']/g;

/** Escapes a value for element text. Quotes too, so the same output is safe in any context. */
export function escapeText(value: string): string {
  // Most values need nothing: test first so the common case allocates nothing.
  return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPE_ALL, (c) => ESCAPES[c]!) : value;
}

/** Escapes a value for a double-quoted attribute value. */
export const escapeAttr = escapeText;

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
const ENTITY = /&(?:#(\d+)|#[xX]([0-9a-fA-F]+)|([a-zA-Z]+));?/g;

/**
 * Decodes the character references a hand-written attribute value is likely to hold
 * (`&quot;`, `&#39;`, `&amp;`, numeric ones). Browsers decode them in attribute values, so a
 * bind written `data-op-bind="{&quot;text&quot;: &quot;page.title&quot;}"` means the JSON it shows.
 * Unknown names are left as written.
 */
export function decodeAttributeEntities(value: string): string {
  return value.replace(ENTITY, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED[name] ?? whole;
    const cp = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16);
    if (!Number.isFinite(cp) || cp <= 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return "\ufffd";
    return String.fromCodePoint(cp);
  });
}
