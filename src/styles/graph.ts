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

/** Every stylesheet that imports one of `names`, directly or through others (the names themselves left out), sorted. */
export function importersOf(names: readonly string[], imports: ImportMap): string[] {
  const importedBy = new Map<string, string[]>();
  for (const [sheet, targets] of imports) {
    for (const target of targets) {
      const list = importedBy.get(target);
      if (list) list.push(sheet);
      else importedBy.set(target, [sheet]);
    }
  }
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
