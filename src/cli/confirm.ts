// The confirmation of a push to a production-like environment (docs/cli.md, "Environments"): an
// environment with "confirm": true in svc.json (production unless "confirm": false), pushed from a
// folder whose last sync (pull or push, .svc/state.json) was with another target, shows what
// would change there (the plan) and goes on only with --yes, or a "y" typed on a terminal. Without
// either it stops before the first write, exit 1: a CI job never waits for an answer.
import { CliError } from "./errors.ts";
import type { Environment } from "./environment.ts";
import { targetName, type StateFile, type TargetState } from "./state.ts";

/** The target the folder last synced with, when that is another than `url` and `site`. */
export function lastSyncedElsewhere(state: StateFile, url: string, site: number): TargetState | null {
  let last: [string, TargetState] | null = null;
  for (const entry of Object.entries(state.targets)) {
    if (!entry[1].synced_at) continue;
    if (!last || entry[1].synced_at > (last[1].synced_at ?? "")) last = entry;
  }
  return last && last[0] !== targetName(url, site) ? last[1] : null;
}

function described(target: TargetState): string {
  return `${target.env ? `${target.env} (${target.url} site ${target.site})` : `${target.url} site ${target.site}`} at ${target.synced_at}`;
}

export interface Confirmation {
  /** --yes was given. */
  yes: boolean;
  /** Asks on a terminal (absent when stdin or stderr is not one, or with --json). */
  ask?: (question: string) => Promise<boolean>;
}

/**
 * Resolves when the push may go on; throws (exit 1) when it needs a confirmation it did not get.
 * `lines`: the plan of what the push would change, shown with the question or the refusal.
 */
export async function confirmPush(
  environment: Environment | null,
  state: StateFile,
  target: { url: string; site: number },
  lines: readonly string[],
  confirmation: Confirmation,
  note: (line: string) => void,
): Promise<void> {
  if (!environment?.confirm) return;
  const other = lastSyncedElsewhere(state, target.url, target.site);
  if (!other) return;
  const why = `${environment.name} asks for confirmation: this folder last synced with ${described(other)}`;
  if (confirmation.yes) {
    note(`${why}; pushing (--yes)`);
    return;
  }
  if (confirmation.ask) {
    for (const line of lines) note(line);
    if (await confirmation.ask(`${why}. Push the changes above to ${environment.name}? [y/N] `)) return;
  }
  throw new CliError(
    1,
    `confirm: ${why}; nothing was written. The plan above is what would change on ${environment.name}: run svc push --env ${environment.name} --yes to push it`,
    confirmation.ask ? [] : lines,
    {
      code: "confirm",
      env: environment.name,
      last_synced: { url: other.url, site: other.site, env: other.env ?? null, synced_at: other.synced_at },
    },
  );
}
