// The stylesheet compiler as the service sees it: a stylesheet's parse (what it imports
// and which media it points to, or 422 invalid_css at the parser's refusal) and its bundle as
// served. No database here: the caller hands in the stylesheets of the theme and the media
// addresses.
//
// The work runs in the CSS worker processes (css-compile.ts, css-pool.ts), never in the service's
// thread (docs/styles.md, "Where the work runs"): lightningcss parses repeated rules of one
// selector in quadratic time, and 24 KB of `a{b:c}` took 2 s, 1 MB held the whole service for
// minutes. Each write (or read) spends one CssBudget of worker time, SVC_CSS_TIME_LIMIT_MS in all;
// past it the job's process is ended and the stylesheet is refused as too complex. This process
// never loads lightningcss.
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_CSS_TIME_LIMIT_MS } from "../config.ts";
import { fail, type ServiceError } from "../errors.ts";
import type { CssAnswer, CssJob, CssSpot, CssValues, ParsedStylesheet } from "./css-compile.ts";
import { JobTimedOut, ProcessPool, WorkerFailed } from "./css-pool.ts";
import { MAX_CSS_NESTING, tooDeepAt } from "./nesting.ts";

export type { CssSpot, ParsedStylesheet } from "./css-compile.ts";

let timeLimitMs = DEFAULT_CSS_TIME_LIMIT_MS;

/** Sets SVC_CSS_TIME_LIMIT_MS for the budgets made from now on (app.ts, from the configuration). */
export function setCssTimeLimit(ms: number): void {
  timeLimitMs = ms;
}

/**
 * The worker time one write's (or one read's) stylesheet work may still spend, whatever number of
 * parses and bundles it runs; and the site whose queue its jobs join. Its jobs run one after
 * another, each within what the ones before left.
 */
export class CssBudget {
  remainingMs = timeLimitMs;
  readonly limitMs = timeLimitMs;
  private turn: Promise<unknown> = Promise.resolve();

  constructor(readonly siteId: number) {}

  /** Runs `work` after the budget's earlier jobs. */
  inTurn<T>(work: () => Promise<T>): Promise<T> {
    const done = this.turn.then(work);
    this.turn = done.catch(() => undefined);
    return done;
  }
}

/** The worker's file: in the build, dist/css-worker.cjs beside dist/server.cjs; else the source. */
function workerFile(): string {
  if (typeof __dirname === "string") return join(__dirname, "css-worker.cjs");
  return fileURLToPath(new URL("./css-worker.ts", import.meta.url));
}

/**
 * At least two processes, so one site's slow stylesheet (a site runs one job at a time) never
 * holds every worker; more on a larger machine, keeping a core for the service's thread.
 */
export const CSS_WORKERS = Math.max(2, Math.min(4, availableParallelism() - 1));

let pool: ProcessPool<CssJob, CssAnswer> | undefined;

/** How long a settings job may take: it reads a list the worker made as it started. */
const SETTINGS_MS = 10_000;

const unavailable = (error: Error) =>
  fail(
    "internal_unavailable",
    { reason: "css_worker" },
    `The stylesheet worker did not answer (${error.message}); nothing was stored. Repeat the call later.`,
  );

/** 422 invalid_css at a place, with the message the caller reads. */
export function invalidCss(message: string, spot: CssSpot, details: Record<string, unknown> = {}): ServiceError {
  return fail("invalid_css", { line: spot.line, column: spot.column, ...details }, message);
}

/** Runs a job in a worker; a refusal is invalid_css, a worker that fails internal_unavailable. */
async function run<K extends CssJob["kind"]>(
  siteId: number,
  job: Extract<CssJob, { kind: K }>,
  limitMs: number,
): Promise<{ value: CssValues[K]; ms: number }> {
  pool ??= new ProcessPool({ file: workerFile(), size: CSS_WORKERS });
  const { answer, ms } = await pool.run(siteId, job, limitMs);
  if (answer.ok) return { value: answer.value as CssValues[K], ms };
  if ("refusal" in answer) throw invalidCss(answer.refusal.message, answer.refusal, answer.refusal.details);
  throw new Error(`css worker: ${answer.error}`);
}

/** A job of `budget`, refused as too complex once the budget is spent. */
function spend<K extends "parse" | "bundle">(
  budget: CssBudget,
  job: Extract<CssJob, { kind: K }>,
  details: Record<string, unknown>,
): Promise<CssValues[K]> {
  return budget.inTurn(async () => {
    const tooComplex = () =>
      invalidCss(
        `The stylesheet takes more than ${budget.limitMs} ms to parse and bundle (SVC_CSS_TIME_LIMIT_MS); simplify it, e.g. merge rules repeated with one selector, or split it`,
        { line: 1, column: 1 },
        { reason: "too_complex", time_limit_ms: budget.limitMs, ...details },
      );
    if (budget.remainingMs <= 0) throw tooComplex();
    try {
      const { value, ms } = await run(budget.siteId, job, budget.remainingMs);
      budget.remainingMs -= ms;
      return value;
    } catch (error) {
      if (error instanceof JobTimedOut) {
        budget.remainingMs = 0;
        throw tooComplex();
      }
      if (error instanceof WorkerFailed) throw unavailable(error);
      throw error;
    }
  });
}

let settings: Promise<string> | undefined;

/** The settings every bundle is made with (part of its source key; css-compile.ts), asked of a worker once. */
export function bundleSettings(siteId: number): Promise<string> {
  settings ??= run(siteId, { kind: "settings" }, SETTINGS_MS).then(({ value }) => value);
  // A failure is not kept: the next call asks again.
  return settings.catch((error: unknown) => {
    settings = undefined;
    throw error instanceof WorkerFailed || error instanceof JobTimedOut ? unavailable(error) : error;
  });
}

/**
 * Parses one stylesheet as uploaded: 422 invalid_css at the parser's error, at an `@import` of
 * anything but a stylesheet name or an http(s) address, at a `url(media:)` without a ref, past
 * MAX_CSS_NESTING (checked here, before the parser sees it), or past the budget (`reason:
 * "too_complex"`).
 */
export async function parseStylesheet(css: string, budget: CssBudget): Promise<ParsedStylesheet> {
  const deep = tooDeepAt(css);
  if (deep)
    throw invalidCss(`Blocks, parentheses and brackets nest at most ${MAX_CSS_NESTING} levels deep`, deep, {
      max_nesting: MAX_CSS_NESTING,
    });
  return spend(budget, { kind: "parse", css }, {});
}

/**
 * The bundle of `name` as served: its imports inlined in their place (an import of a stylesheet
 * that is gone prints nothing), media refs as their addresses (a ref naming no file is left as
 * written), minified and prefixed. `sheets` holds the CSS of `name` and of what it imports.
 * A refusal (invalid_css) names the stylesheet it is in (`stylesheet`).
 */
export function bundleStylesheet(
  name: string,
  sheets: ReadonlyMap<string, string>,
  media: ReadonlyMap<string, string>,
  budget: CssBudget,
): Promise<string> {
  return spend(budget, { kind: "bundle", name, sheets, media }, { stylesheet: name });
}
