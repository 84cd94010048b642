// `svc export <file>` and `svc import <file>` (docs/bundles.md, "The CLI"): a site's bundle
// written to a file, and a file's bundle imported into a site, or into a new one. The bundle is
// streamed both ways, never held whole.
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { failure, send, type Rec } from "../api.ts";
import { usage } from "../errors.ts";
import { targetJson, type Session } from "./common.ts";

const BUNDLE_TYPE = "application/gzip";

/** Writes the site's bundle to `file` (a partial file never stays: written beside it, then renamed). */
export async function exportCommand(session: Session, file: string): Promise<number> {
  const { api, out, target } = session;
  const { response } = await send(
    api,
    api.client.GET("/api/sites/{id}/export", {
      params: { path: { id: String(target.site) } },
      parseAs: "stream",
    }),
  );
  const part = `${file}.part`;
  try {
    await pipeline(Readable.fromWeb(response.body as never), createWriteStream(part));
    renameSync(part, file);
  } catch (error) {
    rmSync(part, { force: true });
    throw failure(error, target.url);
  }
  out.line(`exported site ${target.site} of ${target.url} to ${file}`);
  out.document({ ok: true, command: "export", target: targetJson(target), file });
  return 0;
}

export interface ImportFlags {
  dryRun?: boolean;
  mode?: string;
  domain?: string;
}

/** Imports `file` into the site named (`site`), or into a new site at `--domain` when none is named. */
export async function importCommand(
  session: Session,
  file: string,
  named: boolean,
  flags: ImportFlags,
): Promise<number> {
  const { api, out, target } = session;
  if (!existsSync(file)) throw usage(`${file}: no such file`);
  const mode = flags.mode ?? "merge";
  if (mode !== "merge" && mode !== "replace") throw usage(`--mode ${mode}: merge or replace`);
  if (!named && flags.domain === undefined)
    throw usage("import: name the site (--site or SVC_SITE), or give --domain to create a new site");
  if (!named && (flags.dryRun || flags.mode !== undefined))
    throw usage("import: --dry-run and --mode apply to an existing site (--site or SVC_SITE)");
  // The file streams as the body (fetch needs `duplex: "half"` for a stream), sent as it is.
  const raw = {
    body: Readable.toWeb(createReadStream(file)) as never,
    bodySerializer: (body: unknown) => body as BodyInit,
    headers: { "Content-Type": BUNDLE_TYPE },
    duplex: "half",
  };
  const call = named
    ? api.client.POST("/api/sites/{id}/import", {
        params: { path: { id: String(target.site) }, query: { mode, ...(flags.dryRun ? { dry_run: "1" } : {}) } },
        ...raw,
      })
    : api.client.POST("/api/sites/import", { params: { query: { domain: flags.domain! } }, ...raw });
  const { data } = await send<Rec>(api, call);
  const list = (field: string) => (Array.isArray(data[field]) ? (data[field] as Rec[]) : []);
  const verb = data.dry_run === true ? "would " : "";
  for (const [field, word] of [
    ["creates", "create"],
    ["updates", "update"],
    ["deletes", "delete"],
  ] as const)
    for (const item of list(field)) out.line(`${`${verb}${word}`.padEnd(13)}${item.kind} ${item.name}`);
  for (const item of list("conflicts")) out.line(`conflict     ${item.kind} ${item.name} (${item.reason})`);
  out.line(
    `${data.dry_run === true ? "dry run: nothing written; " : ""}site ${data.site_id}: ${list("creates").length} created, ${list("updates").length} updated, ${list("unchanged").length} unchanged, ${list("deletes").length} deleted, ${list("conflicts").length} conflicts`,
  );
  out.document({
    ok: list("conflicts").length === 0,
    command: "import",
    target: { url: target.url, site: data.site_id },
    ...data,
  });
  return list("conflicts").length === 0 ? 0 : 1;
}
