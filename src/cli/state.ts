// `.svc/state.json`: what every object was when the folder last synced with a service (pull, or a
// push that wrote or found it equal). One section per target (service URL and site), so one folder
// pushed to staging and to production keeps a baseline for each. Per object:
//   sha256         the object's hash in the folder's form when last synced (canonical.ts)
//   server_sha256  the server's hash of it then (differs from sha256 when the service normalised
//                  what was sent, e.g. a page's seo filled in with its defaults)
//   id             the server's id (frames, pages, menus, media), for renames
//   etag           a frame's ETag when last written (sent as If-Match on its next update)
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CliError } from "./errors.ts";

export interface StateEntry {
  sha256: string;
  server_sha256: string;
  id?: string | number;
  etag?: string;
}

export interface TargetState {
  url: string;
  site: number;
  synced_at: string | null;
  /** The svc.json environment of the last sync with --env (a push to another asks --yes: confirm.ts). */
  env?: string;
  objects: Record<string, StateEntry>;
}

export interface StateFile {
  version: 1;
  targets: Record<string, TargetState>;
}

export const STATE_PATH = ".svc/state.json";

/** The section name of a target: `<url> site <id>`. */
export function targetName(url: string, site: number): string {
  return `${url.replace(/\/+$/, "")} site ${site}`;
}

export function emptyState(): StateFile {
  return { version: 1, targets: {} };
}

function isEntry(value: unknown): value is StateEntry {
  const entry = value as StateEntry;
  return (
    typeof value === "object" &&
    value !== null &&
    typeof entry.sha256 === "string" &&
    typeof entry.server_sha256 === "string"
  );
}

/** Reads a state file's text; a file of another shape is refused (exit 1) rather than overwritten. */
export function parseState(text: string, path = STATE_PATH): StateFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      1,
      `state_unreadable: ${path} is not JSON (${(error as Error).message}); move it away to start from no baseline`,
    );
  }
  const state = value as StateFile;
  if (
    typeof value !== "object" ||
    value === null ||
    state.version !== 1 ||
    typeof state.targets !== "object" ||
    state.targets === null
  ) {
    throw new CliError(
      1,
      `state_unreadable: ${path} is not a state file of this svc (version 1); move it away to start from no baseline`,
    );
  }
  for (const target of Object.values(state.targets)) {
    if (
      typeof target !== "object" ||
      target === null ||
      typeof target.objects !== "object" ||
      target.objects === null ||
      !Object.values(target.objects).every(isEntry)
    ) {
      throw new CliError(
        1,
        `state_unreadable: ${path} has a target without valid objects; move it away to start from no baseline`,
      );
    }
  }
  return state;
}

export function stateText(state: StateFile): string {
  const targets: Record<string, TargetState> = {};
  for (const name of Object.keys(state.targets).sort()) {
    const target = state.targets[name];
    const objects: Record<string, StateEntry> = {};
    for (const key of Object.keys(target.objects).sort()) objects[key] = target.objects[key];
    targets[name] = { ...target, objects };
  }
  return `${JSON.stringify({ version: 1, targets }, null, 2)}\n`;
}

/** The baseline of one target (empty when the folder never synced with it). */
export function baseline(state: StateFile, url: string, site: number): Map<string, StateEntry> {
  return new Map(Object.entries(state.targets[targetName(url, site)]?.objects ?? {}));
}

/** The state with one target's objects replaced. */
export function withTarget(
  state: StateFile,
  url: string,
  site: number,
  objects: Map<string, StateEntry>,
  now: Date,
  env?: string,
): StateFile {
  const target: TargetState = {
    url: url.replace(/\/+$/, ""),
    site,
    synced_at: now.toISOString(),
    ...(env ? { env } : {}),
    objects: Object.fromEntries(objects),
  };
  return { version: 1, targets: { ...state.targets, [targetName(url, site)]: target } };
}

export function readState(dir: string): StateFile {
  let text: string;
  try {
    text = readFileSync(join(dir, STATE_PATH), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return emptyState();
    throw error;
  }
  return parseState(text);
}

/** Writes the state file whole or not at all (a temporary file renamed over it). */
export function writeState(dir: string, state: StateFile): void {
  const path = join(dir, STATE_PATH);
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, stateText(state));
  renameSync(temporary, path);
}
