// `svc push [dir]`: sends what changed in the folder since the last sync (docs/cli.md, "push").
// Every object is planned first (plan.ts); any conflict stops the push before a write. The markup
// is judged against the site as it will stand after the whole push (check.ts) before the first
// write: a dry run prints those warnings and writes nothing, not even the state; --strict refuses
// on any (exit 2). A push to an environment that asks for confirmation (confirm.ts) needs --yes
// when the folder last synced elsewhere. Objects only on the server are deleted only with
// --delete. What it prints: push-report.ts.
import { answeringAddresses, type Answered } from "../addresses.ts";
import { judgeMarkup } from "../check.ts";
import { confirmPush, lastSyncedElsewhere, type Confirmation } from "../confirm.ts";
import { planDomains, pushDomains } from "../domains.ts";
import { folderStrict } from "../environment.ts";
import { CliError } from "../errors.ts";
import { execute, type Views } from "../execute.ts";
import type { Kind } from "../layout.ts";
import { checkFile } from "../files.ts";
import { readFolder, type LocalObject } from "../local.ts";
import { warningPlace } from "../output.ts";
import { overriddenFolder } from "../overrides.ts";
import { yieldNewSite } from "../new-site.ts";
import { baselineAfter, planPush, WRITES, type PlanInput, type PlanItem } from "../plan.ts";
import { readServer } from "../remote.ts";
import { baseline, readState, withTarget, writeState } from "../state.ts";
import { refuseProblems, type Session } from "./common.ts";
import { emptyReport, planLines, printReport, pushJson, warningLines, type PushReport } from "./push-report.ts";

export interface PushOptions {
  dryRun: boolean;
  delete: boolean;
  force: boolean;
  kinds: Set<Kind>;
  /** Only these keys (watch: the files saved); all when absent. */
  keys?: ReadonlySet<string>;
  /** --strict: any warning fails the push before its first write (svc.json "strict" too). */
  strict?: boolean;
  /** --yes, or a question on a terminal, for an environment that asks (confirm.ts). */
  confirmation?: Confirmation;
}

export { printReport, pushJson, type PushReport };

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

/** Strict: from the flag, the environment's svc.json entry, or the top of svc.json. */
function strictOf(session: Session, options: PushOptions): boolean {
  if (options.strict) return true;
  return session.environment ? session.environment.strict : folderStrict(session.dir);
}

/** --strict and a warning: exit 2 before the first write, every warning with its file, line and column. */
function refuseWarnings(report: PushReport): void {
  const lines = warningLines(report);
  if (lines.length === 0) return;
  const files = report.plan.filter((item) => (report.warnings.get(item.key) ?? []).length > 0).map((i) => i.key);
  throw new CliError(
    2,
    `strict: ${lines.length} warning${lines.length === 1 ? "" : "s"} in ${files.join(", ")} (listed above); nothing was written`,
    lines,
    {
      code: "strict",
      warnings: report.plan.flatMap((item) =>
        (report.warnings.get(item.key) ?? []).map((w) => ({ key: item.key, place: warningPlace(item.key, w), ...w })),
      ),
    },
  );
}

/** The check's refusal (a frame cycle closed by two frames of the push): nothing was written. */
async function judged<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    throw new CliError(
      error.exitCode,
      `${error.line} (found before the first write: nothing was written)`,
      error.lines,
      error.details,
    );
  }
}

/** The public addresses the writes changed, as they answer now (a new primary domain moves them there). */
async function answering(session: Session, report: PushReport, origin: string): Promise<Answered> {
  const moved = report.domains?.primary;
  const to = moved ? origin.replace(/\/\/[^/]+/, `//${moved.to}`) : origin;
  const urls = [...new Set(report.done.flatMap((d) => d.outcome.urls))]
    .map((url) => (moved && origin && url.startsWith(origin) ? `${to}${url.slice(origin.length)}` : url))
    .sort();
  return answeringAddresses(session.target.url, urls);
}

/** Plans and (unless a dry run) carries out one push. Throws the conflict or the refusal that stopped it. */
export async function pushOnce(session: Session, options: PushOptions): Promise<PushReport> {
  const { dir, api, out, target, environment } = session;
  const folder = overriddenFolder(readFolder(dir, options.kinds), environment);
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
  let plan = yieldNewSite(planPush(input), snapshot.objects, base, options.kinds);
  if (options.keys)
    plan = plan.filter(
      (item) => options.keys!.has(item.key) || (item.from !== undefined && options.keys!.has(item.from)),
    );
  const conflict = conflictError(plan);
  if (conflict) throw conflict;
  refuseInvalid(plan, folder.objects, out);
  const views: Views = { local: folder.objects, remote: snapshot.objects, base };
  const ctx = { api, facts: snapshot.facts, force: options.force };
  const strict = strictOf(session, options);
  const report = emptyReport(options.dryRun, plan);
  // Asked before any other call: a refusal leaves the service untouched.
  if (!options.dryRun)
    await confirmPush(
      environment,
      state,
      target,
      planLines(report, false),
      options.confirmation ?? { yes: false },
      (l) => out.note(l),
    );
  report.warnings = await judged(() =>
    judgeMarkup(ctx, plan, views, { refuse: !options.dryRun, styles: options.dryRun || strict }, (done, total) =>
      out.progress(done, total, "checks"),
    ),
  );
  if (strict) refuseWarnings(report);
  report.domains = await planDomains(api, environment);
  if (options.dryRun) {
    if (environment?.confirm && lastSyncedElsewhere(state, target.url, target.site))
      out.note(`note: a push to ${environment.name} would ask for --yes (this folder last synced with another target)`);
    return report;
  }
  const writesBefore = api.counts.writes;
  const execution = await execute(ctx, plan, views, (done, total) => out.progress(done, total, "pushing"));
  report.done = execution.done;
  const doneKeys = new Set(execution.done.map((d) => d.item.key));
  const settled = execution.error ? plan.filter((item) => !WRITES.has(item.action) || doneKeys.has(item.key)) : plan;
  writeState(
    dir,
    withTarget(
      state,
      target.url,
      target.site,
      baselineAfter(input, settled, execution.written),
      new Date(),
      environment?.name,
    ),
  );
  if (execution.error) {
    report.writes = api.counts.writes - writesBefore;
    printReport(report, session, true);
    const { exitCode, line, lines, details } = execution.error;
    throw new CliError(exitCode, line, lines, {
      ...details,
      written: execution.done.map((d) => d.item.key),
      writes: report.writes,
    });
  }
  await pushDomains(api, report.domains);
  report.writes = api.counts.writes - writesBefore;
  const answered = await answering(session, report, snapshot.facts.origin);
  report.urls = answered.changed;
  report.redirects = answered.redirects;
  report.unchecked = answered.unchecked;
  return report;
}

export async function pushCommand(session: Session, options: PushOptions): Promise<number> {
  const report = await pushOnce(session, options);
  printReport(report, session);
  session.out.document(pushJson(report, session));
  return 0;
}
