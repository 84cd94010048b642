// The open elements while the compiler walks the markup, matched textually by name as the
// markup is written (no tree, no HTML tree-building rules). The compiler needs them for two
// things: to find where a bound element's content ends (its matching close tag), and to know
// when it is inside <svg>/<math>, where the tokenizer reads <script>, <style>, <textarea> and
// <title> as ordinary elements. Each entry carries a value of the caller's (the pending bind).

/** Elements without content: never on the element stack, and a text/html bind on them is refused. */
export const VOID_ELEMENTS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

function isForeignRoot(name: string): boolean {
  return name === "svg" || name === "math";
}

export class ElementStack<T> {
  /** Names of the open elements (interned, lower case), outermost first. */
  private readonly names: string[] = [];
  /** The value pushed with each open element. */
  readonly values: T[] = [];
  /** Open elements by name: a close tag with nothing to close costs O(1). */
  private readonly openCounts = new Map<string, number>();
  private foreign = 0;

  /** True inside <svg> or <math>. */
  inForeign(): boolean {
    return this.foreign > 0;
  }

  push(name: string, value: T): void {
    this.names.push(name);
    this.values.push(value);
    this.openCounts.set(name, (this.openCounts.get(name) ?? 0) + 1);
    if (isForeignRoot(name)) this.foreign++;
  }

  /**
   * Index of the innermost open element named `name`, or -1 when none is open. A close tag
   * of that name closes it and, implicitly, every element above it.
   */
  find(name: string): number {
    if (!this.openCounts.get(name)) return -1;
    const names = this.names;
    let k = names.length - 1;
    while (names[k] !== name) k--;
    return k;
  }

  /** Closes the elements from the top of the stack down to index k, included. */
  popTo(k: number): void {
    const names = this.names;
    while (names.length > k) {
      const nm = names.pop()!;
      this.values.pop();
      this.openCounts.set(nm, this.openCounts.get(nm)! - 1);
      if (isForeignRoot(nm)) this.foreign--;
    }
  }
}
