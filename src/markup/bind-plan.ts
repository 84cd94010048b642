// What a data-op-bind value compiles to, kept per value text for one compile. A frame writes the
// same few binds again and again (inside repeats, in lists of cards), and everything read from
// the value — its JSON, the targets and their token specs, the warnings about them — depends on
// the text alone, so it is worked out the first time and reused: a bind seen before costs a
// lookup of its text, not a parse, a check of each target and a template scan. The programs
// of those binds share the compiled specs, which nothing changes after compiling.

import type { AnalysisBuilder } from "./analysis.ts";
import { decodeAttributeEntities } from "./escape.ts";
import { parseJsonObject } from "./insert-grammar.ts";
import type { ValueSpec } from "./program.ts";
import { BIND_ATTR } from "./start-tag.ts";
import { type TemplateNotes, valueSpec } from "./templates.ts";

/** What a valid attribute name may contain (HTML attribute-name state). */
const ATTR_NAME = /^[^\s"'>/=\0]+$/;

/** A warning about a bind's value, said again (at that bind's offset) wherever the value is written. */
interface ValueWarning {
  code: string;
  message: string;
  details: Record<string, unknown> | undefined;
}

/** The targets of a bind whose value is a JSON object. */
export interface BindTargets {
  text: ValueSpec | null;
  rawHtml: ValueSpec | null;
  /** Bound attributes, in the order written, each name once. */
  attrs: Array<[string, ValueSpec]>;
  /** The warnings about the value, in the order raised. */
  warnings: ValueWarning[];
}

/** What a value text compiles to: its targets, or why it has none (boxed, so one lookup tells a text not seen yet). */
interface BindPlan {
  targets: BindTargets | "too_deep" | undefined;
}

export class BindPlans {
  private readonly a: AnalysisBuilder;
  private readonly html: string;
  private readonly byText = new Map<string, BindPlan>();

  constructor(a: AnalysisBuilder, html: string) {
    this.a = a;
    this.html = html;
  }

  /**
   * The targets of the bind value html[start, end) at offset `at` (its attribute's name): the
   * analysis hears its tokens and warnings exactly as if the value were compiled here. "too_deep"
   * or undefined when the value is no JSON object of targets.
   */
  targetsOf(start: number, end: number, at: number): BindTargets | "too_deep" | undefined {
    const raw = this.html.slice(start, end);
    let plan = this.byText.get(raw);
    if (plan === undefined) {
      plan = { targets: this.compile(raw, at) };
      this.byText.set(raw, plan);
      return plan.targets;
    }
    const targets = plan.targets;
    // The tokens were recorded the first time (the analysis keeps each token's first offset).
    if (typeof targets === "object") {
      for (const w of targets.warnings) this.a.warn(w.code, w.message, at, w.details && { ...w.details });
    }
    return targets;
  }

  /** Compiles a value seen for the first time, telling the analysis about it as it goes. */
  private compile(raw: string, at: number): BindTargets | "too_deep" | undefined {
    const obj = parseJsonObject((raw.includes("&") ? decodeAttributeEntities(raw) : raw).trim());
    if (obj === undefined || obj === "too_deep") return obj;
    const a = this.a;
    const warnings: ValueWarning[] = [];
    const sink: TemplateNotes = {
      warn(code: string, message: string, at: number, details?: Record<string, unknown>): void {
        warnings.push({ code, message, details: details && { ...details } });
        a.warn(code, message, at, details);
      },
      token(token: string, at: number): void {
        a.token(token, at);
      },
    };
    const targets: BindTargets = { text: null, rawHtml: null, attrs: [], warnings };
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      if (typeof v !== "string" || v.trim() === "") {
        sink.warn("bad_bind", `bind target "${key}" needs a token string`, at);
        continue;
      }
      const value = v.trim();
      if (key !== "text" && key !== "html") {
        if (!ATTR_NAME.test(key) || key.toLowerCase() === BIND_ATTR) {
          sink.warn("bad_bind", `bind target "${key}" is not an attribute name`, at);
          continue;
        }
        if (targets.attrs.some((t) => t[0].toLowerCase() === key.toLowerCase())) {
          sink.warn("bad_bind", `attribute "${key}" is bound twice; the first binding is used`, at);
          continue;
        }
      }
      // A token, or a template of text and tokens with filters (templates.ts).
      const spec = valueSpec(sink, value, at);
      if (key === "text") targets.text = spec;
      else if (key === "html") targets.rawHtml = spec;
      else targets.attrs.push([key, spec]);
    }
    return targets;
  }
}
