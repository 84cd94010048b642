// Collects the analysis report while the compiler walks the markup, and freezes it into the
// MarkupAnalysis shape (sorted unique lists) at the end.

import type { RepeatOp } from "./program.ts";
import type { FrameRefInsert, ListEntry, MarkupAnalysis, MarkupWarning } from "./types.ts";
import { classifyToken, PAGE_SOURCES } from "./tokens.ts";

function sorted(values: Iterable<string>): string[] {
  // Plain code-unit order, as the contract asks for every sorted list.
  return Array.from(values).sort();
}

export class AnalysisBuilder {
  private readonly inserts = new Map<string, number>();
  private insertsTotal = 0;
  private readonly unknown = new Set<string>();
  private readonly sources = new Set<string>();
  readonly frameRefs: FrameRefInsert[] = [];
  binds = 0;
  private readonly bindTags = new Set<string>();
  repeats = 0;
  private readonly tokens = new Set<string>();
  private readonly live: string[] = [];
  private readonly liveSeen = new Set<string>();
  hasDoctype = false;
  /** The first svc/layout's reference, as written. */
  layout: string | null = null;
  hasBody = false;
  readonly warnings: MarkupWarning[] = [];

  warn(code: string, message: string, at: number, details?: Record<string, unknown>): void {
    this.warnings.push(details ? { code, message, at, details } : { code, message, at });
  }

  /** Slots the markup offers (as a layout), by name ("" the main one), and whether each has default content. */
  readonly slots: Array<{ name: string; defaults: boolean; at: number }> = [];
  /** Blocks the markup fills, by name, in order. */
  readonly blocks: Array<{ name: string; at: number }> = [];

  /** The frame's lists (repeat-op.ts), in document order, with their operations. */
  private readonly listed: Array<{ op: RepeatOp; entry: ListEntry }> = [];

  list(op: RepeatOp, entry: ListEntry): void {
    this.listed.push({ op, entry });
  }

  /** A repeat opened at `at` was never closed: it is plain markup, no list. */
  dropList(at: number): void {
    const i = this.listed.findIndex((list) => list.entry.at === at);
    if (i >= 0) this.listed.splice(i, 1);
  }

  slot(name: string, defaults: boolean, at: number): void {
    this.slots.push({ name, defaults, at });
  }

  block(name: string, at: number): void {
    this.blocks.push({ name, at });
  }

  insert(full: string, known: boolean): void {
    this.inserts.set(full, (this.inserts.get(full) ?? 0) + 1);
    this.insertsTotal++;
    if (!known) this.unknown.add(full);
  }

  /** The first place each source is read (a comment's or data-op-bind attribute's start). */
  private readonly sourceAt = new Map<string, number>();

  /** How a source was first written, where it differs from its name. */
  private readonly sourceWritten = new Map<string, string>();

  source(source: string, at = 0, written = source): void {
    this.sources.add(source);
    if (this.sourceAt.has(source)) return;
    this.sourceAt.set(source, at);
    if (written !== source) this.sourceWritten.set(source, written);
  }

  liveReason(reason: string): void {
    if (this.liveSeen.has(reason)) return;
    this.liveSeen.add(reason);
    this.live.push(reason);
  }

  bindTag(tag: string): void {
    this.binds++;
    this.bindTags.add(tag);
  }

  /** Records a token used by a bind: its source, live reason, and a warning when it is outside the grammar. */
  token(token: string, at: number): void {
    if (this.tokens.has(token)) return;
    this.tokens.add(token);
    const info = classifyToken(token);
    if (info.source !== null) {
      this.source(info.source, at);
      if (PAGE_SOURCES.has(info.source)) this.liveReason(`bind ${token}`);
    }
    if (!info.valid) {
      this.warn("unknown_token", `"${token}" is not a known token; it will print nothing`, at);
    }
  }

  finish(): MarkupAnalysis {
    // The page's list: the first list that pages (RepeatOp.list).
    const paged = this.listed.find((list) => list.entry.page_size !== null);
    if (paged) paged.op.list = true;
    const inserts: Record<string, number> = {};
    for (const key of sorted(this.inserts.keys())) inserts[key] = this.inserts.get(key)!;
    return {
      inserts,
      inserts_total: this.insertsTotal,
      unknown_inserts: sorted(this.unknown),
      sources: sorted(this.sources),
      source_positions: Object.fromEntries(
        sorted(this.sourceAt.keys()).map((source) => [source, this.sourceAt.get(source)!]),
      ),
      source_written: Object.fromEntries(
        sorted(this.sourceWritten.keys()).map((source) => [source, this.sourceWritten.get(source)!]),
      ),
      frame_refs: this.frameRefs,
      binds: this.binds,
      bind_tags: sorted(this.bindTags),
      repeats: this.repeats,
      tokens: sorted(this.tokens),
      live_reasons: this.live,
      has_doctype: this.hasDoctype,
      has_body: this.hasBody,
      layout: this.layout,
      slots: this.slots,
      blocks: this.blocks,
      lists: this.listed.map((list) => list.entry),
      // Warnings are raised in document order except for end-of-markup ones; sort by offset.
      warnings: this.warnings.sort((a, b) => a.at - b.at),
    };
  }
}
