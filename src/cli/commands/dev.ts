// `svc dev [dir]`: a local preview server (docs/cli.md, "svc dev"). It serves the site as the
// service would show it with the folder's unsaved frames, pages, stylesheets and data (through
// POST /preview: nothing is written), proxies the rest from the service's public site, and
// reloads the open pages when a file of the folder is saved (folder-watch.ts, as `svc watch`).
import { failure } from "../api.ts";
import { watchFolder, type FolderWatch } from "../folder-watch.ts";
import { KINDS } from "../layout.ts";
import { siteFacts } from "../remote.ts";
import { proxyRequest } from "../dev/proxy.ts";
import { renderAddress } from "../dev/render.ts";
import { startDevServer } from "../dev/server.ts";
import { targetJson, type Session } from "./common.ts";

export interface DevOptions {
  host: string;
  port: number;
  debounceMs: number;
  /** Resolves when the server should stop (SIGINT, SIGTERM; tests). */
  stop: Promise<void>;
}

export async function devCommand(session: Session, options: DevOptions): Promise<number> {
  const { dir, out, target, api } = session;
  // The site's origin once, to proxy with its host name; the pages read it afresh.
  const { origin: siteOrigin } = await siteFacts(api);
  const server = await startDevServer(options.host, options.port, {
    render: (pathname, devOrigin) => renderAddress(session, pathname, devOrigin),
    proxy: (req, res, devOrigin) => proxyRequest({ serviceUrl: target.url, siteOrigin, devOrigin }, req, res),
    failed: (error) => {
      const refusal = failure(error, target.url);
      out.note(refusal.line);
      return refusal.line;
    },
  });
  let watcher: FolderWatch;
  try {
    watcher = watchFolder(dir, {
      kinds: new Set(KINDS),
      debounceMs: options.debounceMs,
      onSaved: (keys) => {
        const saved = [...keys].sort();
        server.reload(saved);
        out.line(`saved ${saved.join(", ")}: reloading`);
        out.document({ event: "reload", keys: saved });
      },
      onError: (error) => out.note(`watch_failed: ${error.message}`),
    });
  } catch (error) {
    await server.close();
    throw failure(error, target.url);
  }
  out.line(
    `serving ${siteOrigin || `site ${target.site}`} with the unsaved files of ${dir} at ${server.shown} (Ctrl-C stops)`,
  );
  out.document({ event: "serving", url: server.url, dir, target: targetJson(target) });
  await options.stop;
  watcher.close();
  await server.close();
  return 0;
}
