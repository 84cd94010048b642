// The load generator: one autocannon run in its own process, so that it never shares an event
// loop with the server it measures. Plain JavaScript (no tsx) to keep it light.
//   node bench/load.mjs '{"url": "http://127.0.0.1:8080/about/", "connections": 8, "duration": 3, "headers": {...}}'
// (optional: "method", and "bodyFile", a file whose bytes every request sends as its body)
// Prints one JSON line: {rps, requests, ok, non2xx, errors, timeouts, p50, p90, p99, max, bytesPerSec}.
import autocannon from "autocannon";
import { readFileSync } from "node:fs";

const options = JSON.parse(process.argv[2]);
const result = await autocannon({
  url: options.url,
  connections: options.connections ?? 8,
  pipelining: 1,
  duration: options.duration ?? 3,
  headers: options.headers ?? {},
  method: options.method ?? "GET",
  body: options.bodyFile ? readFileSync(options.bodyFile) : undefined,
  timeout: 10,
});
const seconds = result.duration || options.duration;
process.stdout.write(
  `${JSON.stringify({
    rps: result["2xx"] / seconds,
    requests: result.requests.total,
    ok: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    bytesPerSec: result.throughput.average,
  })}\n`,
);
