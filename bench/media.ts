// The `media` group of `npm run bench` (bench/README.md, "Media"): public serving of a media file
// and upload throughput of a 5 MB image, each against a bare node:http server doing the same job in
// the same run (bench/README.md, "Media").
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import {
  compare,
  cpuMsOf,
  http,
  load,
  round,
  ADMIN_TOKEN,
  startBare,
  startBareProcess,
  type LoadOptions,
  type Result,
  type Service,
} from "./lib.ts";

const S = "/api/site/1";
const QUICK = process.env.BENCH_QUICK === "1";
const SERVE_LOAD = { connections: 8, duration: QUICK ? 1 : 2, warmup: 1, rounds: QUICK ? 1 : 5 };
/** Two uploads in flight: each is 5 MB of socket, hashing and disk; more only queue. */
const UPLOAD_LOAD = { connections: 2, duration: QUICK ? 2 : 3, warmup: 1, rounds: QUICK ? 1 : 5 };
export const SERVE_TARGET = 0.8;
export const UPLOAD_TARGET = 0.5;

export interface MediaHooks {
  log(message: string): void;
  record(result: Result): void;
  note(text: string): void;
}

/**
 * CPU time the server process spends per request (µs) in one more run: a measure that other work
 * on the machine moves less than throughput (bench/cpu.ts does the same for pages).
 */
async function cpuPerRequest(url: string, pid: number, options: LoadOptions): Promise<number> {
  const before = cpuMsOf(pid);
  const result = await load(url, options);
  return ((cpuMsOf(pid) - before) * 1000) / result.requests;
}

/** A JPEG of about `bytes` bytes: noise at quality 90, grown until it is at least that large. */
export async function jpegOf(bytes: number): Promise<Buffer> {
  for (let side = Math.ceil(Math.sqrt(bytes / 1.2)); ; side = Math.ceil(side * 1.15)) {
    const data = await sharp({
      create: {
        width: side,
        height: side,
        channels: 3,
        background: "#557799",
        noise: { type: "gaussian", mean: 128, sigma: 50 },
      },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    if (data.length >= bytes) return data;
  }
}

async function upload(service: Service, data: Buffer, filename: string): Promise<{ url: string; bytes: number }> {
  const answer = await http(service.port, "POST", `${S}/media?filename=${encodeURIComponent(filename)}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "image/jpeg" },
    body: data,
  });
  if (answer.status !== 201)
    throw new Error(`POST /media ${filename}: ${answer.status} ${answer.body.toString().slice(0, 300)}`);
  return JSON.parse(answer.body.toString()).media;
}

/** media_serve: GET of a 100 KB image at its public url against the bare server sending the same answer. */
async function mediaServe(service: Service, results: string, hooks: MediaHooks): Promise<void> {
  const data = await jpegOf(100 * 1024);
  const media = await upload(service, data, "serve-100k.jpg");
  const headers = { host: "localhost" };
  const answer = await http(service.port, "GET", media.url, { headers });
  if (answer.status !== 200 || !answer.body.equals(data))
    throw new Error(`${media.url}: ${answer.status}, ${answer.body.length} bytes`);
  const bare = await startBare(answer, join(results, "answer-media-serve.json"));
  try {
    const urls = [`http://127.0.0.1:${service.port}${media.url}`, `http://127.0.0.1:${bare.port}${media.url}`] as const;
    const { service: s, bare: b, ratio } = await compare(urls[0], urls[1], { ...SERVE_LOAD, headers });
    hooks.record({
      name: "media_serve",
      value: round(s.rps, 0),
      unit: "req/s",
      baseline: round(b.rps, 0),
      ratio: round(ratio, 3),
      target: `>= ${SERVE_TARGET}`,
      pass: ratio >= SERVE_TARGET,
    });
    const cpu = [
      await cpuPerRequest(urls[0], service.pid, { ...SERVE_LOAD, headers }),
      await cpuPerRequest(urls[1], bare.pid, { ...SERVE_LOAD, headers }),
    ];
    hooks.note(
      `media_serve: ${data.length} bytes of JPEG; ${round(s.bytesPerSec / 1e6, 0)} MB/s (bare ${round(b.bytesPerSec / 1e6, 0)} MB/s); p99 ${s.p99} ms (bare ${b.p99} ms); CPU ${round(cpu[0], 0)} µs a request (bare ${round(cpu[1], 0)} µs)`,
    );
  } finally {
    await bare.stop();
  }
}

/** The bare upload server: streams each body to a temporary file while hashing it, flushes it, renames it under its hash. */
function startBareUpload(dir: string): Promise<{ port: number; pid: number; stop(): Promise<void> }> {
  return startBareProcess("bare-upload.mjs", [dir]);
}

/** media_upload_5mb: raw POST /media of a 5 MB image, uploads per second against the bare upload server. */
async function mediaUpload(service: Service, work: string, results: string, hooks: MediaHooks): Promise<void> {
  const data = await jpegOf(5 * 1024 * 1024);
  const file = join(results, "upload-5mb.jpg");
  writeFileSync(file, data);
  // Every upload makes a record of 5 MB: the site's media quota is lifted for the run.
  const lifted = await http(service.port, "PATCH", "/api/sites/1/quotas", {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ media_bytes: 1e15 }),
  });
  if (lifted.status !== 200) throw new Error(`PATCH quotas: ${lifted.status} ${lifted.body.toString()}`);
  const bare = await startBareUpload(join(work, "bare-upload"));
  try {
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "image/jpeg" };
    const path = `${S}/media?filename=upload-5mb.jpg`;
    const urls = [`http://127.0.0.1:${service.port}${path}`, `http://127.0.0.1:${bare.port}${path}`] as const;
    const options = { ...UPLOAD_LOAD, headers, method: "POST", bodyFile: file };
    const { service: s, bare: b, ratio } = await compare(urls[0], urls[1], options);
    const mbs = (rps: number) => round((rps * data.length) / 1e6, 0);
    hooks.record({
      name: "media_upload_5mb",
      value: round(s.rps, 1),
      unit: "uploads/s",
      baseline: round(b.rps, 1),
      ratio: round(ratio, 3),
      target: `>= ${UPLOAD_TARGET}`,
      pass: ratio >= UPLOAD_TARGET,
    });
    const cpu = [await cpuPerRequest(urls[0], service.pid, options), await cpuPerRequest(urls[1], bare.pid, options)];
    hooks.note(
      `media_upload_5mb: ${data.length} bytes a body; ${mbs(s.rps)} MB/s (bare ${mbs(b.rps)} MB/s); p50 ${s.p50} ms, p99 ${s.p99} ms (bare p50 ${b.p50} ms, p99 ${b.p99} ms); CPU ${round(cpu[0] / 1000, 1)} ms an upload (bare ${round(cpu[1] / 1000, 1)} ms)`,
    );
  } finally {
    await bare.stop();
  }
}

/** The group, on the small site's service (nothing else of it is measured meanwhile). */
export async function mediaGroup(service: Service, work: string, results: string, hooks: MediaHooks): Promise<void> {
  await mediaServe(service, results, hooks);
  await mediaUpload(service, work, results, hooks);
}
