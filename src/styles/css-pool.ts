// Work in child processes, each running one job at a time under a time limit, shared fairly
// between keys (sites): every key has a queue of its own, at most one job of a key runs at once,
// and the keys waiting are served in turn. So one site's slow jobs hold one process, never the
// others, and wait only behind that site's own (docs/styles.md, "Where the work runs").
//
// Processes, not worker threads (publish/render-pool.ts): a job past its time must be stopped,
// and the work here is native code (lightningcss parses some stylesheets in quadratic time, for
// minutes). Worker.terminate() only stops JavaScript: it waited for a running parse to return,
// and the thread kept its core busy meanwhile. A process ends at SIGKILL whatever it runs; it is
// replaced by a new one for the next job.
//
// Processes start on demand (a job waiting and fewer than `size` running), say when they are
// ready (what they load counts against no job's time), and end after `idleMs` without a job, or
// with this process.
import { FairTurns } from "../fair-turns.ts";
import { fork, type ChildProcess } from "node:child_process";

/** Past its time limit: its process was ended. */
export class JobTimedOut extends Error {
  constructor(readonly limitMs: number) {
    super(`the job took more than ${limitMs} ms; its worker process was ended`);
  }
}

/** The worker process did not start, or ended during the job. */
export class WorkerFailed extends Error {}

/** What a worker is sent, and what it answers (after `{ready: true}` once). */
export interface PoolRequest<J> {
  id: number;
  job: J;
}

export interface PoolReply<A> {
  id: number;
  answer: A;
}

export interface Done<A> {
  answer: A;
  /** How long the job ran in its worker (queueing and the worker's start left out). */
  ms: number;
}

interface Job<J, A> {
  id: number;
  key: number;
  job: J;
  limitMs: number;
  resolve: (done: Done<A>) => void;
  reject: (error: Error) => void;
}

interface Worker<J, A> {
  child: ChildProcess;
  ready: boolean;
  /** The job it runs (or starts for). */
  job: Job<J, A> | undefined;
  sentAt: number;
  /** The job's time limit, the start's, or the idle time. */
  timer: NodeJS.Timeout | undefined;
}

export interface PoolOptions {
  /** The worker's file (run by `fork`, with this process's Node options). */
  file: string;
  /** Most processes at once. */
  size: number;
  /** A process without a job this long ends. */
  idleMs?: number;
  /** A process not ready this long after it was started is ended, and its job failed. */
  startMs?: number;
}

export class ProcessPool<J, A> {
  private readonly workers = new Set<Worker<J, A>>();
  /** Jobs waiting, by key, handed out in turn (fair-turns.ts). */
  private readonly waiting = new FairTurns<Job<J, A>>();
  /** Keys with a job in a worker. */
  private readonly running = new Set<number>();
  private next = 1;
  private readonly endAll = () => {
    for (const worker of this.workers) worker.child.kill("SIGKILL");
  };

  constructor(private readonly options: PoolOptions) {}

  /** Runs `job` for `key` within `limitMs` of a worker's time; rejects with JobTimedOut or WorkerFailed. */
  run(key: number, job: J, limitMs: number): Promise<Done<A>> {
    return new Promise<Done<A>>((resolve, reject) => {
      this.waiting.push(key, { id: this.next++, key, job, limitMs, resolve, reject });
      this.dispatch();
    });
  }

  /** Ends every worker; jobs running or waiting fail. */
  close(): void {
    for (const worker of [...this.workers]) this.end(worker, new WorkerFailed("the pool was closed"));
    for (const job of this.waiting.drain()) job.reject(new WorkerFailed("the pool was closed"));
    this.waiting.forgetTurns();
  }

  /** Hands waiting jobs, the keys in turn, to idle workers, or to new ones while there is room. */
  private dispatch(): void {
    while (!this.waiting.empty) {
      const idle = [...this.workers].find((worker) => worker.ready && !worker.job);
      if (!idle && this.workers.size >= this.options.size) return;
      // A key runs one job at a time: of the keys waiting with none running, the one served longest ago.
      const next = this.waiting.take((key) => !this.running.has(key));
      if (next === undefined) return;
      this.running.add(next.site);
      if (idle) this.send(idle, next.job);
      else this.start(next.job);
    }
  }

  private start(job: Job<J, A>): void {
    const worker: Worker<J, A> = { child: undefined!, ready: false, job, sentAt: 0, timer: undefined };
    try {
      worker.child = fork(this.options.file, [], {
        serialization: "advanced",
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      });
    } catch (error) {
      this.finish(worker, () => job.reject(new WorkerFailed(`the worker process did not start: ${String(error)}`)));
      return;
    }
    if (this.workers.size === 0) process.on("exit", this.endAll);
    this.workers.add(worker);
    const startMs = this.options.startMs ?? 30_000;
    worker.timer = setTimeout(
      () => this.end(worker, new WorkerFailed(`the worker process was not ready within ${startMs} ms`)),
      startMs,
    );
    worker.child.on("message", (message: PoolReply<A> | { ready: true }) => {
      if ("ready" in message) {
        worker.ready = true;
        clearTimeout(worker.timer);
        if (worker.job) this.send(worker, worker.job);
      } else if (worker.job?.id === message.id) {
        const { job: done, sentAt } = worker;
        this.finish(worker, () => done.resolve({ answer: message.answer, ms: performance.now() - sentAt }));
      }
    });
    worker.child.on("error", (error) =>
      this.end(worker, new WorkerFailed(`the worker process failed: ${error.message}`)),
    );
    worker.child.on("exit", (code, signal) =>
      this.end(worker, new WorkerFailed(`the worker process ended (${signal ?? code})`)),
    );
    // Neither the process nor its channel keeps this one alive; a job's timer does. (After the
    // listeners: adding a "message" listener refs the channel again.)
    worker.child.unref();
    worker.child.channel?.unref();
  }

  private send(worker: Worker<J, A>, job: Job<J, A>): void {
    clearTimeout(worker.timer);
    worker.job = job;
    worker.sentAt = performance.now();
    worker.timer = setTimeout(() => this.end(worker, new JobTimedOut(job.limitMs)), job.limitMs);
    worker.child.send({ id: job.id, job: job.job } satisfies PoolRequest<J>, (error) => {
      if (error) this.end(worker, new WorkerFailed(`the job could not be sent: ${error.message}`));
    });
  }

  /** The worker's job is over (`settle` answers it): its key may run again, and the worker waits for the next. */
  private finish(worker: Worker<J, A>, settle: () => void): void {
    const job = worker.job;
    worker.job = undefined;
    clearTimeout(worker.timer);
    if (job) this.running.delete(job.key);
    // A key keeps its turn between its jobs (a write's parse, then its bundles, one by one), or it
    // would come back as new and go first every time; forgotten once nothing runs or waits.
    if (this.running.size === 0 && this.waiting.empty) this.waiting.forgetTurns();
    settle();
    if (this.workers.has(worker)) {
      const idleMs = this.options.idleMs ?? 60_000;
      worker.timer = setTimeout(() => this.end(worker, new WorkerFailed("idle")), idleMs).unref();
    }
    this.dispatch();
  }

  /** Ends a worker at once; its job (if any) fails with `error`. */
  private end(worker: Worker<J, A>, error: Error): void {
    if (!this.workers.delete(worker)) return;
    if (this.workers.size === 0) process.off("exit", this.endAll);
    worker.child.kill("SIGKILL");
    const job = worker.job;
    this.finish(worker, () => job?.reject(error));
  }
}
