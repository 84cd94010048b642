// What the writers of each kind (write-bytes.ts, write-content.ts) take and give back.
import type { Api, Rec } from "./api.ts";
import { CliError } from "./errors.ts";
import type { SiteFacts } from "./files.ts";
import type { LocalObject } from "./local.ts";
import type { Warning } from "./output.ts";
import type { PlanItem, Written } from "./plan.ts";
import type { RemoteObject } from "./remote.ts";
import type { StateEntry } from "./state.ts";

export interface WriteContext {
  api: Api;
  facts: SiteFacts;
  /** --force: updates of frames go without If-Match. */
  force: boolean;
}

/** One planned write with what the plan knew of the object. */
export interface Change {
  item: PlanItem;
  local?: LocalObject;
  /** The server's object (for a rename: the object under its old key). */
  remote?: RemoteObject;
  base?: StateEntry;
}

export interface Outcome {
  written: Written;
  warnings: Warning[];
  /** Public addresses whose output the write changed (absolute). */
  urls: string[];
  /** Anything else worth a line (frames whose references a rename rewrote). */
  notes?: string[];
}

export function warningsOf(answer: Rec | undefined): Warning[] {
  const warnings = answer?.warnings;
  return Array.isArray(warnings)
    ? (warnings.filter((w) => w && typeof (w as Warning).code === "string") as Warning[])
    : [];
}

/** The public addresses a write's `rebaked` report flushed or rewrote, absolute on the site's origin. */
export function urlsOf(answer: Rec | undefined, facts: SiteFacts): string[] {
  const rebaked = answer?.rebaked as Rec | undefined;
  const cache = rebaked?.cache as Rec | undefined;
  const flushed = cache?.flushed as Rec | undefined;
  const urls = flushed?.urls as Rec | string[] | undefined;
  const list = Array.isArray(urls)
    ? urls
    : Array.isArray((urls as Rec | undefined)?.urls)
      ? ((urls as Rec).urls as unknown[])
      : [];
  const out = new Set<string>();
  for (const url of list) {
    if (typeof url !== "string") continue;
    out.add(/^https?:\/\//.test(url) || !facts.origin ? url : `${facts.origin}${url.startsWith("/") ? "" : "/"}${url}`);
  }
  return [...out].sort();
}

/**
 * An outcome gathered over the several calls of one write: `collect` takes each answer's warnings
 * and addresses (and hands the answer back), `settle` records what the server holds now and keeps
 * each address once, in order.
 */
export function gathering(facts: SiteFacts): {
  outcome: Outcome;
  collect: (answer: Rec) => Rec;
  settle: (written: Written) => Outcome;
} {
  const outcome: Outcome = { written: { server_sha256: "" }, warnings: [], urls: [] };
  return {
    outcome,
    collect(answer) {
      outcome.warnings.push(...warningsOf(answer));
      outcome.urls.push(...urlsOf(answer, facts));
      return answer;
    },
    settle(written) {
      outcome.written = written;
      outcome.urls = [...new Set(outcome.urls)].sort();
      return outcome;
    },
  };
}

export function text(local: LocalObject): string {
  return new TextDecoder("utf-8", { fatal: true }).decode(local.bytes);
}

export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new CliError(1, `failed: ${what} is missing from the plan`);
  return value;
}

/** A conflict met while writing (a 412 on If-Match): reported as the plan reports them. */
export function conflictAt(key: string, why: string): CliError {
  return new CliError(
    1,
    `conflict: ${key}: ${why}; nothing more was written (svc status shows it, svc pull takes the server's, push --force sends yours)`,
    [],
    {
      code: "conflict",
      conflicts: [key],
    },
  );
}
