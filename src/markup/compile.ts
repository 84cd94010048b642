// compileFrame: ONE pass of htmlparser2's low-level Tokenizer over the markup produces both
// the analysis report and the program. The tokenizer reports source offsets and each
// attribute's quote style, and builds no tree; it runs without entity decoding because the
// program only ever copies slices of the original string.
//
// Program building: `cursor` is the first source offset not yet covered by an operation.
// A hole (insert, bind attribute, element content) first flushes the static range
// [cursor, holeStart) and then moves the cursor past the hole, so output outside the holes
// is the uploaded text untouched. A repeat block opens a nested operation list ("level").

import { Tokenizer, type QuoteType, type TokenizerCallbacks } from "htmlparser2";
import { AnalysisBuilder } from "./analysis.ts";
import { decodeAttributeEntities } from "./escape.ts";
import { KNOWN_INSERTS, parseInsert, parseJsonObject, type ParsedInsert } from "./insert-grammar.ts";
import { frameOp, insertOp, langOp, menuOp, repeatOp } from "./insert-ops.ts";
import type { ContentOp, Op, RepeatOp } from "./program.ts";
import type { CompiledFrame } from "./types.ts";

/** Elements without content: never on the element stack, and a text/html bind on them is refused. */
const VOID_ELEMENTS = new Set([
  "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
]);

/** What a valid attribute name may contain (HTML attribute-name state). */
const ATTR_NAME = /^[^\s"'>/=\0]+$/;

// htmlparser2's QuoteType values. Read through the package's re-export getter they cost a
// property lookup per attribute, so the numbers are kept here.
const NO_VALUE = 0 as QuoteType;
const DOUBLE = 3 as QuoteType;

/** `data-op-bind`, compared by char code so attributes need no string allocation. */
const BIND_ATTR = "data-op-bind";

/** Sees each insert comment the compiler recognises: `start`/`end` span the whole comment. */
export type InsertVisitor = (ins: ParsedInsert, start: number, end: number) => void;

interface Level {
  ops: Op[];
  /** The repeat block this level is the body of (null for the top level). */
  repeat: RepeatOp | null;
  openStart: number;
  openEnd: number;
}

/** An element whose content a text/html bind will replace once its close tag is seen. */
interface PendingContent {
  op: ContentOp;
  level: Level;
  /** Index of `op` in level.ops: the operations after it are the element's content. */
  mark: number;
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x0c;
}

class Compiler implements TokenizerCallbacks {
  private readonly html: string;
  readonly a = new AnalysisBuilder();
  private cursor = 0;
  private readonly levels: Level[];
  private level: Level;

  // The start tag being read. Attribute positions go into reused arrays: only tags that
  // carry a bind ever look at them again.
  private tagName = "";
  private nAttr = 0;
  private readonly nameS: number[] = [];
  private readonly nameE: number[] = [];
  private readonly valS: number[] = [];
  private readonly valE: number[] = [];
  private readonly quote: QuoteType[] = [];
  private readonly attrEnd: number[] = [];
  /** Indexes of data-op-bind attributes on the current tag (the first one is the bind); nBind in use. */
  private readonly bindIdx: number[] = [];
  private nBind = 0;
  /** Tag names seen so far, so a tag name costs no allocation after its first occurrence. */
  private readonly names = new Map<number, string[]>();
  /** Parsed bind values by raw text: repeated binds (typical inside repeats) parse once. */
  private readonly bindCache = new Map<string, Record<string, unknown> | undefined>();

  // Open elements, matched textually by name; `openCounts` makes a stray close tag O(1).
  private readonly stackNames: string[] = [];
  private readonly stackBinds: Array<PendingContent | null> = [];
  private readonly openCounts = new Map<string, number>();
  private foreign = 0;

  /** Called for every comment that parses as an insert (any form), before it is compiled. */
  private readonly visit: InsertVisitor | null;

  constructor(html: string, visit: InsertVisitor | null = null) {
    this.html = html;
    this.visit = visit;
    this.level = { ops: [], repeat: null, openStart: 0, openEnd: 0 };
    this.levels = [this.level];
  }

  // ---- program building ----

  private flush(end: number): void {
    if (end > this.cursor) this.level.ops.push({ t: "static", s: this.cursor, e: end });
  }

  /** Replaces html[start, end) by `op` (or by nothing). */
  private hole(start: number, end: number, op: Op | null): void {
    this.flush(start);
    if (op !== null) this.level.ops.push(op);
    this.cursor = end;
  }

  // ---- tokenizer callbacks ----

  isInForeignContext = (): boolean => this.foreign > 0;

  onopentagname(start: number, end: number): void {
    this.tagName = this.name(start, end);
    this.nAttr = 0;
    this.nBind = 0;
    if (this.tagName === "body") this.a.hasBody = true;
  }

  onattribname(start: number, end: number): void {
    const i = this.nAttr++;
    this.nameS[i] = start;
    this.nameE[i] = end;
    this.valS[i] = -1;
    this.valE[i] = -1;
    this.quote[i] = NO_VALUE;
    this.attrEnd[i] = end;
    if (end - start === 12 && this.isBindName(start)) this.bindIdx[this.nBind++] = i;
  }

  /** The lower-case name html[start, end), interned: compared by char code against names seen before. */
  private name(start: number, end: number): string {
    const html = this.html;
    const len = end - start;
    const key = len * 128 + (html.charCodeAt(start) | 0x20);
    let bucket = this.names.get(key);
    if (bucket !== undefined) {
      outer: for (let b = 0; b < bucket.length; b++) {
        const cand = bucket[b]!;
        for (let k = 0; k < len; k++) {
          const c = html.charCodeAt(start + k);
          // Fold ASCII upper case only; anything else must match exactly.
          const lc = c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
          if (lc !== cand.charCodeAt(k)) continue outer;
        }
        return cand;
      }
    } else {
      bucket = [];
      this.names.set(key, bucket);
    }
    const fresh = html.slice(start, end).toLowerCase();
    // A name with non-ASCII capitals never matches above (only ASCII is folded there), so it is
    // sliced each time; the cap keeps such buckets small.
    if (bucket.length < 8) bucket.push(fresh);
    return fresh;
  }

  private isBindName(start: number): boolean {
    const html = this.html;
    for (let k = 0; k < 12; k++) {
      // ASCII lower-casing by OR 0x20 is exact for letters; `-` (0x2d) has the bit set already.
      if ((html.charCodeAt(start + k) | 0x20) !== BIND_ATTR.charCodeAt(k)) return false;
    }
    return true;
  }

  onattribdata(start: number, end: number): void {
    const i = this.nAttr - 1;
    if (this.valS[i]! < 0) this.valS[i] = start;
    this.valE[i] = end;
  }

  onattribentity(): void {}

  onattribend(quote: QuoteType, end: number): void {
    const i = this.nAttr - 1;
    this.quote[i] = quote;
    this.attrEnd[i] = end;
  }

  onopentagend(end: number): void {
    this.endTag(end, false);
  }

  onselfclosingtag(end: number): void {
    this.endTag(end, true);
  }

  private endTag(gt: number, selfClosing: boolean): void {
    const name = this.tagName;
    const empty = selfClosing || VOID_ELEMENTS.has(name);
    let pending: PendingContent | null = null;
    if (this.nBind > 0) pending = this.compileBind(gt, empty);
    if (empty) return;
    this.stackNames.push(name);
    this.stackBinds.push(pending);
    this.openCounts.set(name, (this.openCounts.get(name) ?? 0) + 1);
    if (name === "svg" || name === "math") this.foreign++;
  }

  onclosetag(start: number, end: number): void {
    const name = this.name(start, end);
    if (!this.openCounts.get(name)) return; // a close tag with nothing to close
    const names = this.stackNames;
    let k = names.length - 1;
    while (names[k] !== name) k--;
    // Elements above the match are closed implicitly, without a close tag of their own.
    for (let m = names.length - 1; m >= k; m--) {
      const nm = names[m]!;
      this.openCounts.set(nm, this.openCounts.get(nm)! - 1);
      if (nm === "svg" || nm === "math") this.foreign--;
      const p = this.stackBinds[m];
      if (!p) continue;
      if (m > k) this.unclosedBind(p);
      else if (p.level !== this.level) {
        this.a.warn(
          "bind_crosses_repeat",
          "a bound element and a svc/repeat block overlap; the bound value is written after the start tag and the content is kept",
          p.op.at,
        );
      } else {
        // Drop the element's content from the program: the bound value replaces it.
        const ops = p.level.ops;
        while (ops.length > p.mark + 1) ops.pop();
        p.op.replace = true;
        this.cursor = start - 2; // the `<` of `</name`
      }
    }
    while (names.length > k) {
      names.pop();
      this.stackBinds.pop();
    }
  }

  private unclosedBind(p: PendingContent): void {
    this.a.warn(
      "bind_element_not_closed",
      "the bound element has no close tag of its own; the bound value is written after the start tag and the content is kept",
      p.op.at,
    );
  }

  oncomment(start: number, end: number, endOffset: number): void {
    const html = this.html;
    // Only a real `<!-- ... -->`: closed by `-->` (endOffset 2, `>` at end) and opened by `<!--`
    // (bogus comments `<!x>`, `<?x>` and unterminated ones never match).
    if (endOffset !== 2 || html.charCodeAt(end) !== 0x3e || html.charCodeAt(start - 1) !== 0x2d) return;
    if (html.charCodeAt(start - 2) !== 0x2d || html.charCodeAt(start - 3) !== 0x21) return;
    const ins = parseInsert(html, start, end - 2);
    if (ins === null) return;
    this.insert(ins, start - 4, end + 1);
  }

  ondeclaration(): void {
    // In HTML mode only `<!doctype ...>` reaches the declaration callback.
    this.a.hasDoctype = true;
  }

  oncdata(): void {}
  onprocessinginstruction(): void {}
  ontext(): void {}
  ontextentity(): void {}
  onend(): void {}

  // ---- inserts ----

  private insert(ins: ParsedInsert, start: number, end: number): void {
    if (this.visit !== null) this.visit(ins, start, end);
    const kind = KNOWN_INSERTS.get(ins.full);
    if (ins.form === "close") {
      if (kind === "repeat") this.closeRepeat(start, end);
      return; // `<!-- /svc/other -->` is an ordinary comment
    }
    if (ins.form === "open") {
      if (kind === "repeat") {
        this.openRepeat(ins, start, end);
      } else if (kind !== undefined) {
        this.a.warn(
          "insert_not_self_closing",
          `${ins.full} must end with "/-->"; this comment is left as it is`,
          start,
        );
      }
      return; // any other `<!-- svc/x ... -->` is an ordinary comment
    }

    this.a.insert(ins.full, kind !== undefined);
    if (ins.paramsError) {
      this.a.warn("bad_insert_params", `the parameters of ${ins.full} are not a JSON object; it prints nothing`, start);
    }
    if (kind === undefined) {
      this.hole(start, end, insertOp("unknown", ins, start));
      return;
    }
    if (ins.paramsError) {
      if (kind === "repeat") this.a.repeats++;
      this.hole(start, end, insertOp("invalid", ins, start));
      return;
    }
    switch (kind) {
      case "repeat": {
        // A self-closed repeat is a block with an empty body.
        const op = repeatOp(this.a, ins, start);
        this.hole(start, end, op);
        return;
      }
      case "frame":
      case "partial":
        this.hole(start, end, frameOp(this.a, kind, ins, start));
        return;
      case "menu":
        this.hole(start, end, menuOp(this.a, ins, start));
        return;
      case "lang":
        this.a.source("languages");
        this.a.liveReason("insert op/lang-switcher");
        this.hole(start, end, langOp(this.a, ins, start));
        return;
    }
  }

  private openRepeat(ins: ParsedInsert, start: number, end: number): void {
    this.a.insert(ins.full, true);
    if (ins.paramsError) {
      this.a.warn("bad_insert_params", `the parameters of ${ins.full} are not a JSON object; the block prints nothing`, start);
    }
    const op = repeatOp(this.a, ins, start);
    this.flush(start);
    this.cursor = end;
    this.level = { ops: [], repeat: op, openStart: start, openEnd: end };
    this.levels.push(this.level);
  }

  private closeRepeat(start: number, end: number): void {
    if (this.levels.length === 1) {
      this.a.warn("stray_repeat_close", "<!-- /svc/repeat --> without an open svc/repeat; left as it is", start);
      return;
    }
    this.flush(start);
    const inner = this.levels.pop()!;
    inner.repeat!.body = inner.ops;
    this.level = this.levels[this.levels.length - 1]!;
    this.level.ops.push(inner.repeat!);
    this.cursor = end;
  }

  // ---- binds ----

  /** Start of the white space before attribute i: removing an attribute removes it too. */
  private wsBefore(i: number): number {
    let p = this.nameS[i]!;
    while (p > 0 && isWs(this.html.charCodeAt(p - 1))) p--;
    return p;
  }

  /**
   * Compiles the bind of the current start tag (its `>` is at `gt`). Returns the pending
   * content replacement when the bind has a text/html target.
   */
  private compileBind(gt: number, empty: boolean): PendingContent | null {
    const html = this.html;
    const a = this.a;
    const bi = this.bindIdx[0]!;
    const at = this.nameS[bi]!;
    const tag = this.tagName;
    a.bindTag(tag);
    const q = this.quote[bi]!;
    let obj: Record<string, unknown> | undefined;
    if (q !== NO_VALUE) {
      const raw = this.valS[bi]! < 0 ? "" : html.slice(this.valS[bi], this.valE[bi]);
      if (this.bindCache.has(raw)) obj = this.bindCache.get(raw);
      else {
        obj = parseJsonObject((raw.includes("&") ? decodeAttributeEntities(raw) : raw).trim());
        this.bindCache.set(raw, obj);
      }
    }
    if (obj === undefined) {
      if (q === DOUBLE) {
        // HTML ended the value at the JSON's first `"`; the rest became other attributes.
        // The tag is left exactly as written so the mistake stays visible in the page source.
        a.warn("bind_double_quoted", "data-op-bind must be written in single quotes: HTML cut this value off at its first double quote", at);
        return null;
      }
      a.warn("bad_bind", "data-op-bind is not a JSON object of target: token; the attribute is dropped", at);
      this.emitAttrHoles(null);
      return null;
    }

    let text: string | null = null;
    let rawHtml: string | null = null;
    const attrTargets: Array<[string, string]> = [];
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      if (typeof v !== "string" || v.trim() === "") {
        a.warn("bad_bind", `bind target "${key}" needs a token string`, at);
        continue;
      }
      const token = v.trim();
      if (key === "text") text = token;
      else if (key === "html") rawHtml = token;
      else if (!ATTR_NAME.test(key) || key.toLowerCase() === BIND_ATTR) {
        a.warn("bad_bind", `bind target "${key}" is not an attribute name`, at);
        continue;
      } else if (attrTargets.some((t) => t[0].toLowerCase() === key.toLowerCase())) {
        a.warn("bad_bind", `attribute "${key}" is bound twice; the first binding is used`, at);
        continue;
      } else attrTargets.push([key, token]);
      a.token(token, at);
    }
    if (this.nBind > 1) {
      a.warn("duplicate_bind", "only the first data-op-bind of an element is used; the others are dropped", this.nameS[this.bindIdx[1]!]!);
    }
    this.emitAttrHoles(attrTargets);

    if (text !== null && rawHtml !== null) {
      a.warn("bind_text_and_html", `both "text" and "html" are bound; "html" is used`, at);
    }
    const contentToken = rawHtml ?? text;
    if (contentToken === null) return null;
    if (empty) {
      a.warn("bind_void_element", `<${tag}> has no content; its "text"/"html" target is ignored`, at);
      return null;
    }
    this.flush(gt + 1);
    this.cursor = gt + 1;
    const mode = rawHtml !== null ? "html" : tag === "script" || tag === "style" ? "rawtext" : "text";
    const op: ContentOp = { t: "content", mode, token: contentToken, replace: false, at };
    this.level.ops.push(op);
    return { op, level: this.level, mark: this.level.ops.length - 1 };
  }

  /**
   * Emits, in attribute order, the holes of a bound start tag: the data-op-bind attribute
   * (replaced by the bound attributes that have no place yet), and existing attributes that a
   * bound attribute replaces. `targets` null means a broken bind: only the attribute is dropped.
   */
  private emitAttrHoles(targets: ReadonlyArray<[string, string]> | null): void {
    const n = this.nAttr;
    const bindFirst = this.bindIdx[0]!;
    const nt = targets === null ? 0 : targets.length;
    // existing[t] = index of the first attribute already on the element named like target t.
    const existing: number[] = [];
    for (let t = 0; t < nt; t++) existing.push(-1);
    if (nt > 0) {
      for (let j = 0; j < n; j++) {
        if (this.isBindAttr(j)) continue;
        const t = this.targetOf(j, targets!);
        if (t >= 0 && existing[t] === -1) existing[t] = j;
      }
    }
    for (let j = 0; j < n; j++) {
      if (j === bindFirst) {
        const unplaced: Array<[string, string]> = [];
        for (let t = 0; t < nt; t++) if (existing[t] === -1) unplaced.push(targets![t]!);
        // Stands in for the dropped attribute; a broken bind still counts as a bound element.
        this.hole(this.wsBefore(j), this.attrEnd[j]!, { t: "bind", tag: this.tagName, at: this.nameS[j]!, attrs: unplaced });
        continue;
      }
      if (this.isBindAttr(j)) {
        this.hole(this.wsBefore(j), this.attrEnd[j]!, null);
        continue;
      }
      if (nt === 0) continue;
      const t = this.targetOf(j, targets!);
      if (t < 0) continue;
      const ws = this.wsBefore(j);
      if (existing[t] === j) {
        this.hole(ws, this.attrEnd[j]!, { t: "attr", ws, nameStart: this.nameS[j]!, name: targets![t]![0], token: targets![t]![1] });
      } else {
        this.hole(ws, this.attrEnd[j]!, null); // a duplicate of a bound attribute
      }
    }
  }

  private isBindAttr(j: number): boolean {
    for (let b = 0; b < this.nBind; b++) if (this.bindIdx[b] === j) return true;
    return false;
  }

  /** Index of the bound target named like attribute j (ASCII case-insensitive), or -1. */
  private targetOf(j: number, targets: ReadonlyArray<[string, string]>): number {
    const html = this.html;
    const s = this.nameS[j]!;
    const len = this.nameE[j]! - s;
    outer: for (let t = 0; t < targets.length; t++) {
      const name = targets[t]![0];
      if (name.length !== len) continue;
      for (let k = 0; k < len; k++) {
        let a = html.charCodeAt(s + k);
        let b = name.charCodeAt(k);
        if (a >= 0x41 && a <= 0x5a) a |= 0x20;
        if (b >= 0x41 && b <= 0x5a) b |= 0x20;
        if (a !== b) continue outer;
      }
      return t;
    }
    return -1;
  }

  // ---- end ----

  finish(): void {
    this.flush(this.html.length);
    this.cursor = this.html.length;
    // An unclosed repeat is not a block: its open comment and body stay plain markup.
    while (this.levels.length > 1) {
      const inner = this.levels.pop()!;
      const parent = this.levels[this.levels.length - 1]!;
      this.a.warn("unclosed_repeat", "svc/repeat has no <!-- /svc/repeat -->; the block is printed once, as written", inner.openStart);
      parent.ops.push({ t: "static", s: inner.openStart, e: inner.openEnd });
      for (const op of inner.ops) parent.ops.push(op);
      this.level = parent;
    }
    for (const p of this.stackBinds) if (p) this.unclosedBind(p);
  }

  program(): Op[] {
    return this.levels[0]!.ops;
  }
}

function run(html: string, visit: InsertVisitor | null): Compiler {
  const c = new Compiler(html, visit);
  const tokenizer = new Tokenizer({ decodeEntities: false }, c);
  tokenizer.write(html);
  tokenizer.end();
  c.finish();
  return c;
}

/** Compiles frame markup into its analysis report and render program (one tokenizer pass). */
export function compileFrame(html: string): CompiledFrame {
  const c = run(html, null);
  return { html, analysis: c.a.finish(), program: { ops: c.program() } };
}

/**
 * Visits every insert comment exactly as compileFrame recognises it (same tokenizer, same
 * foreign-content and raw-text rules), for tools that edit inserts in place.
 */
export function visitInserts(html: string, visit: InsertVisitor): void {
  run(html, visit);
}
