// Where rendering runs, with a time bound. The renderer (the "site-side executor") may not answer:
// then the write that asked for it stays saved and the caller is told (502 internal_unavailable,
// or `republish.status: unavailable`). Tests inject a stalled executor to prove it.

export interface Executor {
  run<T>(job: () => T): Promise<T>;
}

import { ExecutorUnavailable } from "../write/context.ts";

export { ExecutorUnavailable };

/** Runs jobs in this process, in order. */
export const inProcessExecutor: Executor = {
  async run<T>(job: () => T): Promise<T> {
    return job();
  },
};

/** An executor that never answers: for tests of the unavailable path. */
export const stalledExecutor: Executor = {
  run<T>(): Promise<T> {
    return new Promise<T>(() => {});
  },
};

export const DEFAULT_RENDER_TIMEOUT_MS = 10_000;

/** Runs a job, or throws ExecutorUnavailable when it takes longer than `ms`. */
export async function runBounded<T>(executor: Executor, job: () => T, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ExecutorUnavailable(ms)), ms);
  });
  try {
    return await Promise.race([executor.run(job), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
