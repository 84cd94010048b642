// U+0000 cannot be stored in PostgreSQL text, and HTML treats it as a parse error (browsers show
// U+FFFD). So that both stores behave alike, input carrying it is refused up front, naming where.

/** The dotted path of the first string holding U+0000, or null. */
export function nulPath(value: unknown, path = ""): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path || "body" : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], path ? `${path}.${i}` : String(i));
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      if (key.includes("\u0000")) return path ? `${path}.${key}` : key;
      const found = nulPath(child, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return null;
}
