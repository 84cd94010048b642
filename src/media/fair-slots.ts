// A bounded number of slots shared by sites in turn (docs/media.md, "Fair
// between sites"): variants used to be made one at a time in one queue for every site, and
// another site's 0.09 s variant waited 7.8 s behind one site's burst. Now each site queues its
// own jobs, and a free slot goes to the site served longest ago (fair-turns.ts), so one site's
// backlog delays only that site.
import type { CpuPermits, PermitHolder } from "../cpu-permits.ts";
import { FairTurns } from "../fair-turns.ts";

export class FairSlots {
  private running = 0;
  /** Jobs waiting for a slot: each a function that lets its job start. */
  private readonly turns = new FairTurns<() => void>();

  /** The permits shared with the render workers, so together they leave the service a core (cpu-permits.ts). */
  private readonly permits?: PermitHolder;

  constructor(
    readonly size: number,
    permits?: CpuPermits,
  ) {
    if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`slots: ${size}`);
    this.permits = permits?.join(() => this.dispatch());
  }

  /** Resolves once the site may run one job; `release` must follow when the job ends, whatever happened. */
  acquire(siteId: number): Promise<void> {
    return new Promise<void>((start) => {
      this.turns.push(siteId, start);
      this.dispatch();
    });
  }

  release(): void {
    this.running--;
    if (this.permits) this.permits.give();
    else this.dispatch();
  }

  /** Jobs of the site waiting for a slot. */
  waiting(siteId: number): number {
    return this.turns.waiting(siteId);
  }

  private dispatch(): void {
    while (this.running < this.size && !this.turns.empty) {
      if (this.permits && !this.permits.take()) return;
      const next = this.turns.take()!;
      this.running++;
      next.job();
    }
  }
}
