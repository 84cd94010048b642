// The parser of every JSON body (app.ts registers it for application/json and application/*+json).
import { fail, preFail } from "./errors.ts";
import { nulPath } from "./nul.ts";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "../markup/json-scan.ts";

/**
 * Every JSON body. Its depth is measured on the text before it is parsed (one linear pass), so a
 * body nested deeper than MAX_JSON_DEPTH is 400 body_too_deep before any work and no recursive
 * code (nulPath, validation, JSON.stringify of what is stored) ever sees deep input.
 */
export function parseJsonBody(_request: unknown, body: string, done: (error: Error | null, value?: unknown) => void) {
  if (nestedDeeperThan(body, MAX_JSON_DEPTH)) return done(fail("body_too_deep", { max_depth: MAX_JSON_DEPTH }));
  if (body.trim() === "") return done(null, {});
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return done(fail("invalid_json"));
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return done(fail("invalid_body"));
  const nul = nulPath(value);
  if (nul)
    return done(
      preFail(
        "invalid_field",
        { field: nul, reason: "nul_character" },
        `${nul} contains U+0000, which cannot be stored.`,
      ),
    );
  done(null, value);
}
