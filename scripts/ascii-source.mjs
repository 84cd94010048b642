// The service's bundle as ASCII only (scripts/build.mjs): Node reads an ASCII file into a
// one-byte string, about three times faster than a file with a single other character (which
// makes the whole 4 MB a two-byte string), and V8 then works on half the bytes (bench/README.md,
// "Cold start"). esbuild already writes strings, templates and identifiers with escapes; what it
// leaves are comments and regular-expression literals. A `\uXXXX` escape stands for the same
// UTF-16 unit in both (and a surrogate pair of escapes for the same code point in a /u or /v
// expression), so every remaining character becomes its escape. The one place an escape would
// mean something else is right after a backslash (`\é`, an identity escape): the build stops
// there rather than guess.
const NON_ASCII = /[^\x00-\x7f]/g;

/** `source` with every character outside ASCII written as \uXXXX (per UTF-16 unit). */
export function asciiSource(source) {
  return source.replace(NON_ASCII, (char, offset) => {
    let backslashes = 0;
    while (source[offset - 1 - backslashes] === "\\") backslashes++;
    if (backslashes % 2 === 1) {
      const line = source.slice(0, offset).split("\n").length;
      throw new Error(
        `ascii-source: a backslash before "${char}" on line ${line}: an escape there would change its meaning`,
      );
    }
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}
