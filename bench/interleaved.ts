// Write throughput of several service processes measured side by side: the same writes on each,
// one at a time, in batches interleaved between them, so a burst of other work on the machine
// (other people's test suites run on it too) hits every side alike. Used by the revisions and
// webhooks groups (bench/README.md, "Revisions", "Events and webhooks").
import { Api, cpuMsOf, type Service } from "./lib.ts";

/**
 * `batches` batches of `perBatch` rounds; in each round every side makes one write (`write(api, n)`,
 * the same `n` on every side), the side going first rotating. Answers each side's writes/s per
 * batch (its writes over the time they took) and its process's CPU time a write over all batches
 * (from /proc: what other load on the machine moves least).
 */
export async function interleaved<Side extends string>(
  sides: readonly Side[],
  running: Partial<Record<Side, Service>>,
  batches: number,
  perBatch: number,
  write: (api: Api, n: number) => Promise<unknown>,
  first: number,
): Promise<{ rates: Record<Side, number[]>; cpuMs: Record<Side, number> }> {
  const bySide = <T>(value: (side: Side) => T) =>
    Object.fromEntries(sides.map((side) => [side, value(side)])) as Record<Side, T>;
  const rates = bySide((): number[] => []);
  const apis = bySide((side) => new Api(running[side]!.port));
  const cpu0 = bySide((side) => cpuMsOf(running[side]!.pid));
  let round = 0;
  for (let b = 0; b < batches; b++) {
    const spent = bySide(() => 0);
    for (let j = 0; j < perBatch; j++, round++) {
      for (let k = 0; k < sides.length; k++) {
        const side = sides[(round + k) % sides.length]!;
        const t0 = performance.now();
        await write(apis[side], first + b * perBatch + j);
        spent[side] += performance.now() - t0;
      }
    }
    for (const side of sides) rates[side].push((perBatch * 1000) / spent[side]);
  }
  const cpuMs = bySide((side) => (cpuMsOf(running[side]!.pid) - cpu0[side]) / (batches * perBatch));
  return { rates, cpuMs };
}
