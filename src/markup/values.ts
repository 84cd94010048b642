// How token values become text, and how dotted paths read into items and `with` values.

const own = Object.prototype.hasOwnProperty;
const INDEX = /^(?:0|[1-9]\d*)$/;

/**
 * Reads a dotted path (`author.name`, `tags.0`) from a value. Only own properties are read,
 * so `item.constructor` or `item.__proto__` never reach the prototype chain.
 */
export function readPath(root: unknown, path: string): unknown {
  if (path === "") return root;
  let cur: unknown = root;
  let start = 0;
  for (;;) {
    const dot = path.indexOf(".", start);
    const seg = dot < 0 ? path.slice(start) : path.slice(start, dot);
    if (cur === null || typeof cur !== "object") return undefined;
    if (Array.isArray(cur)) {
      if (!INDEX.test(seg)) return undefined;
      cur = cur[Number(seg)];
    } else {
      if (!own.call(cur, seg)) return undefined;
      cur = (cur as Record<string, unknown>)[seg];
    }
    if (dot < 0) return cur;
    start = dot + 1;
  }
}

/**
 * The text of a token value: strings as they are, numbers and booleans stringified.
 * null, undefined, objects and arrays are "no value".
 */
export function scalarText(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
    case "boolean":
    case "bigint":
      return String(value);
    default:
      return undefined;
  }
}
