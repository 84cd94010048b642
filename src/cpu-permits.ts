// The cores a process gives to work off its own thread (docs/security.md "Fair
// between sites"): renders in the render workers (publish/render-pool.ts) and image variants
// (media/variants.ts) together run at most `size` jobs at once, cores − 1 by default, so the
// service's own thread always has a core to answer requests with. Each pool keeps its own queue
// per site (fair-turns.ts); a permit a pool gives back goes to the other pools first, in turn.

/** A pool's hold on the permits. */
export interface PermitHolder {
  /** Takes a permit when one is free. */
  take(): boolean;
  /** Gives one back: the pools after this one may take it first, then this one. */
  give(): void;
}

export class CpuPermits {
  private free: number;
  private readonly pools: Array<() => void> = [];

  constructor(readonly size: number) {
    if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`cpu permits: ${size}`);
    this.free = size;
  }

  /** A pool joins; `dispatch` is called when a permit comes free (it hands out its next job there). */
  join(dispatch: () => void): PermitHolder {
    const index = this.pools.push(dispatch) - 1;
    return {
      take: () => {
        if (this.free === 0) return false;
        this.free--;
        return true;
      },
      give: () => {
        this.free++;
        const n = this.pools.length;
        for (let i = 1; i <= n && this.free > 0; i++) this.pools[(index + i) % n]!();
      },
    };
  }
}
