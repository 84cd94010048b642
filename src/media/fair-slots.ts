// A bounded number of slots shared by sites in turn (issue 29, point 7; docs/media.md, "Fair
// between sites"): variants used to be made one at a time in one queue for every site, and
// another site's 0.09 s variant waited 7.8 s behind one site's burst. Now each site queues its
// own jobs, and a free slot goes to the next job of the site, among those waiting, that was given
// a slot longest ago (a site never served goes first). A site whose queue empties keeps its place
// in that order, so asking one job at a time does not jump a backlog on every turn. One site's
// backlog delays only that site: another's job waits at most for one job of each waiting site.

export class FairSlots {
  private running = 0;
  /** Jobs waiting for a slot, per site, in the order asked. */
  private readonly queues = new Map<number, Array<() => void>>();
  /** When each site was last given a slot (a count of slots given): the smallest goes next. */
  private readonly served = new Map<number, number>();
  private given = 0;

  constructor(readonly size: number) {
    if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`slots: ${size}`);
  }

  /** Resolves once the site may run one job; `release` must follow when the job ends, whatever happened. */
  acquire(siteId: number): Promise<void> {
    return new Promise<void>((start) => {
      const queue = this.queues.get(siteId);
      if (queue === undefined) this.queues.set(siteId, [start]);
      else queue.push(start);
      this.dispatch();
    });
  }

  release(): void {
    this.running--;
    this.dispatch();
  }

  /** Jobs of the site waiting for a slot. */
  waiting(siteId: number): number {
    return this.queues.get(siteId)?.length ?? 0;
  }

  private dispatch(): void {
    while (this.running < this.size && this.queues.size > 0) {
      const siteId = this.nextSite();
      const queue = this.queues.get(siteId)!;
      const start = queue.shift()!;
      if (queue.length === 0) this.queues.delete(siteId);
      this.served.set(siteId, ++this.given);
      this.running++;
      start();
    }
  }

  /** Of the sites waiting, the one given a slot longest ago; the first to ask among equals. */
  private nextSite(): number {
    let best: number | undefined;
    let bestAt = Infinity;
    for (const siteId of this.queues.keys()) {
      const at = this.served.get(siteId) ?? 0;
      if (at < bestAt) [best, bestAt] = [siteId, at];
    }
    return best!;
  }
}
