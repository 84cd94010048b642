// `svc push [dir]`: sends what changed in the folder since the last sync (docs/cli.md, "push").
// Every object is planned first (plan.ts); any conflict stops the push before a write. A dry run
// prints the plan with the analysis warnings of every changed frame and stylesheet (the API's dry
// runs) and writes nothing, not even the state. Objects only on the server are deleted only with
// --delete.
import { CliError } from "../errors.ts";
import { dryRun, execute, type Done, type Views } from "../execute.ts";
import type { Kind } from "../layout.ts";
import { checkFile } from "../files.ts";
import { readFolder, type LocalObject } from "../local.ts";
import { planLine, warningLine, type Warning } from "../output.ts";
import { baselineAfter, planPush, WRITES, type PlanInput, type PlanItem } from "../plan.ts";
import { readServer } from "../remote.ts";
import { baseline, readState, withTarget, writeState } from "../state.ts";
import { refuseProblems, targetJson, type Session } from "./common.ts";

export interface PushOptions {
  dryRun: boolean;
  delete: boolean;
  force: boolean;
  kinds: Set<Kind>;
  /** Only these keys (watch: the files saved); all when absent. */
  keys?: ReadonlySet<string>;
}

export interface PushReport {
  dryRun: boolean;
  plan: PlanItem[];
  warnings: Map<string, Warning[]>;
  done: Done[];
  urls: string[];
  writes: number;
}

function itemJson(item: PlanItem, report: PushReport) {
  const done = report.done.find((d) => d.item.key === item.key);
  return {
    key: item.key,
    kind: item.kind,
    action: item.action === "delete" && report.dryRun ? "would-delete" : item.action,
    ...(item.from ? { from: item.from } : {}),
    ...(item.note ? { note: item.note } : {}),
    warnings: report.warnings.get(item.key) ?? done?.outcome.warnings ?? [],
    ...(done ? { urls: done.outcome.urls, done: true } : {}),
  };
}

export function pushJson(report: PushReport, session: Session) {
  return {
    ok: true,
    command: "push",
    dry_run: report.dryRun,
    target: targetJson(session.target),
    items: report.plan.map((item) => itemJson(item, report)),
    counts: counts(report.plan),
    writes: report.writes,
    urls: report.urls,
  };
}

function counts(plan: PlanItem[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of plan) out[item.action] = (out[item.action] ?? 0) + 1;
  return out;
}

const PUSH_HINT = "svc pull --force takes the server's, svc push --force sends yours";

export function conflictError(
  plan: ReadonlyArray<{ key: string; action: string; note?: string }>,
  hint = PUSH_HINT,
): CliError | null {
  const conflicts = plan.filter((item) => item.action === "conflict");
  if (conflicts.length === 0) return null;
  return new CliError(
    1,
    `conflict: ${conflicts.length} object${conflicts.length > 1 ? "s" : ""} changed both here and on the server since the last sync (${conflicts.map((c) => c.key).join(", ")}); nothing was written. ${hint}`,
    conflicts.map((item) => `conflict     ${item.key}  (${item.note})`),
    { code: "conflict", conflicts: conflicts.map((c) => ({ key: c.key, note: c.note })) },
  );
}

/** The JSON files a push would send, checked before anything is sent: one bad file stops the push. */
function refuseInvalid(plan: PlanItem[], local: ReadonlyMap<string, LocalObject>, out: Session["out"]): void {
  const bad: string[] = [];
  for (const item of plan) {
    const object = local.get(item.key);
    if (!object || object.value === undefined || (item.action !== "create" && item.action !== "update")) continue;
    try {
      checkFile(item.key, item.kind, object.value);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      bad.push(error.line);
    }
  }
  if (bad.length === 0) return;
  for (const line of bad) out.note(line);
  throw new CliError(
    1,
    `invalid_file: ${bad.length} file${bad.length > 1 ? "s" : ""} cannot be sent (listed above); nothing was sent`,
    [],
    { code: "invalid_file", files: bad },
  );
}

/** Plans and (unless a dry run) carries out one push. Throws the conflict or the refusal that stopped it. */
export async function pushOnce(session: Session, options: PushOptions): Promise<PushReport> {
  const { dir, api, out, target } = session;
  const folder = readFolder(dir, options.kinds);
  if (options.keys) folder.problems = folder.problems.filter((p) => options.keys!.has(p.key));
  refuseProblems(folder, out, "nothing was sent");
  const state = readState(dir);
  const base = baseline(state, target.url, target.site);
  const snapshot = await readServer(api, options.kinds);
  const input: PlanInput = {
    local: folder.objects,
    server: snapshot.objects,
    base,
    options: { delete: options.delete, force: options.force, kinds: options.kinds },
  };
  let plan = planPush(input);
  if (options.keys)
    plan = plan.filter(
      (item) => options.keys!.has(item.key) || (item.from !== undefined && options.keys!.has(item.from)),
    );
  const conflict = conflictError(plan);
  if (conflict) throw conflict;
  refuseInvalid(plan, folder.objects, out);
  const views: Views = { local: folder.objects, remote: snapshot.objects, base };
  const ctx = { api, facts: snapshot.facts, force: options.force };
  const report: PushReport = { dryRun: options.dryRun, plan, warnings: new Map(), done: [], urls: [], writes: 0 };
  if (options.dryRun) {
    report.warnings = await dryRun(ctx, plan, views, (done, total) => out.progress(done, total, "dry runs"));
    return report;
  }
  const writesBefore = api.counts.writes;
  const execution = await execute(ctx, plan, views, (done, total) => out.progress(done, total, "pushing"));
  report.done = execution.done;
  report.writes = api.counts.writes - writesBefore;
  report.urls = [...new Set(execution.done.flatMap((d) => d.outcome.urls))].sort();
  const doneKeys = new Set(execution.done.map((d) => d.item.key));
  const settled = execution.error ? plan.filter((item) => !WRITES.has(item.action) || doneKeys.has(item.key)) : plan;
  writeState(
    dir,
    withTarget(state, target.url, target.site, baselineAfter(input, settled, execution.written), new Date()),
  );
  if (execution.error) {
    printReport(report, session, true);
    const { exitCode, line, lines, details } = execution.error;
    throw new CliError(exitCode, line, lines, {
      ...details,
      written: execution.done.map((d) => d.item.key),
      writes: report.writes,
    });
  }
  return report;
}

/** The text lines of a push: each object that is not unchanged, its warnings, the addresses changed. */
export function printReport(report: PushReport, session: Session, partial = false): void {
  const { out } = session;
  const shown = partial ? report.plan.filter((item) => report.done.some((d) => d.item.key === item.key)) : report.plan;
  for (const item of shown) {
    if (item.action === "unchanged" && !report.dryRun) continue; // a dry run names every object
    out.line(planLine(item, report.dryRun));
    const done = report.done.find((d) => d.item.key === item.key);
    for (const warning of report.warnings.get(item.key) ?? done?.outcome.warnings ?? [])
      out.line(warningLine(item.key, warning));
    for (const note of done?.outcome.notes ?? []) out.line(`  ${note}`);
  }
  if (partial) return;
  const c = counts(report.plan);
  const words = ["create", "update", "rename", "delete", "unchanged", "skip", "keep"]
    .filter((action) => c[action])
    .map((action) => `${c[action]} ${action === "delete" && report.dryRun ? "would-delete" : action}`);
  const verb = report.dryRun
    ? "dry run, nothing written"
    : `${report.writes} write${report.writes === 1 ? "" : "s"} sent`;
  out.line(`${words.join(", ") || "nothing to push"} (${verb})`);
  for (const url of report.urls) out.line(`changed: ${url}`);
}

export async function pushCommand(session: Session, options: PushOptions): Promise<number> {
  const report = await pushOnce(session, options);
  printReport(report, session);
  session.out.document(pushJson(report, session));
  return 0;
}
