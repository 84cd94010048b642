// The render worker (render-pool.ts): renders what the service's thread handed over because it
// outlasted a slice there, within the whole budgets. The markup arrives with each job; its
// program is kept by sha256 here as in the service's thread (compiled-cache.ts).
import { parentPort } from "node:worker_threads";
import { OverBudget, renderFrame } from "../markup/index.ts";
import { CompiledCache } from "./compiled-cache.ts";
import { framesByRef, renderContext } from "./render-context.ts";
import type { WorkerAnswer, WorkerRequest } from "./render-pool.ts";

const compiled = new CompiledCache();

function answer(request: WorkerRequest): WorkerAnswer {
  try {
    const frames = framesByRef(
      request.frames.map((frame) => ({
        id: frame.id,
        slug: frame.slug,
        sha256: frame.sha256,
        compiled: compiled.get(frame.sha256, frame.html),
      })),
    );
    const top = frames.get(request.input.slug);
    if (!top) throw new Error(`frame ${request.input.slug} was not sent`);
    const now = () => performance.now();
    const budget = { bytes: request.bytes, expansions: request.expansions, until: now() + request.timeMs, now };
    return {
      id: request.id,
      ok: true,
      result: renderFrame(top.compiled, renderContext(request.input, frames), {
        slug: request.input.slug,
        budget,
        measure: request.measure,
      }),
    };
  } catch (error) {
    if (error instanceof OverBudget)
      return { id: request.id, ok: false, over: { budget: error.budget, chain: error.chain, printed: error.printed } };
    return {
      id: request.id,
      ok: false,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
}

parentPort?.on("message", (request: WorkerRequest) => parentPort!.postMessage(answer(request)));
