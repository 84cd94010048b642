// A write's trial (PublishingEngine.check) renders, inside the write's transaction, what the
// publish after its commit renders again. On SQLite the trial's bakes are handed to that publish
// run, so a write renders once. Why that is exact: SQLite runs one transaction at a time on the
// service's one connection, so a trial sees every write committed before it. Each state a run or
// a trial reads gets a ticket, in order; a run publishing the state of ticket t has the last word
// over every frame it rebakes. A later run may reuse a trial's bakes only when no run has
// published a newer state since (trial ticket > last ticket written): otherwise it renders afresh
// from the state at its start, as every run did before. On PostgreSQL transactions overlap, a
// trial may miss a write committed meanwhile, and nothing is handed over.
import type { RenderResult } from "../markup/index.ts";
import type { Trial } from "../write/change.ts";

/**
 * At most this much output (UTF-16 units) is kept per trial; past it the trial only measures and
 * the run renders the rest again. Enough for a frame written and a few dozen frames embedding it.
 * Measured on a site-wide rebake of 10,000 frames (bench memory_10k_frames_2k_pages): trials
 * keeping 2.5 MB of outputs raised the peak memory by about 85 MB, keeping 256 KB by none.
 */
export const KEPT_OUTPUT = 256 * 1024;

/** Bakes a trial rendered, by `<frame id> <lang>`. */
export class TrialBakes {
  readonly bakes = new Map<string, RenderResult>();
  private size = 0;

  /** Whether another output may still be kept; past that, a trial only measures its renders. */
  hasRoom(): boolean {
    return this.size < KEPT_OUTPUT;
  }

  keep(key: string, result: RenderResult): void {
    // A measured render has no output to hand over.
    if (result.html === "" || this.size + result.html.length > KEPT_OUTPUT) return;
    this.size += result.html.length;
    this.bakes.set(key, result);
  }
}

interface Handed {
  siteId: number;
  ticket: number;
  bakes: TrialBakes;
}

export class TrialHandoff {
  private readonly sites = new Map<number, { next: number; written: number }>();
  private readonly handed = new WeakMap<Trial, Handed>();

  private site(siteId: number) {
    let site = this.sites.get(siteId);
    if (!site) {
      site = { next: 0, written: 0 };
      this.sites.set(siteId, site);
    }
    return site;
  }

  /** The ticket of a state about to be read. */
  ticket(siteId: number): number {
    return ++this.site(siteId).next;
  }

  /** Hands a trial's bakes to the `changed` call of its write. */
  hand(siteId: number, ticket: number, bakes: TrialBakes): Trial {
    const trial: Trial = { kind: "trial" };
    this.handed.set(trial, { siteId, ticket, bakes });
    return trial;
  }

  /** What a run may reuse: the trial's bakes when no newer state was published since, else nothing. */
  take(siteId: number, trial: Trial | undefined): { ticket: number; bakes?: ReadonlyMap<string, RenderResult> } {
    const handed = trial ? this.handed.get(trial) : undefined;
    if (trial) this.handed.delete(trial);
    if (handed && handed.siteId === siteId && handed.ticket > this.site(siteId).written)
      return { ticket: handed.ticket, bakes: handed.bakes.bakes };
    return { ticket: this.ticket(siteId) };
  }

  /** A run published the state of `ticket`. */
  written(siteId: number, ticket: number): void {
    const site = this.site(siteId);
    site.written = Math.max(site.written, ticket);
  }
}
