// Where the file-system blob store (fs-store.ts) puts each file, relative to its root
// (SVC_DATA_DIR/media): the one statement of the layout, used by the store and by `svc backup` /
// `svc restore` (src/backup/), which copy the files named by a database and put them back.
//   ab/cd/<sha256>                 a blob (its key starts with `abcd`)
//   ab/cd/<sha256>.derived/<name>  a file derived from it (an image variant)
// Relative paths use `/` whatever the platform: they are also the names of a backup's entries.
import { isBlobKey, isDerivedName } from "./blob-store.ts";

/** The store's folder in the data directory. */
export const MEDIA_FOLDER = "media";

/** A stored file: a blob, or a file derived from one (`name`). */
export interface StoredFile {
  sha256: string;
  name: string | null;
}

function checked(sha256: string): string {
  if (!isBlobKey(sha256)) throw new Error(`not a blob key: ${JSON.stringify(sha256)}`);
  return sha256;
}

/** A blob's path under the root. */
export function blobFile(sha256: string): string {
  const key = checked(sha256);
  return `${key.slice(0, 2)}/${key.slice(2, 4)}/${key}`;
}

/** The folder of a blob's derived files under the root. */
export function derivedFolder(sha256: string): string {
  return `${blobFile(sha256)}.derived`;
}

/** A derived file's path under the root. */
export function derivedFile(sha256: string, name: string): string {
  if (!isDerivedName(name)) throw new Error(`not a derived file name: ${JSON.stringify(name)}`);
  return `${derivedFolder(sha256)}/${name}`;
}

/** What a path under the root holds, or undefined when it is no path of the layout (`..`, a stray name). */
export function storedFileAt(path: string): StoredFile | undefined {
  const match = /^([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})(?:\.derived\/([^/]+))?$/.exec(path);
  if (!match) return undefined;
  const [, first, second, sha256, name] = match;
  if (sha256.slice(0, 2) !== first || sha256.slice(2, 4) !== second) return undefined;
  if (name !== undefined && !isDerivedName(name)) return undefined;
  return { sha256, name: name ?? null };
}
