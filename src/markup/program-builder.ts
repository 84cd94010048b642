// Builds the program (the operation lists of program.ts) while the compiler walks the markup.
// Kept apart from the tokenizer callbacks so the one rule that keeps output outside the
// holes byte for byte lives in one place:
//
// `cursor` is the first source offset not yet covered by an operation. A hole (insert, bind
// attribute, element content) first flushes the static range [cursor, holeStart) and then
// moves the cursor past the hole, so output outside the holes is the uploaded text untouched.
// A block (svc/repeat, svc/if, svc/slot, svc/block) opens a nested operation list ("level") that
// becomes the block's body; a svc/block's body goes to the program's blocks instead of the output.

import type { BlockHolder, Op } from "./program.ts";

export interface Level {
  ops: Op[];
  /** The block this level is the body of (null for the top level). */
  holder: BlockHolder | null;
  /** The insert name of the block (`svc/repeat`, `svc/if`, …), for its close comment. */
  name: string;
  openStart: number;
  openEnd: number;
  /** A svc/if's `<!-- svc/else /-->`: where it stands, and the then-branch's operations before it. */
  elseAt?: { start: number; end: number; then: Op[] };
}

export class ProgramBuilder {
  private cursor = 0;
  private readonly levels: Level[];
  /** The innermost open level: where operations go. Changed only by this class. */
  level: Level;

  /** svc/block bodies, in the order they were closed. */
  readonly blocks: Array<{ name: string; at: number; ops: Op[] }> = [];

  constructor() {
    this.level = { ops: [], holder: null, name: "", openStart: 0, openEnd: 0 };
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

  /** Whether a svc/repeat block is open around the current point. */
  insideRepeat(): boolean {
    return this.levels.some((level) => level.holder?.t === "repeat");
  }

  /** The innermost open block's insert name ("" at the top level). */
  openName(): string {
    return this.level.name;
  }

  /** Opens the body of `holder` (insert `name`), whose open comment is html[start, end) (left out of the output). */
  openBlock(holder: BlockHolder, name: string, start: number, end: number): void {
    this.flush(start);
    this.cursor = end;
    this.level = { ops: [], holder, name, openStart: start, openEnd: end };
    this.levels.push(this.level);
  }

  /** `<!-- svc/else /-->` at html[start, end) in the innermost svc/if: what follows is its else-branch. */
  elseBranch(start: number, end: number): void {
    this.flush(start);
    this.level.elseAt = { start, end, then: this.level.ops };
    this.level.ops = [];
    this.cursor = end;
  }

  /** Closes the innermost block at its close comment html[start, end): the block joins the enclosing list. */
  closeBlock(start: number, end: number): void {
    this.flush(start);
    const inner = this.levels.pop()!;
    this.level = this.levels[this.levels.length - 1]!;
    const holder = inner.holder!;
    this.cursor = end;
    switch (holder.t) {
      case "repeat":
        holder.body = inner.ops;
        break;
      case "slot":
        holder.defaults = inner.ops;
        break;
      case "if":
        holder.then = inner.elseAt ? inner.elseAt.then : inner.ops;
        holder.else = inner.elseAt ? inner.ops : [];
        break;
      case "block":
        // Not printed here: the slots up the layout chain print it.
        if (!this.blocks.some((block) => block.name === holder.name))
          this.blocks.push({ name: holder.name, at: holder.at, ops: inner.ops });
        return;
    }
    this.level.ops.push(holder);
  }

  /**
   * Ends the program at `length` (the end of the markup) and returns it. A block still open is
   * not a block: its open comment and body go back into the enclosing list as written;
   * `onUnclosed` hears the open comment's offset and insert name of each, innermost first.
   */
  finish(length: number, onUnclosed: (openStart: number, name: string) => void): Op[] {
    this.flush(length);
    this.cursor = length;
    while (this.levels.length > 1) {
      const inner = this.levels.pop()!;
      const parent = this.levels[this.levels.length - 1]!;
      onUnclosed(inner.openStart, inner.name);
      parent.ops.push({ t: "static", s: inner.openStart, e: inner.openEnd });
      if (inner.elseAt) {
        for (const op of inner.elseAt.then) parent.ops.push(op);
        parent.ops.push({ t: "static", s: inner.elseAt.start, e: inner.elseAt.end });
      }
      for (const op of inner.ops) parent.ops.push(op);
      this.level = parent;
    }
    return this.levels[0]!.ops;
  }
}
