// What the CLI prints (docs/cli.md, "Output"). Text: results on stdout, one line each; waits,
// warnings of the CLI itself and refusals on stderr; a progress bar on stderr only when it is a
// terminal. --json: exactly one JSON document on stdout (watch, dev: one per line), nothing else there,
// no bar and no colour; stderr keeps the waits.
import type { Action, PlanItem, PullItem, StatusItem } from "./plan.ts";

export interface Streams {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

export interface Warning {
  code: string;
  message: string;
  [key: string]: unknown;
}

export class Output {
  readonly json: boolean;
  private readonly streams: Streams;
  private barShown = false;

  constructor(json: boolean, streams: Streams) {
    this.json = json;
    this.streams = streams;
  }

  /** A result line (text mode only). */
  line(text: string): void {
    if (this.json) return;
    this.clearBar();
    this.streams.stdout.write(`${text}\n`);
  }

  /** A line on stderr (both modes): waits, the CLI's own warnings, refusals. */
  note(text: string): void {
    this.clearBar();
    this.streams.stderr.write(`${text}\n`);
  }

  /** The one JSON document of a command (or one line of watch). */
  document(value: unknown): void {
    if (!this.json) return;
    this.streams.stdout.write(`${JSON.stringify(value)}\n`);
  }

  /** A progress bar on a terminal, for long work; nothing otherwise. */
  progress(done: number, total: number, label: string): void {
    if (this.json || !this.streams.stderr.isTTY || total < 2) return;
    const width = 24;
    const filled = Math.round((done / total) * width);
    this.streams.stderr.write(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} ${label}\x1b[K`);
    this.barShown = true;
    if (done >= total) this.clearBar();
  }

  clearBar(): void {
    if (!this.barShown) return;
    this.streams.stderr.write("\r\x1b[K");
    this.barShown = false;
  }
}

/** The word a plan line starts with: a dry run says what would happen to an object only on the server. */
export function actionWord(action: Action, dryRun: boolean): string {
  if (action === "delete") return dryRun ? "would-delete" : "delete";
  return action;
}

const PAD = 12;

export function planLine(item: PlanItem, dryRun: boolean): string {
  const word = actionWord(item.action, dryRun).padEnd(PAD);
  const name = item.action === "rename" && item.from ? `${item.from} -> ${item.key}` : item.key;
  return `${word} ${name}${item.note ? `  (${item.note})` : ""}`;
}

export function pullLine(item: PullItem): string {
  return `${item.action.padEnd(PAD)} ${item.key}${item.note ? `  (${item.note})` : ""}`;
}

function changeWord(change: StatusItem["local"]): string {
  return change ?? "-";
}

export function statusLine(item: StatusItem): string {
  const tag = item.conflict ? "conflict" : item.local && item.server ? "both" : item.local ? "local" : "server";
  return `${tag.padEnd(PAD)} ${item.key}  (here: ${changeWord(item.local)}, server: ${changeWord(item.server)})`;
}

/** `file:line:column` of a warning (the file alone when the warning has no place). */
export function warningPlace(key: string, warning: Warning): string {
  return typeof warning.line === "number" && typeof warning.column === "number"
    ? `${key}:${warning.line}:${warning.column}`
    : key;
}

export function warningLine(key: string, warning: Warning): string {
  return `  warning ${warning.code}: ${warningPlace(key, warning)}: ${String(warning.message).replace(/\s*\n\s*/g, " ")}`;
}
