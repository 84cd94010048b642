// Profiles the service under the load of one scenario: fills the small site (and what the
// scenario adds) on a fresh database, restarts the service with `node --cpu-prof` on it, so the
// profile holds the load and not the filling, loads one address for a few seconds, stops it (the
// profile is written on exit) and prints a summary.
//   node --import tsx bench/profile.ts static|cached|api|list|profile|healthz|upload [seconds]
// `upload` posts a 5 MB JPEG with two in flight, as media_upload_5mb does.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fillSmallSite } from "./small-site.ts";
import { fillPageList, LIST_PAGES } from "./fill.ts";
import { jpegOf } from "./media.ts";
import { ADMIN_TOKEN, Api, http, load, ROOT, startService } from "./lib.ts";

interface Target {
  path: string;
  headers: Record<string, string>;
  fill?: (api: Api) => Promise<void>;
  /** A POST of this file's bytes, with this many in flight (default: GET, 8 connections). */
  upload?: { file: () => Promise<string>; connections: number };
}

const uploadFile = async () => {
  const file = join(mkdtempSync(join(tmpdir(), "svc-profile-upload-")), "upload-5mb.jpg");
  writeFileSync(file, await jpegOf(5 * 1024 * 1024));
  return file;
};

const targets: Record<string, Target> = {
  static: { path: "/about/", headers: { host: "localhost" } },
  cached: { path: "/news/", headers: { host: "localhost" } },
  api: { path: "/api/site/1/frames/card-4k", headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
  list: {
    path: "/api/site/1/pages?per_page=100",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    fill: (api) => fillPageList(api, LIST_PAGES, () => {}),
  },
  profile: { path: "/api/profile", headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
  healthz: { path: "/healthz", headers: {} },
  upload: {
    path: "/api/site/1/media?filename=upload-5mb.jpg",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "image/jpeg" },
    // Every upload makes a record of 5 MB: the site's media quota is lifted.
    fill: (api) => api.call("PATCH", "/api/sites/1/quotas", { media_bytes: 1e15 }).then(() => {}),
    upload: { file: uploadFile, connections: 2 },
  },
};
const which = process.argv[2] ?? "api";
const seconds = Number(process.argv[3] ?? 5);
const target = targets[which];
if (!target) throw new Error(`unknown target ${which}: ${Object.keys(targets).join(", ")}`);

const dir = join(ROOT, "bench/results/profiles");
rmSync(dir, { recursive: true, force: true });
const data = mkdtempSync(join(tmpdir(), "svc-profile-"));
const filling = await startService(data);
try {
  const api = new Api(filling.port);
  await fillSmallSite(api);
  await target.fill?.(api);
} finally {
  await filling.stop();
}
const service = await startService(data, {}, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
try {
  const upload = target.upload ? { method: "POST", bodyFile: await target.upload.file() } : {};
  if (!target.upload) await http(service.port, "GET", target.path, { headers: target.headers });
  const result = await load(`http://127.0.0.1:${service.port}${target.path}`, {
    connections: target.upload?.connections ?? 8,
    duration: seconds,
    headers: target.headers,
    ...upload,
  });
  console.log(`${which}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`);
} finally {
  await service.stop();
  rmSync(data, { recursive: true, force: true });
}
const main = readdirSync(dir)
  .filter((f) => f.endsWith(".cpuprofile"))
  .sort()[0];
console.log(`profile: ${join(dir, main)}`);
spawnSync(process.execPath, [join(ROOT, "bench/profile-summary.mjs"), join(dir, main), "40"], { stdio: "inherit" });
