// A background worker's turns (webhooks/worker.ts, forms/notify-worker.ts): one turn at a time,
// started by a wake or every `everyMs`. A wake during a turn asks for one more turn after it, so
// what the wake announced is never missed, and many wakes during one turn make one more, not many.
// Closing stops the timer and waits for the turn under way.

export interface SerialTurns {
  wake(): void;
  close(): Promise<void>;
}

export interface SerialTurnsOptions {
  everyMs: number;
  /** Called at each tick of the timer, before its wake (what a poll is for: work another process made). */
  onTick?: () => void;
  /** A turn's failure (the next turn tries again); not called once closed. */
  onError: (error: unknown) => void;
}

export function serialTurns(turn: () => Promise<void>, options: SerialTurnsOptions): SerialTurns {
  let closed = false;
  let running: Promise<void> | null = null;
  let again = false;

  const wake = (): void => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = turn()
      .catch((error: unknown) => {
        if (!closed) options.onError(error);
      })
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          wake();
        }
      });
  };

  const timer = setInterval(() => {
    options.onTick?.();
    wake();
  }, options.everyMs);
  timer.unref();
  return {
    wake,
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
