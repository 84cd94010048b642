// The starter site `svc init` writes (docs/cli.md, "svc init"): real files in the package's
// starter/ folder, beside dist/ in an installed package and at the checkout's top, so the same
// lookup serves dist/cli.js (bundled) and src/cli/ (run from the source).
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** Files whose name in the package differs from the one written (npm leaves a `.gitignore` out of a tarball). */
const RENAMED: Readonly<Record<string, string>> = { gitignore: ".gitignore" };

/** The starter/ folder of the package this module belongs to: the nearest one above it. */
export function starterRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "starter");
    if (existsSync(join(dir, "package.json")) && existsSync(candidate) && statSync(candidate).isDirectory())
      return candidate;
    if (dirname(dir) === dir) throw new Error(`the starter site is missing: no starter/ folder above ${from}`);
  }
}

export interface StarterFile {
  /** Where it lies in starter/. */
  source: string;
  /** Its key in the new folder, with `/` between parts (`pages/en/home.md`). */
  key: string;
}

/** Every file of the starter, sorted by key. */
export function starterFiles(root = starterRoot()): StarterFile[] {
  const files: StarterFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const parts = relative(root, path).split(sep);
        const last = parts.length - 1;
        parts[last] = RENAMED[parts[last]] ?? parts[last];
        files.push({ source: path, key: parts.join("/") });
      }
    }
  };
  walk(root);
  return files.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
