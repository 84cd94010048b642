// The render worker's side in the service: renders that outlast a slice of the service's own
// thread (bounded-render.ts) continue in a worker thread, so that one long render never holds
// every other request. One worker (the machine this runs on may have two cores; the service's
// thread keeps one), started at the first long render and kept; jobs queue in its message port
// and run in order. A job that does not answer in time ends the worker (it is started again for
// the next one) and is answered as ExecutorUnavailable, like a renderer that does not answer.
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { RenderResult } from "../markup/index.ts";
import { OverBudget, type BudgetName } from "../markup/index.ts";
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

interface Pending {
  resolve: (result: RenderResult) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class RenderPool {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private next = 1;

  constructor(private readonly file: string | URL = workerFile()) {}

  /** Renders in the worker; rejects with OverBudget, or ExecutorUnavailable after `timeoutMs`. */
  render(request: Omit<WorkerRequest, "id">, timeoutMs: number): Promise<RenderResult> {
    const worker = this.started();
    const id = this.next++;
    return new Promise<RenderResult>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new ExecutorUnavailable(timeoutMs)), timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ ...request, id } satisfies WorkerRequest);
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.file);
    worker.on("message", (answer: WorkerAnswer) => this.answer(answer));
    // A worker that fails to load or dies is a renderer that does not answer: the write stays
    // saved and says so (502 internal_unavailable), a public page answers 503; the next long
    // render starts a new worker.
    worker.on("error", () => this.fail(new ExecutorUnavailable(0)));
    worker.on("exit", () => {
      if (this.worker === worker) this.fail(new ExecutorUnavailable(0));
    });
    // The worker never keeps the process alive by itself; a pending render's timer does. After
    // the listeners: a "message" listener refs the worker's port again, and a process whose
    // worker had rendered once never ended (a test's, once its app was closed).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private answer(answer: WorkerAnswer): void {
    const pending = this.pending.get(answer.id);
    if (!pending) return;
    this.pending.delete(answer.id);
    clearTimeout(pending.timer);
    if (answer.ok) pending.resolve(answer.result);
    else if ("over" in answer) pending.reject(new OverBudget(answer.over.budget, answer.over.chain, answer.over.printed));
    else pending.reject(new Error(`render worker: ${answer.error}`));
  }

  /** Ends the worker and answers every pending render with `error`. */
  private fail(error: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.pending.clear();
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}
