// What a push prints (docs/cli.md, "push" and "Output"): one line per object that is not
// unchanged (a dry run names every object), the warnings of each, the domains, a summary, and
// `changed:` for each public address that answers 200 after the push (a redirect as `from → to`).
// A dry run's warnings are its result (stdout); a push's are an alarm about what it wrote
// (stderr, each with file:line:column, and a closing line that --strict would have refused them).
import type { Redirect } from "../addresses.ts";
import type { Done } from "../execute.ts";
import type { DomainPlan } from "../domains.ts";
import { domainLines } from "../domains.ts";
import { planLine, warningLine, type Warning } from "../output.ts";
import type { PlanItem } from "../plan.ts";
import { targetJson, type Session } from "./common.ts";

export interface PushReport {
  dryRun: boolean;
  plan: PlanItem[];
  /** The warnings judged before the first write (frames together, stylesheets in a dry run), by key. */
  warnings: Map<string, Warning[]>;
  done: Done[];
  /** Public addresses that answer 200 after the push. */
  urls: string[];
  redirects: Redirect[];
  /** Addresses the push changed that were not asked (past the bound, or unreachable). */
  unchecked: string[];
  domains: DomainPlan | null;
  writes: number;
}

export function emptyReport(dryRun: boolean, plan: PlanItem[]): PushReport {
  return {
    dryRun,
    plan,
    warnings: new Map(),
    done: [],
    urls: [],
    redirects: [],
    unchecked: [],
    domains: null,
    writes: 0,
  };
}

/** An object's warnings: judged before the writes when they were, else its write's. */
export function warningsOfItem(report: PushReport, key: string): Warning[] {
  return report.warnings.get(key) ?? report.done.find((d) => d.item.key === key)?.outcome.warnings ?? [];
}

function itemJson(item: PlanItem, report: PushReport) {
  const done = report.done.find((d) => d.item.key === item.key);
  const shown = new Set([...report.urls, ...report.unchecked, ...report.redirects.map((r) => r.from)]);
  return {
    key: item.key,
    kind: item.kind,
    action: item.action === "delete" && report.dryRun ? "would-delete" : item.action,
    ...(item.from ? { from: item.from } : {}),
    ...(item.note ? { note: item.note } : {}),
    warnings: warningsOfItem(report, item.key),
    ...(done ? { urls: done.outcome.urls.filter((url) => shown.has(url)), done: true } : {}),
  };
}

export function counts(plan: readonly PlanItem[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of plan) out[item.action] = (out[item.action] ?? 0) + 1;
  return out;
}

export function pushJson(report: PushReport, session: Session) {
  return {
    ok: true,
    command: "push",
    dry_run: report.dryRun,
    target: targetJson(session.target),
    ...(session.environment ? { env: session.environment.name } : {}),
    items: report.plan.map((item) => itemJson(item, report)),
    counts: counts(report.plan),
    writes: report.writes,
    urls: report.urls,
    redirects: report.redirects,
    unchecked_urls: report.unchecked,
    ...(report.domains ? { domains: report.domains } : {}),
  };
}

/** The lines of the plan that change something (every line in a dry run), with their warnings. */
export function planLines(report: PushReport, withWarnings: boolean): string[] {
  const lines: string[] = [];
  for (const item of report.plan) {
    if (item.action === "unchanged" && !report.dryRun) continue;
    lines.push(planLine(item, report.dryRun));
    if (withWarnings)
      for (const warning of warningsOfItem(report, item.key)) lines.push(warningLine(item.key, warning));
  }
  return lines;
}

/** Every warning of the report as a line (`  warning code: file:line:column: message`), in plan order. */
export function warningLines(report: PushReport): string[] {
  return report.plan.flatMap((item) => warningsOfItem(report, item.key).map((w) => warningLine(item.key, w)));
}

/** The text lines of a push. `partial`: a push stopped half-way, only what it wrote. */
export function printReport(report: PushReport, session: Session, partial = false): void {
  const { out } = session;
  const shown = partial ? report.plan.filter((item) => report.done.some((d) => d.item.key === item.key)) : report.plan;
  const loud: string[] = [];
  for (const item of shown) {
    if (item.action === "unchanged" && !report.dryRun) continue; // a dry run names every object
    out.line(planLine(item, report.dryRun));
    for (const warning of warningsOfItem(report, item.key)) {
      if (report.dryRun) out.line(warningLine(item.key, warning));
      else loud.push(warningLine(item.key, warning));
    }
    for (const note of report.done.find((d) => d.item.key === item.key)?.outcome.notes ?? []) out.line(`  ${note}`);
  }
  for (const line of domainLines(report.domains, report.dryRun)) out.line(line);
  if (report.domains?.refused) out.note(`warning domains_not_pushed: ${report.domains.refused}`);
  for (const line of loud) out.note(line);
  if (loud.length)
    out.note(
      `warning: ${loud.length} warning${loud.length === 1 ? "" : "s"} in what was pushed (above); svc push --strict refuses to push with any`,
    );
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
  for (const { from, to } of report.redirects) out.line(`changed: ${from} → ${to}`);
  if (report.unchecked.length)
    out.line(
      `(and ${report.unchecked.length} more address${report.unchecked.length === 1 ? "" : "es"} rewritten, not checked: --json lists them as unchecked_urls)`,
    );
}
