// The CLI's own refusals: a line to print and an exit code (docs/cli.md, "Exit codes"):
// 1 refused or conflict, 2 usage (an unknown command or flag, a bad value, a missing setting).

export type ExitCode = 0 | 1 | 2;

export class CliError extends Error {
  override readonly name = "CliError";
  readonly exitCode: ExitCode;
  /** The one line printed (`code: message`). */
  readonly line: string;
  /** Extra lines (e.g. every conflict), printed before the line. */
  readonly lines: readonly string[];
  /** What --json prints besides `{ok: false, error}`. */
  readonly details: Record<string, unknown>;

  constructor(exitCode: ExitCode, line: string, lines: readonly string[] = [], details: Record<string, unknown> = {}) {
    super(line);
    this.exitCode = exitCode;
    this.line = line;
    this.lines = lines;
    this.details = details;
  }
}

/** A usage error: exit 2, with the line and a hint to --help. */
export function usage(message: string): CliError {
  return new CliError(2, `usage: ${message}`);
}
