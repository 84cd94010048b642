// A write's slow trial renders outside its transaction (docs/security.md
// "Fair between sites"). A trial (PublishingEngine.check) renders what a write would rebake, within
// the render budgets, before the write commits. It used to render inside the write's transaction:
// on SQLite, whose one connection writes for every site, a site administrator's slow trial held
// the write lock for its whole render, and another site's 10 ms write waited 7.3 s.
//
// Now, on SQLite, a trial renders with its transaction open only while it is quick: at most
// IN_TRANSACTION_MS of rendering in all, and the write commits in one step, as before. The first
// render that does not fit moves the write out, in three steps:
//   1. rehearse: the work ran in its transaction; from that render on, the trial prepares each
//      render (the reads, a few milliseconds) and records it instead of rendering; the
//      transaction is rolled back;
//   2. render: the recorded renders run with no transaction open (in this thread's slices and
//      the render workers), within the budgets; one past a budget refuses the write
//      (render_too_large), nothing written;
//   3. write: the work runs again in a transaction; the trial prepares the same renders and
//      checks each is what was rendered (a fingerprint of everything the render reads); when all
//      are, the rendered results stand and nothing is rendered with the lock held.
// When something the renders read changed in between (another write of the site), the three
// steps run once more; if it changed again, step 3 renders what differs itself, inside the
// transaction, as every trial did before (so a write always ends). On PostgreSQL nothing of this
// is needed: a transaction holds its own site's rows only, so a trial renders inside it as before.
import { createHash } from "node:crypto";
import { fail } from "../errors.ts";
import { OverBudget, type RenderResult } from "../markup/index.ts";
import { isPostgres, type Db } from "../store/database.ts";
import { renderBounded, renderWithin, SLICE_MS, type RenderPlace } from "./bounded-render.ts";
import { inProcessExecutor } from "./executor.ts";
import type { PreparedRender } from "./render-job.ts";
import { KEPT_OUTPUT } from "./trial-handoff.ts";

/** How a trial's renders are made: now, or by a rehearsal (recorded, then checked). */
export interface TrialRenders {
  /** `onRequest`: a page's render on request; `measure`: only counted; `now`: renders it as a trial does. */
  render(
    prepared: PreparedRender,
    onRequest: boolean,
    measure: boolean,
    now: () => Promise<RenderResult>,
  ): Promise<RenderResult>;
}

/** What a rehearsed render answers the trial: nothing yet (the trial only goes on to the next). */
const NOTHING: RenderResult = {
  html: "",
  unresolved: [],
  warnings: [],
  frames: [],
  frames_missing: [],
  inserts: 0,
  unknown_inserts: [],
  binds: 0,
  bind_tags: [],
  repeats: 0,
  blocks: 0,
  marks: [],
};

/**
 * The most a write's trial renders with its transaction open, in all: a trial that is done by then
 * (almost every one) commits in step 1 as it always did, rendering once; one that is not moves
 * every render it has left out of the transaction (steps 2 and 3).
 */
export const IN_TRANSACTION_MS = SLICE_MS;

/** What something the renders read changed between steps 1 and 3. */
class Changed extends Error {
  constructor() {
    super("what the trial read changed since it was rendered");
  }
}

/** The work ran and its trial moved out: the transaction is rolled back, the work's answer kept. */
class Rehearsed<T> extends Error {
  constructor(readonly value: T) {
    super("rehearsed: rolled back");
  }
}

function fingerprint(prepared: PreparedRender, onRequest: boolean): string {
  const hash = createHash("sha256")
    .update(onRequest ? "page\n" : "bake\n")
    .update(JSON.stringify(prepared.input));
  for (const frame of new Set(prepared.frames.values())) hash.update(`\n${frame.id} ${frame.sha256}`);
  return hash.digest("base64url");
}

interface Job {
  /** What the render reads; null once it is rendered and fingerprinted. */
  prepared: PreparedRender | null;
  onRequest: boolean;
  measure: boolean;
  fingerprint?: string;
  result?: RenderResult;
}

export class Rehearsal implements TrialRenders {
  private mode: "rehearse" | "verify" = "rehearse";
  /** Step 3 of the second attempt: renders what differs instead of starting over. */
  private renderWhatDiffers = false;
  private readonly jobs: Job[] = [];
  private cursor = 0;
  /** Milliseconds of rendering spent with the transaction open in step 1. */
  private spent = 0;
  /** A render did not fit IN_TRANSACTION_MS: the write's renders move out of its transaction. */
  moved = false;

  constructor(private readonly place: RenderPlace) {}

  async render(
    prepared: PreparedRender,
    onRequest: boolean,
    measure: boolean,
    now: () => Promise<RenderResult>,
  ): Promise<RenderResult> {
    if (this.mode === "rehearse") {
      const job: Job = { prepared, onRequest, measure };
      this.jobs.push(job);
      if (this.moved) return NOTHING;
      const started = performance.now();
      // Past a budget other than time it throws, as a trial does: the write is refused at once.
      const quick = await renderWithin(
        { ...this.place, executor: inProcessExecutor },
        prepared,
        measure,
        IN_TRANSACTION_MS - this.spent,
      );
      this.spent += performance.now() - started;
      if (quick !== null) {
        // Kept for step 3 as its fingerprint and a copy of its result, not as the render's own
        // objects: a trial of hundreds of frames holding every PreparedRender and RenderResult until
        // the write ends made V8 allocate those of every later render straight in the old
        // generation (allocation-site pretenuring), where they held their outputs and markup
        // through young collections. A site-wide rebake then grew the heap by about 100 MB
        // (bench/README.md, "Memory, back under 300 MB").
        job.fingerprint = fingerprint(prepared, onRequest);
        job.prepared = null;
        job.result = { ...quick };
        return quick;
      }
      this.moved = true;
      return NOTHING;
    }
    const job = this.jobs[this.cursor++];
    if (job?.result !== undefined && job.fingerprint === fingerprint(prepared, onRequest)) return job.result;
    if (!this.renderWhatDiffers) throw new Changed();
    rehearsalCounts.renderedInside++;
    return now();
  }

  /** Step 2: every render step 1 left, within the budgets (render_too_large past one), and what each read. */
  async renderAll(): Promise<void> {
    let kept = 0;
    for (const job of this.jobs) {
      if (job.result === undefined) {
        // As a trial keeps outputs for the write's publish run (trial-handoff.ts): a bake while
        // there is room, else only measured.
        const measure = job.onRequest || job.measure || kept >= KEPT_OUTPUT;
        try {
          job.result = await renderBounded({ ...this.place, executor: inProcessExecutor }, job.prepared!, measure);
        } catch (error) {
          if (error instanceof OverBudget) throw fail("render_too_large", { budget: error.budget, chain: error.chain });
          throw error;
        }
      }
      kept += job.result.html.length;
      job.fingerprint ??= fingerprint(job.prepared!, job.onRequest);
      job.prepared = null;
    }
  }

  verify(renderWhatDiffers: boolean): void {
    this.mode = "verify";
    this.renderWhatDiffers = renderWhatDiffers;
    this.cursor = 0;
  }
}

const byTransaction = new WeakMap<Db, Rehearsal>();

/** The rehearsal a trial in this transaction belongs to, if any. */
export function rehearsalOf(trx: Db): Rehearsal | undefined {
  return byTransaction.get(trx);
}

/** Counts of this process (tests and the bench read them): writes rehearsed, run again, and trial renders made with the lock held. */
export const rehearsalCounts = { rehearsed: 0, again: 0, renderedInside: 0 };

type Outcome<T> = { value: T } | { rehearsed: T } | { error: unknown };

async function step(
  db: Db,
  work: (trx: Db) => Promise<unknown>,
  rehearsal: Rehearsal,
  rollBackIfMoved: boolean,
): Promise<Outcome<unknown>> {
  try {
    const value = await db.transaction().execute(async (trx) => {
      byTransaction.set(trx, rehearsal);
      const value = await work(trx);
      if (rollBackIfMoved && rehearsal.moved) throw new Rehearsed(value);
      return value;
    });
    return { value };
  } catch (error) {
    if (error instanceof Rehearsed) return { rehearsed: error.value };
    return { error };
  }
}

/**
 * Runs a write's transaction with its trial rendered outside it once a render proves slow
 * (SQLite; see above). `place`: where renders run. Answers the work's answer, or throws what it
 * threw (a dry run's rollback included, after its trial was rendered: a dry run meets the
 * refusal the write would).
 */
export async function writeRehearsed<T>(db: Db, place: RenderPlace, work: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  if (isPostgres(db)) return db.transaction().execute(work);
  for (let attempt = 1; ; attempt++) {
    const rehearsal = new Rehearsal(place);
    const first = await step(db, work, rehearsal, true);
    if (!rehearsal.moved) {
      if ("error" in first) throw first.error;
      return (first as { value: T }).value;
    }
    rehearsalCounts.rehearsed++;
    await rehearsal.renderAll();
    if ("error" in first) throw first.error;
    rehearsal.verify(attempt > 1);
    const written = await step(db, work, rehearsal, false);
    if ("value" in written) return written.value as T;
    if ("error" in written && written.error instanceof Changed && attempt === 1) {
      rehearsalCounts.again++;
      continue;
    }
    throw (written as { error: unknown }).error;
  }
}
