// What a push would do and what status shows, from three views of every object: the folder now
// (local), the server now (server) and both when they last synced (the baseline, .svc/state.json).
// Pure and total: docs/cli.md "Conflicts" states the rules; test/cli/plan.test.ts checks them
// with fast-check.
//
// An object is changed locally when its hash differs from the baseline's `sha256`, changed on the
// server when the server's hash differs from the baseline's `server_sha256`; with no baseline both
// sides count as changed, unless they are equal. Equal content is always in sync.
import { kindOfKey, kindRank, NEVER_DELETED, RENAMABLE, type Kind } from "./layout.ts";
import type { StateEntry } from "./state.ts";

export interface Side {
  hash: string;
  id?: string | number;
}

export type Action =
  | "create" // only in the folder: created on the server
  | "update" // changed in the folder, not on the server: sent
  | "rename" // moved in the folder (same content, new name): renamed on the server
  | "unchanged" // in sync
  | "skip" // changed on the server only: left as it is there (svc pull takes it)
  | "delete" // only on the server, and --delete: deleted there (a dry run prints would-delete)
  | "keep" // only on the server (new there, or removed from the folder), without --delete: kept
  | "conflict"; // changed on both sides: nothing is written (--force sends the folder's)

export interface PlanItem {
  key: string;
  kind: Kind;
  action: Action;
  /** A rename's old key. */
  from?: string;
  /** Why, in a few words (printed after the key). */
  note?: string;
}

export interface PlanOptions {
  /** Delete objects that are only on the server (--delete). */
  delete: boolean;
  /** Send the folder's version of conflicting objects (--force). */
  force: boolean;
  /** The kinds considered (--only); others are left out of the plan. */
  kinds: ReadonlySet<Kind>;
}

export interface PlanInput {
  local: ReadonlyMap<string, Side>;
  server: ReadonlyMap<string, Side>;
  base: ReadonlyMap<string, StateEntry>;
  options: PlanOptions;
}

/** Actions that write to the server. */
export const WRITES: ReadonlySet<Action> = new Set(["create", "update", "rename", "delete"]);

function inKinds(key: string, kinds: ReadonlySet<Kind>): Kind | null {
  const kind = kindOfKey(key);
  return kind !== null && kinds.has(kind) ? kind : null;
}

/** Every object the folder, the server or the baseline knows, of the kinds considered, with its three states. */
function* objectsOf(
  input: Omit<PlanInput, "options">,
  kinds: ReadonlySet<Kind>,
): Generator<{ key: string; kind: Kind; l: Side | undefined; s: Side | undefined; b: StateEntry | undefined }> {
  for (const key of new Set([...input.local.keys(), ...input.server.keys(), ...input.base.keys()])) {
    const kind = inKinds(key, kinds);
    if (kind !== null) yield { key, kind, l: input.local.get(key), s: input.server.get(key), b: input.base.get(key) };
  }
}

/**
 * Moves: a key gone from the folder whose object is unchanged on the server, and a new key in the
 * folder (on neither the server nor the baseline) with the very content the old one had when last
 * synced, of the same renamable kind. Each old key pairs with one new key at most.
 */
function findRenames(input: PlanInput): Map<string, string> {
  const { local, server, base, options } = input;
  const candidates = new Map<string, string[]>(); // `${kind} ${hash}` → old keys
  for (const [key, entry] of base) {
    const kind = inKinds(key, options.kinds);
    if (kind === null || !RENAMABLE.has(kind) || local.has(key)) continue;
    const now = server.get(key);
    if (!now || now.hash !== entry.server_sha256) continue;
    const slot = `${kind} ${entry.sha256}`;
    candidates.set(slot, [...(candidates.get(slot) ?? []), key]);
  }
  const renames = new Map<string, string>(); // new key → old key
  for (const [key, side] of [...local].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const kind = inKinds(key, options.kinds);
    if (kind === null || server.has(key) || base.has(key)) continue;
    const old = candidates.get(`${kind} ${side.hash}`)?.shift();
    if (old !== undefined) renames.set(key, old);
  }
  return renames;
}

function decide(
  key: string,
  kind: Kind,
  l: Side | undefined,
  s: Side | undefined,
  b: StateEntry | undefined,
  input: PlanInput,
): PlanItem {
  const { force } = input.options;
  const item = (action: Action, note?: string): PlanItem =>
    note ? { key, kind, action, note } : { key, kind, action };
  if (l && s) {
    if (l.hash === s.hash) return item("unchanged");
    const localChanged = !b || l.hash !== b.sha256;
    const serverChanged = !b || s.hash !== b.server_sha256;
    if (!localChanged && !serverChanged) return item("unchanged");
    if (!serverChanged) return item("update");
    if (!localChanged) return item("skip", "changed on the server; svc pull takes it");
    if (force) return item("update", "forced over the server's change");
    return item(
      "conflict",
      b ? "changed here and on the server since the last sync" : "differs from the server, never synced with it",
    );
  }
  if (l) {
    if (!b) return item("create");
    if (l.hash === b.sha256) return item("skip", "deleted on the server; svc pull removes it here");
    if (force) return item("create", "forced: deleted on the server, changed here");
    return item("conflict", "changed here, deleted on the server since the last sync");
  }
  if (s) {
    if (NEVER_DELETED.has(kind)) return item("keep", `${key} is not in the folder; it is never deleted`);
    const note = b ? "deleted here" : "only on the server";
    if (!input.options.delete) return item("keep", `${note}; push --delete deletes it there`);
    if (b && s.hash !== b.server_sha256) {
      if (force) return item("delete", `${note}, forced over the server's change`);
      return item("conflict", "deleted here, changed on the server since the last sync");
    }
    return item("delete", note);
  }
  return item("unchanged", "deleted on both sides");
}

/** The plan of a push: one item per object of the kinds considered, in write order, renames as one item. */
export function planPush(input: PlanInput): PlanItem[] {
  const renames = findRenames(input);
  const renamed = new Set(renames.values());
  const items: PlanItem[] = [];
  for (const { key, kind, l, s, b } of objectsOf(input, input.options.kinds)) {
    if (renamed.has(key)) continue;
    const from = renames.get(key);
    if (from !== undefined) items.push({ key, kind, action: "rename", from });
    else if (l || s) items.push(decide(key, kind, l, s, b, input));
  }
  return sortPlan(items);
}

/** Write order: kinds as KINDS, then by key (so a page's parent comes before it). */
export function sortPlan<T extends { key: string; kind: Kind }>(items: T[]): T[] {
  return [...items].sort((a, b) => kindRank(a.kind) - kindRank(b.kind) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export type Change = "added" | "modified" | "deleted";

export interface StatusItem {
  key: string;
  kind: Kind;
  local: Change | null;
  server: Change | null;
  /** Changed on both sides, to different content. */
  conflict: boolean;
}

function change(now: Side | undefined, base: string | undefined): Change | null {
  if (now && base === undefined) return "added";
  if (now && now.hash !== base) return "modified";
  if (!now && base !== undefined) return "deleted";
  return null;
}

/** Both directions, each object that differs from the baseline on either side (in-sync objects left out). */
export function siteStatus(input: Omit<PlanInput, "options"> & { kinds: ReadonlySet<Kind> }): StatusItem[] {
  const items: StatusItem[] = [];
  for (const { key, kind, l, s, b } of objectsOf(input, input.kinds)) {
    if (l && s && l.hash === s.hash) continue; // equal content: in sync, whatever the baseline says
    const local = change(l, b?.sha256);
    const server = change(s, b?.server_sha256);
    if (local === null && server === null) continue;
    const conflict = local !== null && server !== null && !(local === "deleted" && server === "deleted");
    items.push({ key, kind, local, server, conflict });
  }
  return sortPlan(items);
}

export type PullAction =
  | "create" // only on the server: written to the folder
  | "update" // changed on the server, not here: the file is overwritten
  | "delete" // deleted on the server, unchanged here: the file is removed
  | "unchanged" // in sync
  | "keep" // changed (or deleted) here only: left as it is (svc push sends it)
  | "conflict"; // changed on both sides: nothing is written (--force takes the server's)

export interface PullItem {
  key: string;
  kind: Kind;
  action: PullAction;
  note?: string;
}

/** The plan of a pull: the mirror of a push (the server's changes come in, the folder's stay). */
export function planPull(input: Omit<PlanInput, "options"> & { kinds: ReadonlySet<Kind>; force: boolean }): PullItem[] {
  const items: PullItem[] = [];
  for (const { key, kind, l, s, b } of objectsOf(input, input.kinds)) {
    const item = (action: PullAction, note?: string): PullItem =>
      note ? { key, kind, action, note } : { key, kind, action };
    const localChanged = l ? !b || l.hash !== b.sha256 : b !== undefined;
    const serverChanged = s ? !b || s.hash !== b.server_sha256 : b !== undefined;
    if (!l && !s) continue;
    if (l && s && l.hash === s.hash) items.push(item("unchanged"));
    else if (!serverChanged) {
      if (!localChanged) items.push(item("unchanged"));
      else
        items.push(
          item(
            "keep",
            !l
              ? "deleted here; svc push --delete deletes it there"
              : b
                ? "changed here; svc push sends it"
                : "only here; svc push creates it",
          ),
        );
    } else if (!localChanged || input.force)
      items.push(
        item(s ? (l ? "update" : "create") : "delete", localChanged ? "forced over the change here" : undefined),
      );
    else if (!s) items.push(item("conflict", "changed here, deleted on the server since the last sync"));
    else if (!l) items.push(item("conflict", "deleted here, changed on the server since the last sync"));
    else
      items.push(
        item(
          "conflict",
          b ? "changed here and on the server since the last sync" : "differs from the server, never synced with it",
        ),
      );
  }
  return sortPlan(items);
}

/** The baseline after a pull carried out `items`: `local` holds each written file's hash. */
export function baselineAfterPull(
  input: Omit<PlanInput, "options">,
  items: readonly PullItem[],
): Map<string, StateEntry> {
  const next = new Map(input.base);
  for (const item of items) {
    const s = input.server.get(item.key);
    const b = input.base.get(item.key);
    if (item.action === "delete") next.delete(item.key);
    else if ((item.action === "create" || item.action === "update" || item.action === "unchanged") && s) {
      const l = item.action === "unchanged" ? input.local.get(item.key) : undefined;
      next.set(item.key, {
        ...b,
        sha256: l?.hash ?? s.hash,
        server_sha256: s.hash,
        ...(s.id !== undefined ? { id: s.id } : {}),
      });
    }
  }
  return next;
}

/** What a write of the plan left on the server: its hash there now, and its id and ETag when known. */
export interface Written {
  server_sha256: string;
  id?: string | number;
  etag?: string;
}

/**
 * The baseline after a push carried out `items` (all of them, or the first ones before a failure:
 * `written` holds the writes that were answered). Objects of kinds outside the push keep their entry.
 */
export function baselineAfter(
  input: PlanInput,
  items: readonly PlanItem[],
  written: ReadonlyMap<string, Written>,
): Map<string, StateEntry> {
  const next = new Map(input.base);
  for (const item of items) {
    const l = input.local.get(item.key);
    const s = input.server.get(item.key);
    const b = input.base.get(item.key);
    const done = written.get(item.key);
    if (item.action === "rename" && item.from !== undefined) {
      if (!done || !l) continue;
      next.delete(item.from);
      next.set(item.key, entry(l.hash, done, input.base.get(item.from)));
    } else if (item.action === "create" || item.action === "update") {
      if (done && l) next.set(item.key, entry(l.hash, done, b));
    } else if (item.action === "delete") {
      if (done) next.delete(item.key);
    } else if (item.action === "unchanged") {
      if (l && s)
        next.set(item.key, {
          ...b,
          sha256: l.hash,
          server_sha256: s.hash,
          ...(s.id !== undefined ? { id: s.id } : {}),
        });
      else next.delete(item.key); // deleted on both sides
    }
    // skip, keep, conflict: the baseline stays as it was
  }
  return next;
}

function entry(localHash: string, done: Written, old: StateEntry | undefined): StateEntry {
  const id = done.id ?? old?.id;
  const etag = done.etag;
  return {
    sha256: localHash,
    server_sha256: done.server_sha256,
    ...(id !== undefined ? { id } : {}),
    ...(etag !== undefined ? { etag } : {}),
  };
}
