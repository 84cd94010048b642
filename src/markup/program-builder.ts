// Builds the program (the operation lists of program.ts) while the compiler walks the markup.
// Kept apart from the tokenizer callbacks so the one rule that keeps output outside the
// holes byte for byte lives in one place:
//
// `cursor` is the first source offset not yet covered by an operation. A hole (insert, bind
// attribute, element content) first flushes the static range [cursor, holeStart) and then
// moves the cursor past the hole, so output outside the holes is the uploaded text untouched.
// A repeat block opens a nested operation list ("level") that becomes the block's body.

import type { Op, RepeatOp } from "./program.ts";

export interface Level {
  ops: Op[];
  /** The repeat block this level is the body of (null for the top level). */
  repeat: RepeatOp | null;
  openStart: number;
  openEnd: number;
}

export class ProgramBuilder {
  private cursor = 0;
  private readonly levels: Level[];
  /** The innermost open level: where operations go. Changed only by this class. */
  level: Level;

  constructor() {
    this.level = { ops: [], repeat: null, openStart: 0, openEnd: 0 };
    this.levels = [this.level];
  }

  /** Adds the static range [cursor, end) to the current level, if it is not empty. */
  flush(end: number): void {
    if (end > this.cursor) this.level.ops.push({ t: "static", s: this.cursor, e: end });
  }

  /** Replaces html[start, end) by `op` (or by nothing). */
  hole(start: number, end: number, op: Op | null): void {
    this.flush(start);
    if (op !== null) this.level.ops.push(op);
    this.cursor = end;
  }

  /**
   * Drops the operations of the current level after index `mark` and the static text not yet
   * flushed; copying resumes at `resume`. Used when a bound value replaces an element's content.
   */
  dropAfter(mark: number, resume: number): void {
    const ops = this.level.ops;
    while (ops.length > mark + 1) ops.pop();
    this.cursor = resume;
  }

  /** True while a block is open (its close comment not seen yet). */
  inBlock(): boolean {
    return this.levels.length > 1;
  }

  /** Blocks open around the current point: 0 at the top level. */
  depth(): number {
    return this.levels.length - 1;
  }

  /** Opens the body of `repeat`, whose open comment is html[start, end) (left out of the output). */
  openBlock(repeat: RepeatOp, start: number, end: number): void {
    this.flush(start);
    this.cursor = end;
    this.level = { ops: [], repeat, openStart: start, openEnd: end };
    this.levels.push(this.level);
  }

  /** Closes the innermost block at its close comment html[start, end): the block joins the enclosing list. */
  closeBlock(start: number, end: number): void {
    this.flush(start);
    const inner = this.levels.pop()!;
    inner.repeat!.body = inner.ops;
    this.level = this.levels[this.levels.length - 1]!;
    this.level.ops.push(inner.repeat!);
    this.cursor = end;
  }

  /**
   * Ends the program at `length` (the end of the markup) and returns it. A block still open is
   * not a block: its open comment and body go back into the enclosing list as written;
   * `onUnclosed` hears the open comment's offset of each, innermost first.
   */
  finish(length: number, onUnclosed: (openStart: number) => void): Op[] {
    this.flush(length);
    this.cursor = length;
    while (this.levels.length > 1) {
      const inner = this.levels.pop()!;
      const parent = this.levels[this.levels.length - 1]!;
      onUnclosed(inner.openStart);
      parent.ops.push({ t: "static", s: inner.openStart, e: inner.openEnd });
      for (const op of inner.ops) parent.ops.push(op);
      this.level = parent;
    }
    return this.levels[0]!.ops;
  }
}
