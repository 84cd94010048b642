// One kind of object a bundle holds (docs/bundles.md, "What a bundle holds"): how the site's objects
// of the kind become entries, which entries are the kind's, and how one is written back through the
// kind's own service (and so through the write pipeline) or deleted. An import compares the
// bundle's entries with the entries the same reader makes of the target site, so an object whose
// entry is byte-equal is unchanged by definition.
import type { MediaFiles } from "../../media/intake.ts";
import type { SiteRow } from "../../site/sites.ts";
import type { ServiceContext } from "../../write/context.ts";
import type { OutEntry } from "../archive-write.ts";
import type { PageNames } from "../page-names.ts";

export { jsonOf } from "../format.ts";

export interface SiteIO {
  ctx: ServiceContext;
  site: SiteRow;
  userId: number;
  files: MediaFiles;
  /** The site's pages by id and by reference, read once per step. */
  pages: PageNames;
}

/** An object of the site, as its entry. */
export interface KindObject {
  /** What a plan names it by: a slug, a name, a page's reference (`/de/about`). */
  name: string;
  entry: OutEntry;
}

/** What an object of the bundle refers to that must exist when it is written. */
export interface Reference {
  kind: "frames" | "pages";
  name: string;
}

export interface ApplyOptions {
  /** `replace`: a whole-site object (languages, redirects) also loses what the bundle lacks. */
  replace: boolean;
}

export interface BundleKind {
  kind: string;
  /** The site's objects of this kind. */
  read(io: SiteIO): Promise<KindObject[]>;
  /** The object an entry path holds (its plan name), or null when the path is not this kind's. */
  nameOf(path: string): string | null;
  /** Writes the bundle's object, creating it or making the site's the bundle's. */
  put(
    io: SiteIO,
    name: string,
    bytes: Buffer,
    entries: ReadonlyMap<string, Buffer>,
    options: ApplyOptions,
  ): Promise<void>;
  /** Deletes the site's object (replace); kinds a site always has one of leave this out. */
  remove?(io: SiteIO, name: string): Promise<void>;
  /** What the object refers to, checked before anything is written (unresolved: a conflict). */
  references?(name: string, bytes: Buffer): Reference[];
  /** After every object of the kind is written: what links them to each other (translations). */
  finish?(io: SiteIO, written: ReadonlyArray<{ name: string; bytes: Buffer }>): Promise<void>;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The name of a file under `folder` ending in `extension`, one segment deep, or null. */
export function stemIn(path: string, folder: string, extension: string): string | null {
  if (!path.startsWith(`${folder}/`) || !path.endsWith(extension)) return null;
  const stem = path.slice(folder.length + 1, -extension.length);
  return stem === "" || stem.includes("/") ? null : stem;
}
