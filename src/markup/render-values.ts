// What a render reads (render.ts): tokens from the RenderContext, asked once each, item.* and
// vars.* from the scope at a point of the output, templates, svc/if conditions and the items a
// svc/repeat runs over. Tokens that read nothing are gathered in `unresolved`.

import { sourceName } from "./source-name.ts";
import type { IfOp, ValueSpec } from "./program.ts";
import { renderTemplate } from "./templates.ts";
import type { RepeatSource } from "./tokens.ts";
import type { RenderContext } from "./types.ts";
import { readPath, scalarText } from "./values.ts";

/** What item.* and vars.* read at a point of the output. */
export interface Scope {
  hasItem: boolean;
  item: unknown;
  vars: Record<string, unknown> | null;
  /** The current items came from a menu: their children are menu nodes too (valid:false skipped). */
  fromMenu: boolean;
}

export const TOP_SCOPE: Scope = { hasItem: false, item: undefined, vars: null, fromMenu: false };

export class RenderValues {
  readonly unresolved = new Set<string>();
  /** Context values are the same for the whole render: ask the context once per token. */
  private readonly memo = new Map<string, unknown>();
  /** The language formats follow (templates' date and number filters): the output's, else English. */
  private lang: string | undefined;

  constructor(private readonly ctx: RenderContext) {}

  /** The value of a token as the context (or the item, or `with`) holds it; undefined when none. */
  private raw(token: string, scope: Scope): unknown {
    if (token.startsWith("item.")) return scope.hasItem ? readPath(scope.item, token.slice(5)) : undefined;
    if (token.startsWith("vars.")) return scope.vars !== null ? readPath(scope.vars, token.slice(5)) : undefined;
    if (this.memo.has(token)) return this.memo.get(token);
    const value = this.ctx.value(token);
    this.memo.set(token, value);
    return value;
  }

  /** The language of the output (the page's, else the site's default), else English: what formats and orders follow. */
  language(): string {
    this.lang ??= scalarText(this.ctx.value("site.lang")) || "en";
    return this.lang;
  }

  /** The text of a bind value (a token or a template), or undefined (then listed as unresolved). */
  value(spec: ValueSpec, scope: Scope): string | undefined {
    if (typeof spec !== "string") {
      return renderTemplate(
        spec.parts,
        (token) => this.raw(token, scope),
        this.language(),
        (token) => this.unresolved.add(token),
      );
    }
    const text = scalarText(this.raw(spec, scope));
    if (text === undefined) this.unresolved.add(spec);
    return text;
  }

  /** svc/if: whether the branch before svc/else is printed. */
  truth(op: IfOp, scope: Scope): boolean {
    const value = this.raw(op.token, scope);
    const yes =
      op.equals === null
        ? (scalarText(value) ?? "") !== ""
        : (value === null ? "null" : scalarText(value)) === op.equals;
    return op.not ? !yes : yes;
  }

  /**
   * The items a svc/repeat runs over (undefined: its source names none; an item path is then
   * listed as unresolved), and whether they are menu nodes.
   */
  repeatItems(src: RepeatSource, scope: Scope): { items: readonly unknown[] | undefined; fromMenu: boolean } {
    if (src.kind === "item") {
      const v = scope.hasItem ? readPath(scope.item, src.path) : undefined;
      const items = Array.isArray(v) ? v : undefined;
      if (items === undefined) this.unresolved.add(src.token);
      return { items, fromMenu: scope.fromMenu };
    }
    const named = sourceName(src.source);
    let items = this.ctx.items(src.source);
    if (items === undefined && named.kind === "menu") items = this.ctx.menu(named.location);
    return { items, fromMenu: named.kind === "menu" };
  }
}
