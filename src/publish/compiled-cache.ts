// Compiled frames kept by the sha256 of their markup, so a render never parses markup twice.
// Bounded by count; the least recently used go first.
import { compileFrame, type CompiledFrame } from "../markup/index.ts";

export class CompiledCache {
  private readonly entries = new Map<string, CompiledFrame>();

  constructor(private readonly max = 2000) {}

  get(sha256: string, html: string): CompiledFrame {
    const hit = this.entries.get(sha256);
    if (hit) {
      this.entries.delete(sha256);
      this.entries.set(sha256, hit);
      return hit;
    }
    const compiled = compileFrame(html);
    this.entries.set(sha256, compiled);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return compiled;
  }
}
