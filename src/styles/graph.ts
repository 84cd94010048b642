// The import graph of one theme's stylesheets (pure): what a stylesheet's bundle reads, which
// stylesheets read a given one (their bundles change with it), and the cycle a new import would
// close. Every walk is breadth-first with a seen set, so stored data with a cycle still ends.

/** Stylesheet name → the names it imports, in order (a name may be one that does not exist). */
export type ImportMap = ReadonlyMap<string, readonly string[]>;

/** `name` and every name its bundle reads, transitively (missing ones included), sorted. */
export function importClosure(name: string, imports: ImportMap): string[] {
  const seen = new Set([name]);
  const queue = [name];
  for (let i = 0; i < queue.length; i++) {
    for (const next of imports.get(queue[i]!) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return [...seen].sort();
}

/** Stylesheet name → the stylesheets importing it; the imports of `except` (about to be replaced) left out. */
function importedByOf(imports: ImportMap, except?: string): Map<string, string[]> {
  const importedBy = new Map<string, string[]>();
  for (const [sheet, targets] of imports) {
    if (sheet === except) continue;
    for (const target of targets) {
      const list = importedBy.get(target);
      if (list) list.push(sheet);
      else importedBy.set(target, [sheet]);
    }
  }
  return importedBy;
}

/** Every stylesheet that imports one of `names`, directly or through others (the names themselves left out), sorted. */
export function importersOf(names: readonly string[], imports: ImportMap): string[] {
  const importedBy = importedByOf(imports);
  const seen = new Set(names);
  const queue = [...names];
  const out: string[] = [];
  for (let i = 0; i < queue.length; i++) {
    for (const importer of importedBy.get(queue[i]!) ?? []) {
      if (!seen.has(importer)) {
        seen.add(importer);
        queue.push(importer);
        out.push(importer);
      }
    }
  }
  return out.sort();
}

/**
 * The cycle `name` would close by importing `target`: the path `name → target → … → name`, or
 * null. `imports` holds the others' imports as stored.
 */
export function importCycle(name: string, target: string, imports: ImportMap): string[] | null {
  const cameFrom = new Map<string, string | null>([[target, null]]);
  const queue = [target];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i]!;
    if (at === name) {
      const path: string[] = [];
      for (let step: string | null = at; step !== null; step = cameFrom.get(step) ?? null) path.unshift(step);
      return [name, ...path];
    }
    for (const next of imports.get(at) ?? []) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, at);
        queue.push(next);
      }
    }
  }
  return null;
}

/**
 * The longest chain of imports a walk from `start` along `next` can take (in steps; 0 for a
 * stylesheet that imports nothing). Iterative, with the lengths found kept: a long chain needs no
 * deep stack, and a cycle in stored data counts as ending where it closes.
 */
function longestFrom(start: string, next: (name: string) => readonly string[]): number {
  const length = new Map<string, number>();
  const open = new Set<string>();
  const stack: Array<{ name: string; i: number; best: number }> = [{ name: start, i: 0, best: 0 }];
  open.add(start);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const targets = next(top.name);
    if (top.i < targets.length) {
      const target = targets[top.i++]!;
      const known = length.get(target);
      if (known !== undefined) top.best = Math.max(top.best, known + 1);
      else if (!open.has(target)) {
        open.add(target);
        stack.push({ name: target, i: 0, best: 0 });
      }
      continue;
    }
    stack.pop();
    open.delete(top.name);
    length.set(top.name, top.best);
    const parent = stack[stack.length - 1];
    if (parent) parent.best = Math.max(parent.best, top.best + 1);
  }
  return length.get(start) ?? 0;
}

/**
 * The longest chain of `@import`s through `name` once it imports `targets` (the others' imports as
 * stored): the longest chain of stylesheets importing it, plus the longest it starts. The target
 * that starts the longest chain below it comes along (null when it imports nothing).
 */
export function importDepth(
  name: string,
  targets: readonly string[],
  imports: ImportMap,
): { depth: number; through: string | null } {
  const importedBy = importedByOf(imports, name);
  const above = longestFrom(name, (at) => importedBy.get(at) ?? []);
  const below = (at: string) => (at === name ? targets : (imports.get(at) ?? []));
  let deepest = 0;
  let through: string | null = null;
  for (const target of targets) {
    const steps = target === name ? 0 : 1 + longestFrom(target, below);
    if (through === null || steps > deepest) {
      deepest = steps;
      through = target;
    }
  }
  return { depth: above + deepest, through };
}
