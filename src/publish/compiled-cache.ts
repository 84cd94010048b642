// Compiled frames kept by the sha256 of their markup, so a frame rendered again is not parsed
// again. Bounded by count and by the bytes of markup held (a compiled frame keeps its markup, which
// it renders slices of; a frame may be 2 MB): the least recently used go first.
//
// A frame is kept from its second compile on. A site-wide rebake compiles each of thousands of
// frames once: kept at first sight, each pushed an older one out, so every program outlived the
// young generation and died in the old one, and the process's peak memory rose by about 100 MB
// (bench/README.md, "Memory, back under 300 MB"). Frames rendered again and again (a header
// embedded everywhere, a page frame rendering on request) are kept at their second render.
import { compileFrame, type CompiledFrame } from "../markup/index.ts";

export const DEFAULT_COMPILED_BYTES = 16 * 1024 * 1024;

/** Where a render finds compiled frames. */
export type CompiledFrames = Pick<CompiledCache, "peek" | "get">;

/**
 * The cache read, never filled: frames it does not hold are compiled for one render and dropped.
 * A write's trial uses it, so that compiling thousands of frames twice (trial, then publish)
 * does not churn the cache, whose evicted programs would have outlived the young generation and
 * raised the process's peak memory.
 */
export function readOnly(cache: CompiledCache): CompiledFrames {
  return { peek: (sha256) => cache.peek(sha256), get: (sha256, html) => cache.peek(sha256) ?? compileFrame(html) };
}

export class CompiledCache {
  private readonly entries = new Map<string, CompiledFrame>();
  /** sha256 of markup compiled once and not kept, at most `max`, oldest first. */
  private readonly seen = new Set<string>();
  private bytes = 0;

  constructor(
    private readonly max = 2000,
    private readonly maxBytes = DEFAULT_COMPILED_BYTES,
  ) {}

  /** The compiled frame of this markup, if held (marked recently used). */
  peek(sha256: string): CompiledFrame | undefined {
    const hit = this.entries.get(sha256);
    if (hit) {
      this.entries.delete(sha256);
      this.entries.set(sha256, hit);
    }
    return hit;
  }

  get(sha256: string, html: string): CompiledFrame {
    const hit = this.peek(sha256);
    if (hit) return hit;
    const compiled = compileFrame(html);
    // Markup larger than the whole budget is compiled for this render only.
    if (html.length > this.maxBytes) return compiled;
    if (!this.seen.delete(sha256)) {
      this.seen.add(sha256);
      if (this.seen.size > this.max) this.seen.delete(this.seen.values().next().value!);
      return compiled;
    }
    this.entries.set(sha256, compiled);
    this.bytes += compiled.html.length;
    for (const [key, old] of this.entries) {
      if (this.entries.size <= this.max && this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= old.html.length;
    }
    return compiled;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Code units of markup held. */
  get heldBytes(): number {
    return this.bytes;
  }
}
