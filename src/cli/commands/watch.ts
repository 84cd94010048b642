// `svc watch [dir]`: pushes each saved file (docs/cli.md, "watch"). Saves are gathered until the
// folder has been quiet for the debounce time, then the files saved are pushed as `svc push` would
// push them (conflicts refused, frames with If-Match), one push at a time. Each push prints its
// lines, the analysis warnings and the public addresses it changed; a refusal is printed and the
// watch goes on. It never deletes: a file removed is kept on the server (push --delete deletes it).
import { watch, type FSWatcher } from "node:fs";
import { sep } from "node:path";
import { failure } from "../api.ts";
import { kindOfKey, type Kind } from "../layout.ts";
import { printReport, pushJson, pushOnce } from "./push.ts";
import { targetJson, type Session } from "./common.ts";

export interface WatchOptions {
  kinds: Set<Kind>;
  debounceMs: number;
  /** Resolves when the watch should stop (SIGINT, SIGTERM; tests). */
  stop: Promise<void>;
}

/** The key of a path the watcher reported, or null for files svc does not sync. */
export function watchedKey(filename: string, kinds: ReadonlySet<Kind>): string | null {
  const key = filename.split(sep).join("/");
  if (key.split("/").some((part) => part.startsWith(".")) || /(~|\.tmp|\.swp|\.swx)$/.test(key)) return null;
  const kind = kindOfKey(key);
  return kind !== null && kinds.has(kind) ? key : null;
}

export async function watchCommand(session: Session, options: WatchOptions): Promise<number> {
  const { dir, out, target } = session;
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const pushPending = async () => {
    if (pending.size === 0 || stopped) return;
    const keys = new Set(pending);
    pending.clear();
    try {
      const report = await pushOnce(session, {
        dryRun: false,
        delete: false,
        force: false,
        kinds: options.kinds,
        keys,
      });
      printReport(report, session);
      out.document({ event: "push", ...pushJson(report, session) });
    } catch (error) {
      const refusal = failure(error, target.url);
      for (const line of refusal.lines) out.note(line);
      out.note(refusal.line);
      out.document({
        event: "error",
        ok: false,
        keys: [...keys].sort(),
        error: { code: String(refusal.details.code ?? refusal.line.split(":")[0]), message: refusal.line },
        ...refusal.details,
      });
    }
  };

  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      running = running.then(pushPending);
    }, options.debounceMs);
  };

  let watcher: FSWatcher;
  try {
    watcher = watch(dir, { recursive: true }, (_event, filename) => {
      if (!filename) return;
      const key = watchedKey(filename.toString(), options.kinds);
      if (key === null) return;
      pending.add(key);
      schedule();
    });
  } catch (error) {
    throw failure(error, target.url);
  }
  watcher.on("error", (error) => out.note(`watch_failed: ${error.message}`));
  out.line(`watching ${dir} for saves; each is pushed to ${target.url} site ${target.site} (Ctrl-C stops)`);
  out.document({ event: "watching", dir, target: targetJson(target), kinds: [...options.kinds] });

  await options.stop;
  stopped = true;
  if (timer) clearTimeout(timer);
  watcher.close();
  await running;
  return 0;
}
