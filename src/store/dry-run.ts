// Dry runs (`?dry_run=1`): the write runs in its transaction as it would, what it found is
// answered, and everything it wrote is rolled back. Running the real write, rather than
// predicting it, keeps a dry run's answer (warnings included) the same as the write's.
import type { Db } from "./database.ts";

/** Thrown inside the transaction so the database rolls it back; carries what the work found. */
class Rollback<T> extends Error {
  constructor(readonly result: T) {
    super("dry run: rolled back");
  }
}

/**
 * Runs `work` through `transaction` (a transaction, possibly retried); with `dryRun` answers
 * `work`'s result and rolls back what it wrote.
 */
export async function dryRunnable<T>(
  dryRun: boolean,
  transaction: (work: (trx: Db) => Promise<T>) => Promise<T>,
  work: (trx: Db) => Promise<T>,
): Promise<T> {
  try {
    return await transaction(async (trx) => {
      const result = await work(trx);
      if (dryRun) throw new Rollback(result);
      return result;
    });
  } catch (error) {
    if (error instanceof Rollback) return error.result as T;
    throw error;
  }
}
