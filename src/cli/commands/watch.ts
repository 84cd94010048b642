// `svc watch [dir]`: pushes each saved file (docs/cli.md, "watch"). Saves are gathered until the
// folder has been quiet for the debounce time, then the files saved are pushed as `svc push` would
// push them (conflicts refused, frames with If-Match), one push at a time. Each push prints its
// lines, the analysis warnings and the public addresses it changed; a refusal is printed and the
// watch goes on. It never deletes: a file removed is kept on the server (push --delete deletes it).
import { failure } from "../api.ts";
import { watchFolder, type FolderWatch } from "../folder-watch.ts";
import type { Kind } from "../layout.ts";
import { printReport, pushJson, pushOnce } from "./push.ts";
import { targetJson, type Session } from "./common.ts";

export interface WatchOptions {
  kinds: Set<Kind>;
  debounceMs: number;
  /** Resolves when the watch should stop (SIGINT, SIGTERM; tests). */
  stop: Promise<void>;
}

export async function watchCommand(session: Session, options: WatchOptions): Promise<number> {
  const { dir, out, target } = session;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const pushSaved = async (keys: Set<string>) => {
    if (keys.size === 0 || stopped) return;
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

  let watcher: FolderWatch;
  try {
    watcher = watchFolder(dir, {
      kinds: options.kinds,
      debounceMs: options.debounceMs,
      onSaved: (keys) => {
        running = running.then(() => pushSaved(keys));
      },
      onError: (error) => out.note(`watch_failed: ${error.message}`),
    });
  } catch (error) {
    throw failure(error, target.url);
  }
  out.line(`watching ${dir} for saves; each is pushed to ${target.url} site ${target.site} (Ctrl-C stops)`);
  out.document({ event: "watching", dir, target: targetJson(target), kinds: [...options.kinds] });

  await options.stop;
  stopped = true;
  watcher.close();
  await running;
  return 0;
}
