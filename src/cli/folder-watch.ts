// The folder's saves, gathered: a recursive watcher on the folder that hands over the keys of the
// files svc syncs (layout.ts) once the folder has been quiet for the debounce time. What `svc
// watch` pushes and what `svc dev` reloads the browser on (docs/cli.md).
import { watch } from "node:fs";
import { sep } from "node:path";
import { kindOfKey, type Kind } from "./layout.ts";

/** The key of a path the watcher reported, or null for files svc does not sync. */
export function watchedKey(filename: string, kinds: ReadonlySet<Kind>): string | null {
  const key = filename.split(sep).join("/");
  if (key.split("/").some((part) => part.startsWith(".")) || /(~|\.tmp|\.swp|\.swx)$/.test(key)) return null;
  const kind = kindOfKey(key);
  return kind !== null && kinds.has(kind) ? key : null;
}

export interface FolderWatchOptions {
  kinds: ReadonlySet<Kind>;
  debounceMs: number;
  /** The keys saved since the last call, once the folder has been quiet for `debounceMs`. */
  onSaved: (keys: Set<string>) => void;
  onError: (error: Error) => void;
}

export interface FolderWatch {
  close(): void;
}

/** Watches `dir`; throws when it cannot be watched. */
export function watchFolder(dir: string, options: FolderWatchOptions): FolderWatch {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  const watcher = watch(dir, { recursive: true }, (_event, filename) => {
    if (!filename) return;
    const key = watchedKey(filename.toString(), options.kinds);
    if (key === null) return;
    pending.add(key);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      const keys = new Set(pending);
      pending.clear();
      options.onSaved(keys);
    }, options.debounceMs);
  });
  watcher.on("error", options.onError);
  return {
    close() {
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}
