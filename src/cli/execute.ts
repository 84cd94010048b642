// Carries out a push plan: creates, updates and renames in write order (kinds as layout.KINDS;
// a page's parent before it; several objects of one kind at once, the client keeping at most 4
// calls on the wire), then deletes in the reverse order. The first refusal stops it: what was
// written until then is kept in the baseline, nothing further is sent.
import { eachLimited } from "./api.ts";
import { CliError } from "./errors.ts";
import { KIND_MODULES } from "./kinds/index.ts";
import { writeEarlySettings } from "./kinds/settings-early.ts";
import { depthOf, kindRank, type Kind } from "./layout.ts";
import type { LocalObject } from "./local.ts";
import type { Warning } from "./output.ts";
import { WRITES, type PlanItem, type Written } from "./plan.ts";
import type { RemoteObject } from "./remote.ts";
import type { StateEntry } from "./state.ts";
import { dryRunBytes, writeFrame, writeMedia, writeStyle } from "./write-bytes.ts";
import { writeData, writeMenu, writePage, writeSettings } from "./write-content.ts";
import type { Change, Outcome, WriteContext } from "./write-types.ts";

const WRITERS = {
  media: writeMedia,
  styles: writeStyle,
  frames: writeFrame,
  pages: writePage,
  menus: writeMenu,
  data: writeData,
  settings: writeSettings,
  ...Object.fromEntries(Object.entries(KIND_MODULES).map(([kind, module]) => [kind, module.write])),
} as Record<Kind, (ctx: WriteContext, change: Change) => Promise<Outcome>>;

export interface Views {
  local: ReadonlyMap<string, LocalObject>;
  remote: ReadonlyMap<string, RemoteObject>;
  base: ReadonlyMap<string, StateEntry>;
}

export interface Done {
  item: PlanItem;
  outcome: Outcome;
}

export interface Execution {
  done: Done[];
  written: Map<string, Written>;
  /** The refusal that stopped the push, if any. */
  error: CliError | null;
}

export function changeOf(item: PlanItem, views: Views): Change {
  const remoteKey = item.action === "rename" && item.from ? item.from : item.key;
  return {
    item,
    local: views.local.get(item.key),
    remote: views.remote.get(remoteKey),
    base: views.base.get(remoteKey),
  };
}

/** Batches that may run together: one kind, and for pages one depth (parents first). */
function batches(items: PlanItem[]): PlanItem[][] {
  const groups: PlanItem[][] = [];
  let current: PlanItem[] = [];
  let label = "";
  for (const item of items) {
    const next = item.kind === "pages" ? `pages ${depthOf(item.key)}` : item.kind;
    if (next !== label && current.length) {
      groups.push(current);
      current = [];
    }
    label = next;
    current.push(item);
  }
  if (current.length) groups.push(current);
  return groups;
}

export async function execute(
  ctx: WriteContext,
  plan: PlanItem[],
  views: Views,
  progress: (done: number, total: number) => void,
): Promise<Execution> {
  const writes = plan.filter((item) => WRITES.has(item.action));
  const forward = writes.filter((item) => item.action !== "delete");
  const deletes = writes.filter((item) => item.action === "delete").reverse();
  const depth = (item: PlanItem) => (item.kind === "pages" ? depthOf(item.key) : 0);
  const order = (a: PlanItem, b: PlanItem) =>
    kindRank(a.kind) - kindRank(b.kind) || depth(a) - depth(b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const ordered = [...batches([...forward].sort(order)), ...deletes.map((item) => [item])];
  const execution: Execution = { done: [], written: new Map(), error: null };
  let count = 0;
  progress(0, writes.length);
  let early: Outcome | null = null;
  try {
    early = await writeEarlySettings(ctx, writes, views.local, views.remote);
  } catch (error) {
    execution.error =
      error instanceof CliError ? error : new CliError(1, `failed: settings.json: ${(error as Error).message}`);
    return execution;
  }
  for (const batch of ordered) {
    await eachLimited(batch, 4, async (item) => {
      if (execution.error) return;
      try {
        const outcome = await WRITERS[item.kind](ctx, changeOf(item, views));
        if (early && item.kind === "settings") {
          outcome.warnings.unshift(...early.warnings);
          outcome.urls = [...new Set([...early.urls, ...outcome.urls])].sort();
        }
        execution.done.push({ item, outcome });
        execution.written.set(item.key, outcome.written);
      } catch (error) {
        execution.error ??=
          error instanceof CliError ? error : new CliError(1, `failed: ${item.key}: ${(error as Error).message}`);
      } finally {
        progress(++count, writes.length);
      }
    });
    if (execution.error) break;
  }
  return execution;
}

/** The warnings each frame and stylesheet would get (the API's dry runs), by key. */
export async function dryRun(
  ctx: WriteContext,
  plan: PlanItem[],
  views: Views,
  progress: (done: number, total: number) => void,
): Promise<Map<string, Warning[]>> {
  const checked = plan.filter(
    (item) =>
      (item.kind === "frames" || item.kind === "styles") && (item.action === "create" || item.action === "update"),
  );
  const found = new Map<string, Warning[]>();
  let count = 0;
  await eachLimited(checked, 4, async (item) => {
    try {
      found.set(item.key, await dryRunBytes(ctx, changeOf(item, views)));
    } catch (error) {
      const refusal = error instanceof CliError ? error : new CliError(1, String(error));
      const code = String((refusal.details as { code?: string }).code ?? "refused");
      found.set(item.key, [{ code, message: refusal.line.replace(/^[^:]+:\s*/, ""), refused: true }]);
    } finally {
      progress(++count, checked.length);
    }
  });
  return found;
}
