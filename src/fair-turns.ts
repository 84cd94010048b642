// Jobs waiting per site, handed out in turn (docs/security.md "Fair between
// sites"): the next job is the next one of the site, among those waiting, that was served longest
// ago (a site never served goes first; the first to ask among equals). One site's backlog then
// delays only that site: another site's job waits at most for one job of each site waiting. The
// render workers (publish/render-pool.ts), the CSS worker processes (styles/css-pool.ts) and the
// image variant slots (media/fair-slots.ts) share it. Pure: no timers, no I/O.

export class FairTurns<T> {
  /** Jobs waiting, per site, in the order asked. */
  private readonly queues = new Map<number, T[]>();
  /** When each site was last served (a count of jobs handed out): the smallest goes next. */
  private readonly served = new Map<number, number>();
  private handedOut = 0;

  push(site: number, job: T): void {
    const queue = this.queues.get(site);
    if (queue === undefined) this.queues.set(site, [job]);
    else queue.push(job);
  }

  /**
   * The next job, of the site served longest ago among those waiting that `may` allows (all by
   * default), marked served; undefined when none may go. A site whose queue empties keeps its
   * place in the order, so asking one job at a time does not jump a backlog on every turn.
   */
  take(may: (site: number) => boolean = () => true): { site: number; job: T } | undefined {
    let site: number | undefined;
    let oldest = Infinity;
    for (const key of this.queues.keys()) {
      const at = this.served.get(key) ?? 0;
      if (at < oldest && may(key)) [site, oldest] = [key, at];
    }
    if (site === undefined) return undefined;
    const queue = this.queues.get(site)!;
    const job = queue.shift()!;
    if (queue.length === 0) this.queues.delete(site);
    this.served.set(site, ++this.handedOut);
    return { site, job };
  }

  /** Takes a job out of its queue (one that gave up waiting); false when it was not waiting. */
  remove(site: number, job: T): boolean {
    const queue = this.queues.get(site);
    const at = queue?.indexOf(job) ?? -1;
    if (queue === undefined || at < 0) return false;
    queue.splice(at, 1);
    if (queue.length === 0) this.queues.delete(site);
    return true;
  }

  /** Jobs of the site waiting. */
  waiting(site: number): number {
    return this.queues.get(site)?.length ?? 0;
  }

  /** Whether any job waits. */
  get empty(): boolean {
    return this.queues.size === 0;
  }

  /** Every job waiting, taken out (a pool closing fails them). */
  drain(): T[] {
    const all = [...this.queues.values()].flat();
    this.queues.clear();
    return all;
  }

  /** Forgets who was served when (once nothing runs or waits, every site starts even again). */
  forgetTurns(): void {
    this.served.clear();
  }
}
