// What a render prints, counted as it goes (render.ts): an array of pieces (slices of the markup
// and hole outputs) joined once at the end, and the count the bytes budget is checked against.

/** Pieces joined into one string at a time (see `count`): bounds the pieces array. */
const PIECES_PER_RUN = 8192;

export class Output {
  /** The pieces printed since the last run was joined; the renderer pushes to it. */
  readonly pieces: string[] = [];
  /** Runs of output already joined, in order before `pieces`. */
  private readonly runs: string[] = [];
  /** The output counted up to `pieces[counted]`: UTF-16 units, or UTF-8 bytes when measuring. */
  private chars = 0;
  private counted = 0;

  /** `measuring`: only counted (UTF-8 bytes), the pieces dropped as they are: nothing is kept. */
  constructor(private readonly measuring: boolean) {}

  /**
   * Counts the output written since the last count. Many small pieces (a slot printed a million
   * times) are joined into runs as they are counted, so the pieces never weigh more than a small
   * multiple of the output itself.
   */
  count(): number {
    const out = this.pieces;
    if (this.measuring) {
      for (let i = 0; i < out.length; i++) this.chars += Buffer.byteLength(out[i]!, "utf8");
      out.length = 0;
    } else {
      for (let i = this.counted; i < out.length; i++) this.chars += out[i]!.length;
      if (out.length >= PIECES_PER_RUN) {
        this.runs.push(out.join(""));
        out.length = 0;
      }
      this.counted = out.length;
    }
    return this.chars;
  }

  /** The whole output, in order. */
  html(): string {
    this.count();
    if (this.runs.length === 0) return this.pieces.join("");
    return this.runs.join("") + this.pieces.join("");
  }
}
