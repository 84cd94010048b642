// Each request's logger, made only when it writes a line. Fastify gives every request a child of
// the app's logger bound to the request id; with the app's redaction (log-redaction.ts) pino
// builds that child's bindings through its redactor, about 3.6 µs a request (bench/README.md, "API
// reads"), while almost no request writes a line of its own (its one request line goes through
// the app's logger, request-line.ts; only errors go through the request's). This logger keeps
// the parent and the bindings and asks the parent whether a level is on: a line that would be
// written makes the child then, bound exactly as Fastify's own would be.
import type { FastifyBaseLogger, FastifyServerOptions } from "fastify";

type Level = "trace" | "debug" | "info" | "warn" | "error" | "fatal";
type Bindings = Record<string, unknown>;
type LogArgs = Parameters<FastifyBaseLogger["info"]>;

/** The part of pino's logger this needs beyond Fastify's base logger. */
interface LevelAware extends FastifyBaseLogger {
  isLevelEnabled(level: string): boolean;
}

export class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: LevelAware,
    private readonly bindings: Bindings,
  ) {}

  /** The child Fastify would have made. */
  private real(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings);
    return this.made;
  }

  private write(level: Level, args: LogArgs): void {
    if (this.made === null && !this.parent.isLevelEnabled(level)) return;
    (this.real()[level] as (...args: LogArgs) => void)(...args);
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  trace(...args: LogArgs): void {
    this.write("trace", args);
  }
  debug(...args: LogArgs): void {
    this.write("debug", args);
  }
  info(...args: LogArgs): void {
    this.write("info", args);
  }
  warn(...args: LogArgs): void {
    this.write("warn", args);
  }
  error(...args: LogArgs): void {
    this.write("error", args);
  }
  fatal(...args: LogArgs): void {
    this.write("fatal", args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: object): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}

/**
 * The app's `childLoggerFactory`: a RequestLogger, or Fastify's own child where a route sets its
 * own level (none does today) or the logger cannot say which levels are on.
 */
export const requestLoggerFactory: NonNullable<FastifyServerOptions["childLoggerFactory"]> = (
  logger,
  bindings,
  options,
) => {
  const levelAware = typeof (logger as Partial<LevelAware>).isLevelEnabled === "function";
  if (options.level !== undefined || !levelAware) return logger.child(bindings, options);
  return new RequestLogger(logger as LevelAware, bindings);
};
