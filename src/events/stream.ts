// One event stream (docs/events.md, "The stream"): the Server-Sent Events one client reads, each
// event as GET /events shows it, in increasing id after the one it resumes from. It reads when its
// hub wakes it (stream-hub.ts). The events it reads stop before the first one still waiting for
// its `published` (service.ts `eventsReady`), so it never sends an event past one it has not sent:
// a client that resumes after the last id it received misses none.
import { PassThrough } from "node:stream";
import type { EventRecord, ReadyEvents } from "./service.ts";

/** How long a client waits before it reconnects (the stream's `retry:`). */
export const RETRY_MS = 2_000;
/** The most events one read takes; a stream further behind reads again at once. */
const BATCH = 500;

/** One event as the stream sends it: its id, its type as the event's name, its JSON on one line. */
export function frameOf(event: EventRecord): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** Reads the events after `since` that may go out now, at most `limit`. */
export type ReadAfter = (since: number, limit: number) => Promise<ReadyEvents>;

export interface StreamLog {
  error(object: unknown, message: string): void;
}

/** Once what `body` holds has gone to the client, or the client is gone. */
function drained(body: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      body.off("drain", done);
      body.off("close", done);
      resolve();
    };
    body.on("drain", done);
    body.on("close", done);
  });
}

export class EventStream {
  /** What the client receives: the route sends it as the answer's body. */
  readonly body = new PassThrough();
  /**
   * When the event this stream holds back (its write still being published) goes out without
   * its `published`; null when it holds none back.
   */
  heldUntil: number | null = null;
  private reading = false;
  private again = false;

  /** Starts after event `after`: its id is sent first, so a client that reconnects before any event resumes there. */
  constructor(
    private readonly read: ReadAfter,
    private after: number,
    private readonly log: StreamLog,
    /** Whether the stream's caller may still read it (stream-admission.ts): asked before events go out and at each keep-alive. */
    private readonly admitted: () => Promise<boolean> = async () => true,
  ) {
    this.body.write(`retry: ${RETRY_MS}\nid: ${after}\n\n`);
  }

  /** Ended, or its client gone. */
  get closed(): boolean {
    return this.body.destroyed || this.body.writableEnded;
  }

  /** Sends what may go out now (once the read under way is over, when there is one). */
  wake(): void {
    if (this.closed) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    void this.pump();
  }

  /** A comment line, so proxies see the connection in use; the end instead once its caller may no longer read it. */
  async keepAlive(): Promise<void> {
    if (this.closed || this.reading) return;
    if (await this.stillAdmitted()) this.body.write(": keep-alive\n\n");
  }

  /** Whether the caller may still read the stream; when not (or when that cannot be read), the stream ends. */
  private async stillAdmitted(): Promise<boolean> {
    let admitted = false;
    try {
      admitted = await this.admitted();
    } catch (error) {
      this.log.error(
        { err: error },
        "event stream: reading whether its caller may still read it failed; the stream is ended",
      );
    }
    if (!admitted) this.end();
    return admitted && !this.closed;
  }

  /** Ends the answer: its client reconnects (a shutdown), with the last id it received. */
  end(): void {
    if (!this.closed) this.body.end();
  }

  private async pump(): Promise<void> {
    this.reading = true;
    try {
      do {
        this.again = false;
        const ready = await this.read(this.after, BATCH);
        if (this.closed) return;
        // A revoked token, an ended session or a lost role hears of nothing written since.
        if (ready.events.length > 0 && !(await this.stillAdmitted())) return;
        this.heldUntil = ready.heldUntil;
        let room = true;
        for (const event of ready.events) {
          room = this.body.write(frameOf(event));
          this.after = event.id;
        }
        if (ready.events.length === BATCH) this.again = true;
        // A client that reads slower than events come is sent more once it has taken what it has.
        if (!room) await drained(this.body);
      } while (this.again && !this.closed);
    } catch (error) {
      // The client reconnects and resumes after the last id it received.
      if (!this.closed) this.log.error({ err: error }, "event stream: reading events failed; the stream is ended");
      this.end();
    } finally {
      this.reading = false;
    }
  }
}
