// `svc export-static --out <dir>`: the site's public pages and files as a folder any static host
// serves (docs/cli.md, "svc export-static"), its links pointing into the folder, not at the
// service. Run again into the same folder, it rewrites only what changed.
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { CliError, usage } from "../errors.ts";
import { exportStatic, type ExportSummary } from "../export/run.ts";
import type { Linking, LinkMode } from "../export/links.ts";
import { MANIFEST } from "../export/manifest.ts";
import { siteFacts } from "../remote.ts";
import { targetJson, type Session } from "./common.ts";

export interface ExportStaticFlags {
  out: string;
  baseUrl?: string;
  relative?: boolean;
  since?: string;
  verbose?: boolean;
}

const PAD = 10;

function baseUrlOf(value: string): string {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username)
    throw usage(`--base-url ${value}: an http:// or https:// address such as https://example.org, without a query`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

function sinceOf(value: string | undefined): number | null {
  if (value === undefined) return null;
  if (!/^\d{1,15}$/.test(value)) throw usage(`--since ${value}: an event id (a whole number, GET /events)`);
  return Number(value);
}

/** The folder to export into: new, empty, or holding an earlier export (its manifest). */
function outFolder(path: string, given: string): string {
  if (existsSync(path)) {
    if (!statSync(path).isDirectory()) throw usage(`--out ${given}: not a folder`);
    const names = readdirSync(path);
    if (names.length > 0 && !names.includes(MANIFEST))
      throw new CliError(
        1,
        `not_empty: --out ${given} holds files and no ${MANIFEST}: export into a new or empty folder, or one an export wrote`,
      );
  } else mkdirSync(path, { recursive: true });
  return path;
}

function modeWords(mode: LinkMode, base: string): string {
  if (mode === "absolute") return `links on ${base}`;
  return mode === "relative" ? "links relative" : "links root-relative";
}

export async function exportStaticCommand(session: Session, cwd: string, flags: ExportStaticFlags): Promise<number> {
  const { api, out, target } = session;
  const since = sinceOf(flags.since);
  const baseUrl = flags.baseUrl === undefined ? null : baseUrlOf(flags.baseUrl);
  const dir = outFolder(resolve(cwd, flags.out), flags.out);
  const facts = await siteFacts(api);
  if (!facts.origin) throw new CliError(1, `no_address: site ${target.site} has no public address (GET /data/site)`);
  const mode: LinkMode = flags.relative ? "relative" : baseUrl ? "absolute" : "root";
  const linking: Linking = {
    mode,
    siteOrigin: facts.origin,
    hosts: new Set([new URL(facts.origin).host, new URL(target.url).host].map((host) => host.toLowerCase())),
    base: baseUrl ?? facts.origin,
  };
  const summary = await exportStatic(api, facts, {
    out: dir,
    site: target.site,
    serviceUrl: target.url,
    linking,
    since,
    onProgress: (done, total) => out.progress(done, total, "exporting"),
    onWait: (seconds, why) => out.note(`waiting ${seconds} s: ${why}`),
  });
  print(session, summary, { dir, mode, base: linking.base, since, verbose: flags.verbose === true });
  return 0;
}

interface Printed {
  dir: string;
  mode: LinkMode;
  base: string;
  since: number | null;
  verbose: boolean;
}

function print(session: Session, summary: ExportSummary, printed: Printed): void {
  const { out, target } = session;
  if (printed.verbose) {
    for (const file of summary.written) out.line(`${"write".padEnd(PAD)} ${file}`);
    for (const file of summary.deleted) out.line(`${"delete".padEnd(PAD)} ${file}`);
    for (const file of summary.unchanged) out.line(`${"unchanged".padEnd(PAD)} ${file}`);
  }
  for (const missing of summary.missing)
    out.note(`warning not_found: ${missing.address} answered ${missing.status} (linked from ${missing.from})`);
  for (const from of summary.skippedRedirects)
    out.note(`warning redirect_skipped: ${from}: _redirects matches paths only, not a query string`);
  for (const endpoint of summary.endpoints)
    out.note(
      `warning needs_service: ${endpoint.path} is the service's (a form or search): a static host cannot answer it (${endpoint.files.join(", ")})`,
    );
  const fetched =
    printed.since === null
      ? ""
      : summary.everything
        ? "; every page fetched again"
        : `; changes since event ${printed.since}`;
  out.line(
    `${summary.written.length} written, ${summary.unchanged.length} unchanged, ${summary.deleted.length} deleted in ${printed.dir} (${modeWords(printed.mode, printed.base)}${fetched}) from ${target.url} site ${target.site}${summary.lastEvent === null ? "" : `; last event ${summary.lastEvent}`}`,
  );
  out.document({
    ok: true,
    command: "export-static",
    target: targetJson(target),
    out: printed.dir,
    links: { mode: printed.mode, base: printed.base },
    since: printed.since,
    everything: summary.everything,
    last_event: summary.lastEvent,
    counts: { written: summary.written.length, unchanged: summary.unchanged.length, deleted: summary.deleted.length },
    written: summary.written,
    unchanged: summary.unchanged,
    deleted: summary.deleted,
    missing: summary.missing,
    skipped_redirects: summary.skippedRedirects,
    endpoints: summary.endpoints,
  });
}
