// The history calls of every kind (docs/revisions.md): an object's revisions, one with
// its content, a unified diff between two, a restore (a new revision with that state, never a
// rewind), and the trash with its restores. The kinds differ only in their adapters (kind.ts).
import { createTwoFilesPatch } from "diff";
import { fail } from "../errors.ts";
import { warning } from "../warnings.ts";
import {
  lastRevision,
  listRevisions,
  listSiteRevisions,
  REVISION_KINDS,
  revisionOf,
  type RevisionKind,
} from "../revisions/revisions.ts";
import { listTrash, purgeTrashed, trashEntry } from "../revisions/trash.ts";
import { runWrite } from "../write/pipeline.ts";
import type { HistoryCall, HistoryKind, StoredState } from "./kind.ts";

/** A revision number from the path: a whole number from 1; anything else names no revision. */
function revisionNumber(raw: string, field = "n"): number {
  const n = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n))
    throw fail("revision_not_found", { [field]: raw }, `No revision "${raw}": revisions are numbered 1, 2, …`);
  return n;
}

async function stored(call: HistoryCall, kind: RevisionKind, id: string, raw: string, field = "n") {
  const n = revisionNumber(raw, field);
  const found = await revisionOf(call.ctx.db, call.site.id, kind, id, n);
  if (!found)
    throw fail("revision_not_found", { [field]: n, last: await lastRevision(call.ctx.db, call.site.id, kind, id) });
  return found;
}

export async function listObjectRevisions(
  call: HistoryCall,
  adapter: HistoryKind,
  ref: string,
  page: { limit: number; offset: number },
) {
  const { id } = await adapter.locate(call, ref);
  const { total, revisions } = await listRevisions(call.ctx.db, call.site.id, adapter.kind, id, page);
  return { kind: adapter.kind, id, revisions, total };
}

/** The site's recent changes: every revision of every kind, newest first, each with its object's address. */
export async function listSiteChanges(
  call: HistoryCall,
  adapters: ReadonlyMap<RevisionKind, HistoryKind>,
  page: { limit: number; offset: number },
) {
  const { total, revisions } = await listSiteRevisions(call.ctx.db, call.site.id, page);
  const changes = revisions.map(({ object_id, ...revision }) => {
    const adapter = adapters.get(revision.kind)!;
    const address =
      adapter.addressOf?.(object_id) ?? adapter.path.replace(`:${adapter.param}`, encodeURIComponent(object_id));
    return { ...revision, id: object_id, address };
  });
  return { total, changes };
}

export async function getObjectRevision(call: HistoryCall, adapter: HistoryKind, ref: string, raw: string) {
  const { id } = await adapter.locate(call, ref);
  return { kind: adapter.kind, id, revision: await stored(call, adapter.kind, id, raw) };
}

/** A unified diff of revision n's content against revision `to`, or against the object's current state. */
export async function diffObjectRevisions(
  call: HistoryCall,
  adapter: HistoryKind,
  ref: string,
  raw: string,
  to: unknown,
) {
  const { id, current } = await adapter.locate(call, ref);
  const from = await stored(call, adapter.kind, id, raw);
  let target: { label: string; revision: number | null; content: string };
  if (to === undefined || to === "" || to === "current") {
    target = { label: "current", revision: null, content: current.content };
  } else {
    if (typeof to !== "string") throw fail("revision_not_found", { to }, "to names one revision.");
    const other = await stored(call, adapter.kind, id, to, "to");
    target = { label: `revision ${other.revision}`, revision: other.revision, content: other.content };
  }
  // Without jsdiff's `====` banner: a unified diff starts at its `---` line.
  const diff = createTwoFilesPatch(
    `revision ${from.revision}`,
    target.label,
    from.content,
    target.content,
    undefined,
    undefined,
    { context: 3 },
  ).replace(/^=+\n/, "");
  return {
    kind: adapter.kind,
    id,
    from: from.revision,
    to: target.revision,
    identical: from.content === target.content,
    diff,
  };
}

function stateOf(found: { revision: number; content: string; fields: Record<string, unknown> }): StoredState {
  return { revision: found.revision, content: found.content, fields: found.fields };
}

/** Writes revision n's state as the object's next write; answers that write's answer and the revision it made. */
export async function restoreObjectRevision(call: HistoryCall, adapter: HistoryKind, ref: string, raw: string) {
  const { id } = await adapter.locate(call, ref);
  const found = await stored(call, adapter.kind, id, raw);
  const before = await lastRevision(call.ctx.db, call.site.id, adapter.kind, id);
  const answer = await adapter.restore(call, id, stateOf(found));
  const after = await lastRevision(call.ctx.db, call.site.id, adapter.kind, id);
  const { warnings = [], ...body } = answer.body as { warnings?: unknown[] };
  if (after === before)
    warnings.push(
      warning(
        "nothing_changed",
        `The ${adapter.kind} object already holds revision ${found.revision}'s state: no revision was added.`,
        { revision: found.revision },
      ),
    );
  return {
    body: { ...body, restored: { kind: adapter.kind, id, from_revision: found.revision, revision: after }, warnings },
    etag: answer.etag,
  };
}

export async function listTrashItems(call: HistoryCall) {
  return { items: await listTrash(call.ctx.db, call.site.id) };
}

/** Brings one deleted object back from the trash, under its id, with its content and history. */
export async function restoreTrashed(
  call: HistoryCall,
  adapters: ReadonlyMap<RevisionKind, HistoryKind>,
  kind: string,
  id: string,
) {
  const adapter = (REVISION_KINDS as readonly string[]).includes(kind) ? adapters.get(kind as RevisionKind) : undefined;
  const entry = adapter && (await trashEntry(call.ctx.db, call.site.id, adapter.kind, id));
  if (!adapter || !entry) throw fail("trash_item_not_found", { kind, id });
  const found = await revisionOf(call.ctx.db, call.site.id, adapter.kind, id, entry.last_revision);
  // Its history was pruned to nothing (cannot happen while the entry stands; kept for safety).
  if (!found) throw fail("trash_item_not_found", { kind, id });
  const answer = await adapter.undelete(call, entry, stateOf(found));
  const { warnings = [], ...body } = answer.body as { warnings?: unknown[] };
  return {
    body: {
      ...body,
      restored: {
        kind: adapter.kind,
        id,
        from_revision: found.revision,
        revision: await lastRevision(call.ctx.db, call.site.id, adapter.kind, id),
      },
      warnings,
    },
    etag: answer.etag,
  };
}

/**
 * Deletes a trashed object for good with its history, freeing the bytes it held (docs/revisions.md),
 * as a write of that object: its event is `<kind>.deleted` (docs/events.md), named as the trash named it.
 */
export async function purgeTrashItem(
  call: HistoryCall,
  adapters: ReadonlyMap<RevisionKind, HistoryKind>,
  kind: string,
  id: string,
  dryRun: boolean,
) {
  const adapter = (REVISION_KINDS as readonly string[]).includes(kind) ? adapters.get(kind as RevisionKind) : undefined;
  if (!adapter) throw fail("trash_item_not_found", { kind, id });
  const done = await runWrite(call.ctx, {
    siteId: call.site.id,
    dryRun,
    apply: async (trx) => {
      const { slug, ...purged } = await purgeTrashed(trx, call.site.id, adapter.kind, id);
      return { value: purged, wrote: [{ kind: adapter.written, id, action: "deleted", slug }] };
    },
  });
  return { purged: done.value };
}
