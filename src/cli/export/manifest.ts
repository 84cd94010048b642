// What an export wrote, kept beside it in `.svc-export.json` (docs/cli.md, "svc export-static"):
// each file with the address it answers, its sha256 and size, and the site's addresses it links
// to, so the next export rewrites only the files whose bytes changed, deletes only files it wrote
// itself, and (with --since) knows what the pages it does not fetch again link to. It also names
// the site, the service and how links were written: an export of another site or with other links
// starts afresh.
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { LinkMode } from "./links.ts";

export const MANIFEST = ".svc-export.json";
const FORMAT_VERSION = 1;

export interface ManifestFile {
  file: string;
  sha256: string;
  bytes: number;
  links: string[];
  endpoints: string[];
  page: boolean;
}

export interface Manifest {
  format_version: number;
  service: string;
  site: number;
  links: { mode: LinkMode; base: string };
  /** The site's last event when the export began: what `--since` takes next time. */
  last_event: number | null;
  /** By address (`/about/`), or by file for what the export makes itself (`404.html`, `_redirects`). */
  files: Record<string, ManifestFile>;
  /**
   * The addresses the crawl met answering a redirect of the service's own (a home page's own path),
   * for `_redirects`: an export with --since that does not ask one again keeps its line.
   */
  crawled_redirects?: Array<{ from: string; to: string; status: number }>;
}

export function readManifest(dir: string): Manifest | null {
  const path = join(dir, MANIFEST);
  if (!existsSync(path)) return null;
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as Manifest;
    return value.format_version === FORMAT_VERSION && value.files && typeof value.files === "object" ? value : null;
  } catch {
    return null;
  }
}

export function writeManifest(dir: string, manifest: Omit<Manifest, "format_version">): void {
  writeOut(dir, MANIFEST, Buffer.from(`${JSON.stringify({ format_version: FORMAT_VERSION, ...manifest }, null, 2)}\n`));
}

/** The file is on disk with the size the manifest says (else it is written again). */
export function standsAsRecorded(dir: string, entry: ManifestFile): boolean {
  try {
    const stat = statSync(join(dir, entry.file));
    return stat.isFile() && stat.size === entry.bytes;
  } catch {
    return false;
  }
}

/** Writes a file of the export whole (a temporary renamed over it). */
export function writeOut(dir: string, file: string, bytes: Uint8Array): void {
  const path = join(dir, file);
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.svc-${process.pid}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, path);
}

/** Removes a file of the export and the folders it leaves empty. */
export function removeOut(dir: string, file: string): void {
  try {
    unlinkSync(join(dir, file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  for (let parent = dirname(file); parent !== "." && parent !== "/"; parent = dirname(parent)) {
    const path = join(dir, parent);
    try {
      if (readdirSync(path).length > 0) break;
      rmdirSync(path);
    } catch {
      break;
    }
  }
}
