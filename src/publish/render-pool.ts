// The render workers' side in the service: renders that outlast a slice of the service's own
// thread (bounded-render.ts) continue in worker threads, so that one long render never holds
// every other request.
//
// Fair between sites (docs/security.md "Fair between sites"). One worker used
// to serve every site in order, and one job past its time failed every job queued behind it: a
// site hit anonymously through its preview links made another site's uncached page wait 4.9 s or
// answer 503. Now:
//   - `size` workers (cores − 1, at least 1; SVC_RENDER_WORKERS), each running one job at a time,
//     started when first needed and kept;
//   - a queue per site, served in turn: a free worker takes the next job of the site with queued
//     jobs that was served longest ago (fair-turns.ts), so one site's backlog delays only that site;
//   - a job that does not answer within its timeout fails alone: a queued one leaves its queue, a
//     running one has its worker ended and replaced.
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { RenderResult } from "../markup/index.ts";
import { OverBudget, type BudgetName } from "../markup/index.ts";
import type { CpuPermits, PermitHolder } from "../cpu-permits.ts";
import { FairTurns } from "../fair-turns.ts";
import { ExecutorUnavailable } from "./executor.ts";
import type { RenderInput } from "./render-context.ts";

/** What the worker is sent: the input, the markup of every frame it may embed, the budgets. */
export interface WorkerRequest {
  id: number;
  input: RenderInput;
  frames: Array<{ id: string; slug: string; sha256: string; html: string }>;
  bytes: number;
  expansions: number;
  timeMs: number;
  /** Check the budgets only: the output is counted, not kept. */
  measure: boolean;
}

export type WorkerAnswer =
  | { id: number; ok: true; result: RenderResult }
  | { id: number; ok: false; over: { budget: BudgetName; chain: string[]; printed: number } }
  | { id: number; ok: false; error: string };

/** The worker's file: in the build, dist/render-worker.cjs beside dist/server.cjs; else the source. */
function workerFile(): string | URL {
  if (typeof __dirname === "string") return join(__dirname, "render-worker.cjs");
  return new URL("./render-worker.ts", import.meta.url);
}

interface Job {
  siteId: number;
  request: WorkerRequest;
  resolve: (result: RenderResult) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  /** The worker running it; undefined while queued. */
  on?: Slot;
}

/** One worker thread and the job it runs. */
interface Slot {
  worker: Worker;
  job: Job | undefined;
}

export class RenderPool {
  private readonly slots: Slot[] = [];
  /** Queued jobs per site, handed out in turn (fair-turns.ts). */
  private readonly queued = new FairTurns<Job>();
  private next = 1;
  private closed = false;

  constructor(
    /** Worker threads at most: the service's is SVC_RENDER_WORKERS (config.ts: cores − 1, at least 1). */
    private readonly size = 1,
    private readonly file: string | URL = workerFile(),
    /** The process's cores for work off its thread, shared with image variants (cpu-permits.ts). */
    permits?: CpuPermits,
  ) {
    this.permits = permits?.join(() => this.dispatch());
  }

  private readonly permits?: PermitHolder;

  /**
   * Renders in a worker, after the jobs of other sites that were waiting their turn; rejects with
   * OverBudget, or ExecutorUnavailable when it is not answered within `timeoutMs` of being asked.
   */
  render(siteId: number, request: Omit<WorkerRequest, "id">, timeoutMs: number): Promise<RenderResult> {
    return new Promise<RenderResult>((resolve, reject) => {
      const job: Job = {
        siteId,
        request: { ...request, id: this.next++ },
        resolve,
        reject,
        timer: undefined as unknown as NodeJS.Timeout,
      };
      job.timer = setTimeout(() => this.expire(job, timeoutMs), timeoutMs);
      this.queued.push(siteId, job);
      this.dispatch();
    });
  }

  /** How many jobs wait, per site (for tests and the bench). */
  waiting(siteId: number): number {
    return this.queued.waiting(siteId);
  }

  /** Hands queued jobs to free workers, one site after another. */
  private dispatch(): void {
    while (!this.closed && !this.queued.empty) {
      const slot = this.freeSlot();
      if (slot === undefined) return;
      if (this.permits && !this.permits.take()) return;
      const { job } = this.queued.take()!;
      slot.job = job;
      job.on = slot;
      slot.worker.postMessage(job.request);
    }
  }

  private freeSlot(): Slot | undefined {
    const idle = this.slots.find((slot) => slot.job === undefined);
    if (idle !== undefined || this.slots.length >= this.size) return idle;
    const slot = this.started();
    this.slots.push(slot);
    return slot;
  }

  private started(): Slot {
    const worker = new Worker(this.file);
    const slot: Slot = { worker, job: undefined };
    worker.on("message", (answer: WorkerAnswer) => this.answer(slot, answer));
    // A worker that fails to load or dies is a renderer that does not answer: its job fails (a
    // write stays saved and says so, 502 internal_unavailable; a public page answers 503), and
    // a new worker takes its place for the next job.
    worker.on("error", () => this.lose(slot, new ExecutorUnavailable(0)));
    worker.on("exit", () => this.lose(slot, new ExecutorUnavailable(0)));
    // The worker never keeps the process alive by itself; a pending render's timer does. After
    // the listeners: a "message" listener refs the worker's port again, and a process whose
    // worker had rendered once never ended (a test's, once its app was closed).
    worker.unref();
    return slot;
  }

  private answer(slot: Slot, answer: WorkerAnswer): void {
    const job = slot.job;
    if (job === undefined || job.request.id !== answer.id) return;
    slot.job = undefined;
    clearTimeout(job.timer);
    if (answer.ok) job.resolve(answer.result);
    else if ("over" in answer) job.reject(new OverBudget(answer.over.budget, answer.over.chain, answer.over.printed));
    else job.reject(new Error(`render worker: ${answer.error}`));
    this.jobEnded();
  }

  /** A running job is over: its permit goes back (the pools take turns with it), or the next job goes. */
  private jobEnded(): void {
    if (this.permits) this.permits.give();
    else this.dispatch();
  }

  /** A job not answered in time: out of its queue, or its worker ended (the others go on). */
  private expire(job: Job, timeoutMs: number): void {
    const error = new ExecutorUnavailable(timeoutMs);
    if (job.on !== undefined) {
      this.lose(job.on, error);
      return;
    }
    this.queued.remove(job.siteId, job);
    job.reject(error);
  }

  /** Ends a slot's worker, fails the job it ran, and lets the next jobs go to the others (or a new one). */
  private lose(slot: Slot, error: Error): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    void slot.worker.terminate();
    const job = slot.job;
    slot.job = undefined;
    if (job !== undefined) {
      clearTimeout(job.timer);
      job.reject(error);
      this.jobEnded();
    } else {
      this.dispatch();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      if (slot.job === undefined) continue;
      clearTimeout(slot.job.timer);
      slot.job.reject(new ExecutorUnavailable(0));
    }
    for (const job of this.queued.drain()) {
      clearTimeout(job.timer);
      job.reject(new ExecutorUnavailable(0));
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }
}
