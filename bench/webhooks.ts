// The `webhooks` group of `npm run bench` (bench/README.md, "Events and webhooks"): what events and
// one active webhook cost a write, and how long a delivery takes to reach its receiver.
//
// Three services on fresh SQLite data directories, filled alike (bench/written-site.ts, plus the
// data sets below): the service before events (BENCH_WEBHOOKS_BASE, default 6c175f6, the parent of
// the events' first commit 3426da7; built in a temporary worktree, bench/baseline-build.ts), the
// current one with one active webhook taking every type, and the current one without any webhook
// (events still appended and dispatched). The hook's receiver is a bare node:http server in the
// bench's process answering 204 (bench/webhook-receiver.ts).
//
// 1. Writes, one at a time, interleaved between the three (bench/interleaved.ts): in turn a PUT of
//    a written frame (its page baked), a PATCH of a written page (renders on request) and a PUT of
//    a data set (the frame reading it baked, with its page). Ratios of writes/s, current with the
//    hook against the baseline (target) and against the current service without a hook.
// 2. A burst of BENCH_WEBHOOKS_BURST writes, BENCH_WEBHOOKS_CONCURRENCY in flight, on the service
//    with the hook alone: each delivery's lag, from the arrival of its write's answer at the bench
//    to its arrival at the receiver, both on the bench's performance.now().
// 3. At the end the receiver must have had exactly one delivery, correctly signed, for each event
//    of the site written since the hook was made, else the group fails.
import { mkdirSync } from "node:fs";
import { Agent } from "node:http";
import { join } from "node:path";
import { baselineTree } from "./baseline-build.ts";
import { interleaved } from "./interleaved.ts";
import { Api, median, round, sleep, startService, type Result, type Service } from "./lib.ts";
import { startBenchReceiver, type BenchReceiver } from "./webhook-receiver.ts";
import { fill, frameVersion, pageVersion, WRITTEN } from "./written-site.ts";

const S = "/api/site/1";
const QUICK = process.env.BENCH_QUICK === "1";
const BASE = process.env.BENCH_WEBHOOKS_BASE ?? "6c175f6";
/** Frames of 10 KB and pages of the filled site, besides the small site and the written objects. */
const SITE = Number(process.env.BENCH_WEBHOOKS_SITE ?? (QUICK ? 30 : 100));
const BURST = Number(process.env.BENCH_WEBHOOKS_BURST ?? (QUICK ? 90 : 300));
const CONCURRENCY = Number(process.env.BENCH_WEBHOOKS_CONCURRENCY ?? 8);
const BATCHES = QUICK ? 4 : 20;
/** A multiple of 3: every batch has as many writes of each kind. */
const PER_BATCH = QUICK ? 9 : 24;
const WRITE_TARGET = 0.8;
const LAG_TARGET_MS = 1000;
/** How long the deliveries may take to arrive once the writes are over. */
const DRAIN_MS = 60_000;

export interface WebhooksHooks {
  log(message: string): void;
  record(result: Result): void;
  note(text: string): void;
}

type Side = "base" | "hooked" | "unhooked";
const SIDES: readonly Side[] = ["base", "hooked", "unhooked"];

/** Version `n` of written data set `slot`: 20 items. */
function listVersion(slot: number, n: number): { items: Array<{ n: number; title: string }> } {
  return { items: Array.from({ length: 20 }, (_, i) => ({ n: i, title: `Item ${i} of list ${slot}, version ${n}` })) };
}

/** The frame that prints data set `slot` (baked: it reads no page field). */
const listFrame = (slot: number) =>
  `<section class="list-${slot}"><!-- svc/repeat {"source": "data.list_${slot}"} --><p data-op-bind='{"text": "item.title"}'></p><!-- /svc/repeat --></section>\n`;

/** The written data sets, each read by a frame of its own that is the frame of one page. */
export async function fillLists(api: Api): Promise<void> {
  for (let i = 0; i < WRITTEN; i++) {
    await api.call("PUT", `${S}/data/list_${i}`, listVersion(i, 0));
    await api.call("POST", `${S}/frames`, { slug: `list-frame-${i}`, html: listFrame(i) });
    await api.call("POST", `${S}/pages`, { title: `List ${i}`, slug: `list-page-${i}`, frame: `list-frame-${i}` });
  }
}

/** Write `n`: a frame, a page and a data set in turn, going round the written objects. */
export function writeOf(pageIds: number[]) {
  return (api: Api, n: number) => {
    const slot = n % WRITTEN;
    if (n % 3 === 0) return api.send("PUT", `${S}/frames/rev-frame-${slot}`, { html: frameVersion(slot, n + 1) });
    if (n % 3 === 1) return api.send("PATCH", `${S}/pages/${pageIds[slot]}`, pageVersion(slot, n + 1));
    return api.send("PUT", `${S}/data/list_${slot}`, listVersion(slot, n + 1));
  };
}

/** Every event of site 1 from `fromId` on (GET /events shows an event once it has its `published`). */
async function eventsFrom(api: Api, fromId: number): Promise<Array<{ id: number; type: string }>> {
  const events: Array<{ id: number; type: string }> = [];
  for (let since = fromId - 1; ; ) {
    const page = (await api.call("GET", `${S}/events?since=${since}&limit=1000`)).events as typeof events;
    if (page.length === 0) return events;
    events.push(...page);
    since = page[page.length - 1]!.id;
  }
}

/** Waits until the receiver has as many deliveries of events from `fromId` on as the site has events, and a moment more. */
async function drained(api: Api, receiver: BenchReceiver, fromId: number): Promise<{ expected: number; got: number }> {
  const got = () => receiver.deliveries.filter((d) => d.eventId >= fromId).length;
  const deadline = performance.now() + DRAIN_MS;
  let expected = (await eventsFrom(api, fromId)).length;
  while (got() < expected && performance.now() < deadline) {
    await sleep(250);
    expected = (await eventsFrom(api, fromId)).length;
  }
  // Past the worker's poll (1 s): a delivery sent twice would be here by now.
  await sleep(1_500);
  return { expected: (await eventsFrom(api, fromId)).length, got: got() };
}

/** The `p` quantile of sorted values; none: infinite (no delivery came), so the target fails. */
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? Number.POSITIVE_INFINITY : sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
const fmt = (n: number, digits = 1) => n.toFixed(digits);
const spread = (values: number[]) => `${fmt(Math.min(...values), 3)}–${fmt(Math.max(...values), 3)}`;

/**
 * `BURST` writes with `CONCURRENCY` in flight; answers when each write's answer arrived, by its
 * request id (the events' `request_id`).
 */
async function burst(port: number, write: ReturnType<typeof writeOf>, first: number): Promise<Map<string, number>> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const api = new Api(port, undefined, agent);
  const answered = new Map<string, number>();
  let next = 0;
  const loop = async () => {
    while (next < BURST) {
      const { headers } = await write(api, first + next++);
      answered.set(String(headers["x-request-id"]), performance.now());
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  } finally {
    agent.destroy();
  }
  return answered;
}

export async function webhooksGroup(work: string, hooks: WebhooksHooks): Promise<void> {
  const { log, record, note } = hooks;
  const dirOf = (side: Side) => join(work, `webhooks-${side}`);
  for (const side of SIDES) mkdirSync(dirOf(side), { recursive: true });
  log(`webhooks: building ${BASE} in a temporary worktree`);
  const tree = baselineTree(log, BASE);
  const receiver = await startBenchReceiver();
  const running: Partial<Record<Side, Service>> = {};
  const env: Record<Side, Record<string, string>> = {
    base: { SVC_CODE_CACHE_DIR: join(work, "webhooks-base-code-cache") },
    hooked: { SVC_WEBHOOKS_ALLOW_PRIVATE: "1" },
    unhooked: { SVC_WEBHOOKS_ALLOW_PRIVATE: "1" },
  };
  const stop = async (side: Side) => {
    await running[side]?.stop();
    delete running[side];
  };
  try {
    await Promise.all(
      SIDES.map(
        async (side) =>
          (running[side] = await startService(dirOf(side), env[side], [], side === "base" ? { root: tree.root } : {})),
      ),
    );
    const apis = Object.fromEntries(SIDES.map((side) => [side, new Api(running[side]!.port)])) as Record<Side, Api>;
    const t0 = performance.now();
    log(
      `webhooks: filling (${SITE} frames of 10 KB and pages, ${WRITTEN} written frames, pages and data sets on each)`,
    );
    const [{ pageIds }] = await Promise.all(
      SIDES.map(async (side) => {
        const filled = await fill(apis[side], SITE);
        await fillLists(apis[side]);
        return filled;
      }),
    );
    log(`webhooks: filled in ${fmt((performance.now() - t0) / 1000)} s`);

    const created = (await apis.hooked.call("POST", `${S}/webhooks`, { url: receiver.url, description: "bench" }))
      .webhook;
    receiver.useSecret(created.secret);
    // Every event from the hook's own webhook.created on is the hook's: it takes every type.
    const made = (await apis.hooked.call("GET", `${S}/events?type=webhook.created&limit=1000`)).events;
    const fromId: number = made[made.length - 1].id;

    const write = writeOf(pageIds);
    // One batch each to warm the processes.
    await interleaved(SIDES, running, 1, PER_BATCH, write, 0);
    log(`webhooks: ${BATCHES} batches of ${PER_BATCH} writes on each of ${SIDES.join(", ")}, one write each in turn`);
    const benchCpu0 = process.cpuUsage();
    const { rates, cpuMs } = await interleaved(SIDES, running, BATCHES, PER_BATCH, write, PER_BATCH);
    const benchCpu = process.cpuUsage(benchCpu0);
    const benchCpuMs = (benchCpu.user + benchCpu.system) / 1000 / (BATCHES * PER_BATCH * SIDES.length);

    const vsBase = rates.hooked.map((h, i) => h / rates.base[i]!);
    const ratio = median(vsBase);
    record({
      name: "webhooks_write",
      value: round(median(rates.hooked), 1),
      unit: "writes/s",
      baseline: round(median(rates.base), 1),
      ratio: round(ratio, 3),
      target: `>= ${WRITE_TARGET}`,
      pass: ratio >= WRITE_TARGET,
    });
    record({
      name: "webhooks_write_cpu",
      value: round(cpuMs.hooked, 2),
      unit: "CPU ms/write",
      baseline: round(cpuMs.base, 2),
      ratio: round(cpuMs.base / cpuMs.hooked, 3),
      target: "reported",
      pass: true,
    });
    const vsUnhooked = rates.hooked.map((h, i) => h / rates.unhooked[i]!);
    record({
      name: "webhooks_write_hook_alone",
      value: round(median(rates.hooked), 1),
      unit: "writes/s",
      baseline: round(median(rates.unhooked), 1),
      ratio: round(median(vsUnhooked), 3),
      target: "reported",
      pass: true,
    });
    const eventsOnly = rates.unhooked.map((u, i) => u / rates.base[i]!);
    note(
      `webhooks_write: a frame PUT (~4 KB, one page baked), a page PATCH (renders on request) and a data set PUT (20 items, one frame and page baked) in turn, on a site of ${SITE} frames of 10 KB and pages more; median of ${BATCHES} batch ratios ${fmt(ratio, 3)} (${spread(vsBase)}); ${fmt(1000 / median(rates.hooked), 2)} ms a write with the hook, ${fmt(1000 / median(rates.unhooked), 2)} without, ${fmt(1000 / median(rates.base), 2)} before events; CPU a write: ${fmt(cpuMs.hooked, 2)} ms with the hook, ${fmt(cpuMs.unhooked, 2)} without, ${fmt(cpuMs.base, 2)} before events; events without a hook against before: ${fmt(median(eventsOnly), 3)} (${spread(eventsOnly)}); with the hook against without: ${fmt(median(vsUnhooked), 3)} (${spread(vsUnhooked)}); the bench process (the client of the three and the receiver) ${fmt(benchCpuMs, 2)} CPU ms a write`,
    );

    // The burst, on the service with the hook alone.
    await Promise.all([stop("base"), stop("unhooked")]);
    await sleep(1_500);
    log(`webhooks: a burst of ${BURST} writes, ${CONCURRENCY} in flight`);
    const first = (BATCHES + 1) * PER_BATCH;
    const burstStarted = performance.now();
    const answered = await burst(running.hooked!.port, write, first);
    const burstMs = performance.now() - burstStarted;
    const { expected, got } = await drained(apis.hooked, receiver, fromId);

    const ofBurst = receiver.deliveries.filter((d) => d.requestId !== null && answered.has(d.requestId));
    const lags = ofBurst.map((d) => d.at - answered.get(d.requestId!)!).sort((a, b) => a - b);
    const arrived = ofBurst.map((d) => d.at - burstStarted).sort((a, b) => a - b);
    const [p50, p99, max] = [percentile(lags, 0.5), percentile(lags, 0.99), percentile(lags, 1)];
    for (const [name, value, target] of [
      ["p50", p50, null],
      ["p99", p99, LAG_TARGET_MS],
      ["max", max, null],
    ] as const)
      record({
        name: `webhooks_delivery_lag_${name}`,
        value: round(value, 0),
        unit: "ms",
        baseline: LAG_TARGET_MS,
        ratio: round(value / LAG_TARGET_MS, 3),
        target: target === null ? "reported" : `< ${target} ms`,
        pass: target === null || value < target,
      });
    const recorded = (await apis.hooked.call("GET", `${S}/webhooks/${created.id}/deliveries?limit=200`))
      .deliveries as Array<{
      duration_ms: number | null;
    }>;
    const durations = recorded.map((d) => d.duration_ms ?? 0).sort((a, b) => a - b);
    note(
      `webhooks_delivery_lag: ${BURST} writes (the same three kinds in turn), ${CONCURRENCY} in flight, in ${fmt(burstMs / 1000, 2)} s (${fmt((BURST * 1000) / burstMs)} writes/s) on the service with the hook alone; ${lags.length} deliveries of their events; from the write's answer at the bench to the delivery at the receiver (both performance.now() of the bench process): min ${fmt(percentile(lags, 0), 0)} ms, p50 ${fmt(p50, 0)} ms, p99 ${fmt(p99, 0)} ms, max ${fmt(max, 0)} ms; the first delivery came ${fmt(percentile(arrived, 0), 0)} ms after the burst's first write, half of them by ${fmt(percentile(arrived, 0.5), 0)} ms, the last at ${fmt(percentile(arrived, 1), 0)} ms; the last 200 attempts took ${durations[Math.floor(durations.length / 2)]} ms (median) and at most ${durations[durations.length - 1]} ms as the service records them (duration_ms)`,
    );

    const ours = receiver.deliveries.filter((d) => d.eventId >= fromId);
    const distinct = new Set(ours.map((d) => d.messageId)).size;
    const unsigned = ours.filter((d) => d.signed !== true).length;
    const ok = got === expected && distinct === got && unsigned === 0;
    record({
      name: "webhooks_deliveries",
      value: got,
      unit: "deliveries",
      baseline: expected,
      ratio: round(got / Math.max(1, expected), 3),
      target: "= events, each once, signed",
      pass: ok,
    });
    note(
      `webhooks_deliveries: the site's events from the hook's webhook.created on (id ${fromId}): ${expected}; deliveries of them at the receiver: ${got} (${distinct} distinct webhook-id, ${unsigned} not verified by standardwebhooks); ${receiver.deliveries.length - ours.length} more of earlier events (the fill's, still queued when the hook was made); baseline ${tree.commit.slice(0, 7)} (BENCH_WEBHOOKS_BASE=${BASE})`,
    );
  } finally {
    await Promise.all((Object.keys(running) as Side[]).map(stop));
    await receiver.close();
    tree.remove();
  }
}
