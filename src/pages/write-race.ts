// A page write that loses a unique-key race (two writers taking one slug under one parent) is run
// again: the next run reads the slug as taken and picks the next free one (`-2`, slug.ts).
import type { ServiceContext } from "../write/context.ts";
import { runWrite, type Done, type Write } from "../write/pipeline.ts";

/** How many times a page write runs before its last race is answered as the error it was. */
const RUNS = 3;

/** What a lost race is answered with inside this module: the sign to run the write again. */
class SlugRaced extends Error {}

/** `runWrite`, run again (up to three runs in all) when it met a unique-key violation. */
export async function runPageWrite<T>(ctx: ServiceContext, write: Omit<Write<T>, "taken">): Promise<Done<T>> {
  for (let run = 1; ; run++) {
    try {
      // The last run maps nothing: its violation is thrown as it came.
      return await runWrite(ctx, run < RUNS ? { ...write, taken: async () => new SlugRaced() } : write);
    } catch (error) {
      if (!(error instanceof SlugRaced)) throw error;
    }
  }
}
