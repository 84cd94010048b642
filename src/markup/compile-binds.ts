// Compiles data-op-bind (docs/markup.md, "Binds"): reads the bind's JSON object on a start
// tag, records what the analysis reports about it, and turns it into program holes — the
// bound attributes (in place of an attribute of that name, else where data-op-bind stood)
// and, for a text/html target, the element's content, which is replaced once the element's
// own close tag is seen. Kept apart from the tokenizer callbacks because the bind rules
// (targets, duplicates, double quotes, void and raw-text elements) are a job of their own.

import type { AnalysisBuilder } from "./analysis.ts";
import { BindPlans, type BindTargets } from "./bind-plan.ts";
import { MAX_JSON_DEPTH } from "./json-scan.ts";
import type { ContentOp, ValueSpec } from "./program.ts";
import type { Level, ProgramBuilder } from "./program-builder.ts";
import { DOUBLE, NO_VALUE, type StartTag } from "./start-tag.ts";

/** An element whose content a text/html bind will replace once its close tag is seen. */
export interface PendingContent {
  op: ContentOp;
  level: Level;
  /** Index of `op` in level.ops: the operations after it are the element's content. */
  mark: number;
}

export class BindCompiler {
  private readonly a: AnalysisBuilder;
  private readonly prog: ProgramBuilder;
  private readonly tag: StartTag;
  /** Bind values compiled once per text: repeated binds (typical inside repeats) are looked up. */
  private readonly plans: BindPlans;
  /** Per attribute of the bound tag: the index of the target named like it, -1 for none (reused from tag to tag). */
  private readonly targetAt: number[] = [];
  /** Per target: the first attribute of the bound tag named like it, -1 for none (reused from tag to tag). */
  private readonly firstAt: number[] = [];

  constructor(a: AnalysisBuilder, prog: ProgramBuilder, tag: StartTag, html: string) {
    this.a = a;
    this.prog = prog;
    this.tag = tag;
    this.plans = new BindPlans(a, html);
  }

  /**
   * Compiles the bind of the current start tag (its `>` is at `gt`; `empty` when the element
   * has no content). Returns the pending content replacement when the bind has a text/html target.
   */
  compile(gt: number, empty: boolean): PendingContent | null {
    const a = this.a;
    const st = this.tag;
    const bi = st.bindIdx[0]!;
    const at = st.nameS[bi]!;
    const tag = st.name;
    a.bindTag(tag);
    const q = st.quote[bi]!;
    // No value at all is no JSON object; a quoted empty value (valS -1) is the empty text.
    const vs = st.valS[bi]!;
    let targets: BindTargets | "too_deep" | undefined;
    if (q !== NO_VALUE) targets = vs < 0 ? this.plans.targetsOf(0, 0, at) : this.plans.targetsOf(vs, st.valE[bi]!, at);
    if (targets === "too_deep") {
      a.warn("bind_too_deep", `data-op-bind nests deeper than ${MAX_JSON_DEPTH} levels; the attribute is dropped`, at);
      this.emitAttrHoles(null);
      return null;
    }
    if (targets === undefined) {
      if (q === DOUBLE) {
        // HTML ended the value at the JSON's first `"`; the rest became other attributes.
        // The tag is left exactly as written so the mistake stays visible in the page source.
        a.warn(
          "bind_double_quoted",
          "data-op-bind must be written in single quotes: HTML cut this value off at its first double quote",
          at,
        );
        return null;
      }
      a.warn("bad_bind", "data-op-bind is not a JSON object of target: token; the attribute is dropped", at);
      this.emitAttrHoles(null);
      return null;
    }

    const { text, rawHtml } = targets;
    if (st.nBind > 1) {
      a.warn(
        "duplicate_bind",
        "only the first data-op-bind of an element is used; the others are dropped",
        st.nameS[st.bindIdx[1]!]!,
      );
    }
    this.emitAttrHoles(targets.attrs);

    if (text !== null && rawHtml !== null) {
      a.warn("bind_text_and_html", `both "text" and "html" are bound; "html" is used`, at);
    }
    const contentToken = rawHtml ?? text;
    if (contentToken === null) return null;
    if (empty) {
      a.warn("bind_void_element", `<${tag}> has no content; its "text"/"html" target is ignored`, at);
      return null;
    }
    const mode = rawHtml !== null ? "html" : tag === "script" || tag === "style" ? "rawtext" : "text";
    const op: ContentOp = { t: "content", mode, token: contentToken, replace: false, at };
    // An empty hole right after the start tag: the value goes there, the content stays for now.
    this.prog.hole(gt + 1, gt + 1, op);
    const level = this.prog.level;
    return { op, level, mark: level.ops.length - 1 };
  }

  /**
   * Emits, in attribute order, the holes of a bound start tag: the data-op-bind attribute
   * (replaced by the bound attributes that have no place yet), and existing attributes that a
   * bound attribute replaces. `targets` null means a broken bind: only the attribute is dropped.
   */
  private emitAttrHoles(targets: ReadonlyArray<[string, ValueSpec]> | null): void {
    const st = this.tag;
    const prog = this.prog;
    const n = st.n;
    const bindFirst = st.bindIdx[0]!;
    const nt = targets === null ? 0 : targets.length;
    const targetAt = this.targetAt;
    const firstAt = this.firstAt;
    for (let t = 0; t < nt; t++) firstAt[t] = -1;
    for (let j = 0; j < n; j++) {
      const t = nt === 0 || st.isBindAttr(j) ? -1 : st.targetOf(j, targets!);
      targetAt[j] = t;
      if (t >= 0 && firstAt[t] === -1) firstAt[t] = j;
    }
    for (let j = 0; j < n; j++) {
      if (j === bindFirst) {
        const unplaced: Array<[string, ValueSpec]> = [];
        for (let t = 0; t < nt; t++) if (firstAt[t] === -1) unplaced.push(targets![t]!);
        // Stands in for the dropped attribute; a broken bind still counts as a bound element.
        prog.hole(st.wsBefore(j), st.attrEnd[j]!, { t: "bind", tag: st.name, at: st.nameS[j]!, attrs: unplaced });
        continue;
      }
      if (st.isBindAttr(j)) {
        prog.hole(st.wsBefore(j), st.attrEnd[j]!, null);
        continue;
      }
      const t = targetAt[j]!;
      if (t < 0) continue;
      const ws = st.wsBefore(j);
      if (firstAt[t] === j) {
        prog.hole(ws, st.attrEnd[j]!, {
          t: "attr",
          ws,
          nameStart: st.nameS[j]!,
          name: targets![t]![0],
          token: targets![t]![1],
        });
      } else {
        prog.hole(ws, st.attrEnd[j]!, null); // a duplicate of a bound attribute
      }
    }
  }

  /**
   * The bound element's own close tag starts at `closeStart`: its content is dropped from the
   * program and the bound value replaces it. When a repeat block opened or closed inside the
   * element, the content is kept (the value stays right after the start tag) and a warning says so.
   */
  closed(p: PendingContent, closeStart: number): void {
    if (p.level !== this.prog.level) {
      this.a.warn(
        "bind_crosses_repeat",
        "a bound element and a svc/repeat block overlap; the bound value is written after the start tag and the content is kept",
        p.op.at,
      );
      return;
    }
    p.op.replace = true;
    this.prog.dropAfter(p.mark, closeStart);
  }

  /** The bound element was closed implicitly (or never): the value is written after the start tag, the content kept. */
  unclosed(p: PendingContent): void {
    this.a.warn(
      "bind_element_not_closed",
      "the bound element has no close tag of its own; the bound value is written after the start tag and the content is kept",
      p.op.at,
    );
  }
}
