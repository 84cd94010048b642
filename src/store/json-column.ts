// Stored JSON read back through a schema: a `*_json` column's text (or a message another process
// wrote, publish/invalidation-messages.ts) parsed and checked against the TypeBox schema of what it
// holds, so a reader gets a typed value and meets a corrupt one in one place. Each reader states
// what a corrupt value gets: `read` throws `CorruptJson`, naming the column and where the value
// fails its schema (never the value: a column may hold a page's private fields); `readOr` answers
// the fallback it is given, for readers that must answer whatever is stored (a public render).
// The schema is compiled on first use (TypeCompiler, as http/validation.ts does): TypeBox's
// interpreted `Value.Check` took 2.5 times as long as the parse itself on a frame's analysis, and the
// frame graph reads every frame's.
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";

/** Stored JSON that does not hold what its schema says. */
export class CorruptJson extends Error {
  constructor(
    readonly column: string,
    readonly problem: string,
  ) {
    super(`${column}: the stored JSON ${problem}`);
    this.name = "CorruptJson";
  }
}

/**
 * A JSON object (not an array, not null) of any values, typed as a record: its keys are not
 * visited, where `Type.Record` checks each (half as long again as the parse on a data set's items).
 */
export const AnyObject = Type.Unsafe<Record<string, unknown>>(Type.Object({}));

type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/** A stored JSON column and the schema of what it holds. */
export class JsonColumn<S extends TSchema> {
  private checker: TypeCheck<S> | undefined;

  constructor(
    /** What the column is, as errors name it: `pages.fields_json`. */
    readonly name: string,
    readonly schema: S,
  ) {}

  /** The stored value; `CorruptJson` when the text is not JSON or fails the schema. */
  read(text: string): Static<S> {
    const checked = this.check(text);
    if (checked.ok) return checked.value;
    throw new CorruptJson(this.name, checked.problem);
  }

  /** The stored value, or `fallback` when the text is not JSON or fails the schema. */
  readOr<F>(text: string, fallback: F): Static<S> | F {
    const checked = this.check(text);
    return checked.ok ? checked.value : fallback;
  }

  private check(text: string): Checked<Static<S>> {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { ok: false, problem: "is not JSON" };
    }
    this.checker ??= TypeCompiler.Compile(this.schema);
    if (this.checker.Check(value)) return { ok: true, value };
    const first = this.checker.Errors(value).First();
    return { ok: false, problem: first ? `fails its schema at "${first.path}": ${first.message}` : "fails its schema" };
  }
}

/** A stored JSON column read through `schema`. */
export function jsonColumn<S extends TSchema>(name: string, schema: S): JsonColumn<S> {
  return new JsonColumn(name, schema);
}
