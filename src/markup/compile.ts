// compileFrame: ONE pass of htmlparser2's low-level Tokenizer over the markup produces both
// the analysis report and the program. The tokenizer reports source offsets and each
// attribute's quote style, and builds no tree; it runs without entity decoding because the
// program only ever copies slices of the original string.
//
// This file is the pass itself: it receives the tokenizer's callbacks and hands each piece
// to the part that owns it — start-tag.ts (attributes of the tag being read), element-stack.ts
// (open elements), compile-binds.ts (data-op-bind), compile-inserts.ts (insert comments and
// repeat blocks), all writing through program-builder.ts (the operation lists) and
// analysis.ts (the report).

import { Tokenizer, type QuoteType, type TokenizerCallbacks } from "htmlparser2";
import { AnalysisBuilder } from "./analysis.ts";
import { BindCompiler, type PendingContent } from "./compile-binds.ts";
import { InsertCompiler } from "./compile-inserts.ts";
import { ElementStack, VOID_ELEMENTS } from "./element-stack.ts";
import { parseInsert, type ParsedInsert } from "./insert-grammar.ts";
import type { Op } from "./program.ts";
import { ProgramBuilder } from "./program-builder.ts";
import { StartTag } from "./start-tag.ts";
import { TagNames } from "./tag-names.ts";
import type { CompiledFrame, MarkupWarning } from "./types.ts";

/** Sees each insert comment the compiler recognises: `start`/`end` span the whole comment. */
export type InsertVisitor = (ins: ParsedInsert, start: number, end: number) => void;

class Compiler implements TokenizerCallbacks {
  private readonly html: string;
  readonly a = new AnalysisBuilder();
  private readonly prog = new ProgramBuilder();
  private readonly names: TagNames;
  private readonly tag: StartTag;
  private readonly stack = new ElementStack<PendingContent | null>();
  private readonly binds: BindCompiler;
  private readonly inserts: InsertCompiler;
  /** Called for every comment that parses as an insert (any form), before it is compiled. */
  private readonly visit: InsertVisitor | null;
  private ops: Op[] = [];

  constructor(html: string, visit: InsertVisitor | null = null) {
    this.html = html;
    this.visit = visit;
    this.names = new TagNames(html);
    this.tag = new StartTag(html);
    this.binds = new BindCompiler(this.a, this.prog, this.tag, html);
    this.inserts = new InsertCompiler(this.a, this.prog);
  }

  // ---- tokenizer callbacks ----

  isInForeignContext = (): boolean => this.stack.inForeign();

  onopentagname(start: number, end: number): void {
    const name = this.names.get(start, end);
    this.tag.open(name);
    if (name === "body") this.a.hasBody = true;
  }

  onattribname(start: number, end: number): void {
    this.tag.attribName(start, end);
  }

  onattribdata(start: number, end: number): void {
    this.tag.attribData(start, end);
  }

  onattribentity(): void {}

  onattribend(quote: QuoteType, end: number): void {
    this.tag.attribEnd(quote, end);
  }

  onopentagend(end: number): void {
    this.endTag(end, false);
  }

  onselfclosingtag(end: number): void {
    this.endTag(end, true);
  }

  private endTag(gt: number, selfClosing: boolean): void {
    const name = this.tag.name;
    const empty = selfClosing || VOID_ELEMENTS.has(name);
    let pending: PendingContent | null = null;
    if (this.tag.nBind > 0) pending = this.binds.compile(gt, empty);
    if (!empty) this.stack.push(name, pending);
  }

  onclosetag(start: number, end: number): void {
    const stack = this.stack;
    const k = stack.find(this.names.get(start, end));
    if (k < 0) return; // a close tag with nothing to close
    // Elements above the match are closed implicitly, without a close tag of their own.
    const pending = stack.values;
    for (let m = pending.length - 1; m >= k; m--) {
      const p = pending[m];
      if (!p) continue;
      if (m > k) this.binds.unclosed(p);
      else this.binds.closed(p, start - 2); // the `<` of `</name`
    }
    stack.popTo(k);
  }

  oncomment(start: number, end: number, endOffset: number): void {
    const html = this.html;
    // Only a real `<!-- ... -->`: closed by `-->` (endOffset 2, `>` at end) and opened by `<!--`
    // (bogus comments `<!x>`, `<?x>` and unterminated ones never match).
    if (endOffset !== 2 || html.charCodeAt(end) !== 0x3e || html.charCodeAt(start - 1) !== 0x2d) return;
    if (html.charCodeAt(start - 2) !== 0x2d || html.charCodeAt(start - 3) !== 0x21) return;
    const ins = parseInsert(html, start, end - 2);
    if (ins === null) return;
    if (this.visit !== null) this.visit(ins, start - 4, end + 1);
    this.inserts.compile(ins, start - 4, end + 1);
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

  // ---- end ----

  finish(): void {
    // An unclosed block is not a block: its open comment and body stay plain markup.
    this.ops = this.prog.finish(this.html.length, (openStart, name) => this.inserts.blocks.unclosed(openStart, name));
    for (const p of this.stack.values) if (p) this.binds.unclosed(p);
  }

  program(): Op[] {
    return this.ops;
  }

  get layout() {
    return this.inserts.layout;
  }

  get blockBodies() {
    return this.prog.blocks;
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
  const analysis = c.a.finish();
  withPositions(html, analysis.warnings);
  const program: CompiledFrame["program"] = { ops: c.program() };
  if (c.layout) program.layout = c.layout;
  if (c.blockBodies.length > 0) program.blocks = c.blockBodies;
  return { html, analysis, program };
}

/** The 1-based line and column (UTF-16 units) of an offset in markup. */
export function positionOf(html: string, at: number): { line: number; column: number } {
  const end = Math.min(Math.max(at, 0), html.length);
  let line = 1;
  let lineStart = 0;
  for (let i = html.indexOf("\n"); i >= 0 && i < end; i = html.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: end - lineStart + 1 };
}

/** Gives each warning the 1-based line and column (UTF-16 units) of its offset. */
export function withPositions(html: string, warnings: MarkupWarning[]): void {
  if (warnings.length === 0) return;
  const order = [...warnings].sort((x, y) => x.at - y.at);
  let line = 1;
  let lineStart = 0;
  let i = 0;
  for (const warning of order) {
    const at = Math.min(Math.max(warning.at, 0), html.length);
    for (; i < at; i++) {
      if (html.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    warning.line = line;
    warning.column = at - lineStart + 1;
  }
}

/**
 * Visits every insert comment exactly as compileFrame recognises it (same tokenizer, same
 * foreign-content and raw-text rules), for tools that edit inserts in place.
 */
export function visitInserts(html: string, visit: InsertVisitor): void {
  run(html, visit);
}
