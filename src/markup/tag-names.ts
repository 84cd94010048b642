// Interns the lower-case tag names the compiler reads. A frame repeats a few names many
// times, so each name is sliced and lower-cased once and afterwards found by comparing char
// codes: a start or close tag then costs no string allocation, and open elements can be
// matched by name with plain string equality.

export class TagNames {
  private readonly html: string;
  /** Names seen so far, by length and first letter. */
  private readonly buckets = new Map<number, string[]>();

  constructor(html: string) {
    this.html = html;
  }

  /** The lower-case name html[start, end), interned: compared by char code against names seen before. */
  get(start: number, end: number): string {
    const html = this.html;
    const len = end - start;
    const key = len * 128 + (html.charCodeAt(start) | 0x20);
    let bucket = this.buckets.get(key);
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
      this.buckets.set(key, bucket);
    }
    const fresh = html.slice(start, end).toLowerCase();
    // A name with non-ASCII capitals never matches above (only ASCII is folded there), so it is
    // sliced each time; the cap keeps such buckets small.
    if (bucket.length < 8) bucket.push(fresh);
    return fresh;
  }
}
