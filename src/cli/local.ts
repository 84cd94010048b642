// The folder's side: every file the layout places (layout.ts), read and hashed as canonical.ts
// says. Files outside the layout's folders (README.md, .git/, svc.json, .svc/) are not the site's
// and are left alone; a file inside them that names no object is reported, not guessed at.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { jsonHash, sha256, type Json } from "./canonical.ts";
import { parseFile } from "./file-forms.ts";
import {
  ALSO_IN,
  BYTE_KINDS,
  FOLDERS,
  KINDS,
  kindOfKey,
  refOfKey,
  ROOT_FILES,
  type Kind,
  type ObjectRef,
} from "./layout.ts";

export interface LocalObject {
  key: string;
  kind: Kind;
  ref: ObjectRef;
  hash: string;
  bytes: Uint8Array;
  /** The parsed value of a JSON file. */
  value?: Json;
}

export interface LocalProblem {
  key: string;
  message: string;
}

export interface LocalFolder {
  objects: Map<string, LocalObject>;
  /** Files in the layout's folders that name no object (wrong place, bad name, not JSON). */
  problems: LocalProblem[];
}

function walk(dir: string, prefix: string, out: string[]): void {
  let names: string[];
  try {
    names = readdirSync(join(dir, prefix));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  for (const name of names.sort()) {
    if (name.startsWith(".")) continue; // editors' swap files, .DS_Store
    const key = `${prefix}/${name}`;
    if (statSync(join(dir, key)).isDirectory()) walk(dir, key, out);
    else out.push(key);
  }
}

/** Reads one file of the folder as an object, or a problem. */
export function readLocal(dir: string, key: string): LocalObject | LocalProblem | null {
  const ref = refOfKey(key);
  if ("error" in ref) return { key, message: ref.error };
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(join(dir, key));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  if (BYTE_KINDS.has(ref.kind)) {
    if (ref.kind !== "media") {
      try {
        new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        return { key, message: "not UTF-8 text" };
      }
    }
    return { key, kind: ref.kind, ref, hash: sha256(bytes), bytes };
  }
  let value: Json;
  try {
    value = parseFile(key, new TextDecoder().decode(bytes));
  } catch (error) {
    return { key, message: (error as Error).message };
  }
  return { key, kind: ref.kind, ref, hash: jsonHash(value), bytes, value };
}

/** Every object of the kinds asked for in the folder. */
export function readFolder(dir: string, kinds: ReadonlySet<Kind> = new Set(KINDS)): LocalFolder {
  const keys: string[] = [];
  for (const [folder, kind] of Object.entries(FOLDERS))
    if (kinds.has(kind) || (ALSO_IN[folder] && kinds.has(ALSO_IN[folder]))) walk(dir, folder, keys);
  for (const [file, kind] of Object.entries(ROOT_FILES)) if (kinds.has(kind)) keys.push(file);
  const objects = new Map<string, LocalObject>();
  const problems: LocalProblem[] = [];
  for (const key of keys) {
    const read = readLocal(dir, key);
    if (read === null) continue;
    const kind = "message" in read ? kindOfKey(key) : read.kind;
    if (kind === null || !kinds.has(kind)) continue; // a file of another kind in the same folder
    if ("message" in read) problems.push(read);
    else objects.set(key, read);
  }
  problems.push(...samePageTwice(objects));
  return { objects, problems };
}

/**
 * A page written twice, as `<path>.json` and as `<path>.md`: which one the page is cannot be told,
 * so the second is a problem naming the first (and neither is sent).
 */
function samePageTwice(objects: Map<string, LocalObject>): LocalProblem[] {
  const seen = new Map<string, string>();
  const problems: LocalProblem[] = [];
  for (const [key, object] of objects) {
    if (object.ref.kind !== "pages") continue;
    const page = `${object.ref.lang ?? ""} ${object.ref.path}`;
    const first = seen.get(page);
    if (first === undefined) {
      seen.set(page, key);
      continue;
    }
    problems.push({ key, message: `${first} holds the same page: keep one of the two files` });
    objects.delete(key);
    objects.delete(first);
  }
  return problems;
}
