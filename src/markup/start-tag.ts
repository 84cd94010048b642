// The start tag the tokenizer is reading: its name and where each attribute's name, value and
// end lie in the markup, with each value's quote style. Positions go into arrays reused from
// tag to tag, so reading a tag allocates nothing; only a tag that carries a data-op-bind is
// looked at again (by the bind compiler, through the questions answered here).

import type { QuoteType } from "htmlparser2";
import { isWs } from "./insert-grammar.ts";

// htmlparser2's QuoteType values. Read through the package's re-export getter they cost a
// property lookup per attribute, so the numbers are kept here.
export const NO_VALUE = 0 as QuoteType;
export const DOUBLE = 3 as QuoteType;

/** `data-op-bind`, compared by char code so attributes need no string allocation. */
export const BIND_ATTR = "data-op-bind";

export class StartTag {
  private readonly html: string;
  /** Lower-case tag name. */
  name = "";
  /** Number of attributes read; the arrays below are valid up to it. */
  n = 0;
  readonly nameS: number[] = [];
  readonly nameE: number[] = [];
  /** Value range; valS -1 when the attribute has no value text. */
  readonly valS: number[] = [];
  readonly valE: number[] = [];
  readonly quote: QuoteType[] = [];
  /** End of the attribute (after the closing quote, if any). */
  readonly attrEnd: number[] = [];
  /** Indexes of data-op-bind attributes on the tag (the first one is the bind); nBind in use. */
  readonly bindIdx: number[] = [];
  nBind = 0;

  constructor(html: string) {
    this.html = html;
  }

  open(name: string): void {
    this.name = name;
    this.n = 0;
    this.nBind = 0;
  }

  attribName(start: number, end: number): void {
    const i = this.n++;
    this.nameS[i] = start;
    this.nameE[i] = end;
    this.valS[i] = -1;
    this.valE[i] = -1;
    this.quote[i] = NO_VALUE;
    this.attrEnd[i] = end;
    if (end - start === 12 && this.isBindName(start)) this.bindIdx[this.nBind++] = i;
  }

  attribData(start: number, end: number): void {
    const i = this.n - 1;
    if (this.valS[i]! < 0) this.valS[i] = start;
    this.valE[i] = end;
  }

  attribEnd(quote: QuoteType, end: number): void {
    const i = this.n - 1;
    this.quote[i] = quote;
    this.attrEnd[i] = end;
  }

  private isBindName(start: number): boolean {
    const html = this.html;
    for (let k = 0; k < 12; k++) {
      // ASCII lower-casing by OR 0x20 is exact for letters; `-` (0x2d) has the bit set already.
      if ((html.charCodeAt(start + k) | 0x20) !== BIND_ATTR.charCodeAt(k)) return false;
    }
    return true;
  }

  /** Start of the white space before attribute i: removing an attribute removes it too. */
  wsBefore(i: number): number {
    let p = this.nameS[i]!;
    while (p > 0 && isWs(this.html.charCodeAt(p - 1))) p--;
    return p;
  }

  /** True when attribute j is a data-op-bind (the first or a duplicate). */
  isBindAttr(j: number): boolean {
    for (let b = 0; b < this.nBind; b++) if (this.bindIdx[b] === j) return true;
    return false;
  }

  /** Index of the bound target named like attribute j (ASCII case-insensitive), or -1. */
  targetOf(j: number, targets: ReadonlyArray<readonly [string, unknown]>): number {
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
}
