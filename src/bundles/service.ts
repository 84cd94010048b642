// Site bundles (docs/bundles.md): a site exported as one .tar.gz, and a bundle imported into a new
// site or an existing one. Every object is read and written through its own feature's services,
// so each write goes through the write pipeline (revisions, outbox, publishing) as an API call's
// would; an import reads and checks the whole bundle before its first write.
import type { Readable } from "node:stream";
import { fail, ServiceError } from "../errors.ts";
import type { MediaFiles } from "../media/intake.ts";
import { createSite } from "../network/sites-service.ts";
import { administers, type Caller } from "../site/callers.ts";
import { siteById, type SiteRow } from "../site/sites.ts";
import type { ServiceContext } from "../write/context.ts";
import { readBundle, type ReadLimits } from "./archive-read.ts";
import { writeBundle, type OutEntry } from "./archive-write.ts";
import { FORMAT_VERSION, jsonOf, SERVICE_NAME, SERVICE_VERSION } from "./format.ts";
import { KINDS } from "./kinds/index.ts";
import { isRecord, type SiteIO } from "./kinds/kind.ts";
import { pageNames } from "./page-names.ts";
import { objectsOf, planAnswer, planImport, type ImportPlan, type Step } from "./plan.ts";

export type ImportMode = "merge" | "replace";

export interface BundleContext {
  ctx: ServiceContext;
  files: MediaFiles;
  limits: ReadLimits;
}

/** The site, when the caller administers it; anyone else is told there is no such site. */
async function administeredSite(ctx: ServiceContext, caller: Caller, siteId: number): Promise<SiteRow> {
  const site = await siteById(ctx.db, siteId);
  if (!site || !(await administers(ctx.db, caller, siteId))) throw fail("site_not_found");
  return site;
}

async function siteIO(bc: BundleContext, site: SiteRow, caller: Caller): Promise<SiteIO> {
  return { ctx: bc.ctx, site, userId: caller.userId, files: bc.files, pages: await pageNames(bc.ctx.db, site.id) };
}

/** GET /api/sites/{id}/export: the bundle of the site, as a stream. */
export async function exportSite(
  bc: BundleContext,
  caller: Caller,
  siteId: number,
): Promise<{ site: SiteRow; stream: Readable }> {
  const site = await administeredSite(bc.ctx, caller, siteId);
  const io = await siteIO(bc, site, caller);
  const entries: OutEntry[] = [];
  const counts: Record<string, number> = {};
  for (const kind of KINDS) {
    const objects = await kind.read(io);
    counts[kind.kind] = objects.length;
    entries.push(...objects.map((object) => object.entry));
  }
  const source = {
    service: SERVICE_NAME,
    version: SERVICE_VERSION,
    domain: site.domain,
    site_id: site.id,
    exported_at: new Date(bc.ctx.clock()).toISOString(),
  };
  return { site, stream: writeBundle({ format_version: FORMAT_VERSION, source, counts }, entries) };
}

async function runStep(
  io: SiteIO,
  step: Step,
  plan: ImportPlan,
  entries: ReadonlyMap<string, Buffer>,
  replace: boolean,
) {
  try {
    await step.bundleKind.put(io, step.name, step.bytes, entries, { replace });
    return true;
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    plan.conflicts.push({ kind: step.kind, name: step.name, reason: error.code, details: error.details });
    return false;
  }
}

/**
 * The steps in the bundle's order — the order the exported site made its objects in, so the new
 * site's pages are made in the same order and list as the old ones where a list follows it (the
 * sitemap) — but each after its parent (`en:/about` before `en:/about/team`).
 */
function parentsFirst(steps: readonly Step[]): Step[] {
  const byName = new Map(steps.map((step) => [step.name, step]));
  const out: Step[] = [];
  const placed = new Set<Step>();
  const place = (step: Step) => {
    if (placed.has(step)) return;
    placed.add(step);
    const cut = step.name.lastIndexOf("/");
    const parent = cut < 0 ? undefined : byName.get(step.name.slice(0, cut));
    if (parent) place(parent);
    out.push(step);
  };
  for (const step of steps) place(step);
  return out;
}

/** Writes the plan: each kind in order, an object refused by its service skipped and reported as a conflict. */
async function applyPlan(io: SiteIO, plan: ImportPlan, entries: ReadonlyMap<string, Buffer>, replace: boolean) {
  const written = new Map<string, Step[]>();
  for (const kind of KINDS) {
    let pending = parentsFirst([...plan.creates, ...plan.updates].filter((step) => step.bundleKind === kind));
    io.pages = await pageNames(io.ctx.db, io.site.id);
    // A refusal may be an order (a stylesheet importing one written later): tried again while any succeeds.
    while (pending.length > 0) {
      const failed: Step[] = [];
      const before = plan.conflicts.length;
      for (const step of pending) {
        if (await runStep(io, step, plan, entries, replace))
          written.set(kind.kind, [...(written.get(kind.kind) ?? []), step]);
        else failed.push(step);
      }
      if (failed.length === pending.length) break;
      plan.conflicts.splice(before);
      pending = failed;
    }
  }
  for (const kind of KINDS) {
    const steps = written.get(kind.kind);
    if (!kind.finish || !steps) continue;
    io.pages = await pageNames(io.ctx.db, io.site.id);
    await kind.finish(io, steps);
  }
  for (const kind of [...KINDS].reverse()) {
    const deletes = plan.deletes
      .filter((step) => step.bundleKind === kind)
      .sort((a, b) => b.name.length - a.name.length);
    io.pages = await pageNames(io.ctx.db, io.site.id);
    for (const step of deletes) {
      try {
        await kind.remove!(io, step.name);
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        plan.conflicts.push({ kind: step.kind, name: step.name, reason: error.code, details: error.details });
      }
    }
  }
}

export interface ImportOptions {
  mode: ImportMode;
  dryRun: boolean;
}

async function importInto(bc: BundleContext, caller: Caller, site: SiteRow, body: Readable, options: ImportOptions) {
  const bundle = await readBundle(body, bc.limits);
  const objects = objectsOf(bundle);
  const io = await siteIO(bc, site, caller);
  const plan = await planImport(io, objects, options.mode === "replace");
  if (!options.dryRun) await applyPlan(io, plan, bundle.entries, options.mode === "replace");
  return {
    site_id: site.id,
    mode: options.mode,
    dry_run: options.dryRun,
    source: bundle.manifest.source,
    ...planAnswer(plan),
  };
}

/** POST /api/sites/{id}/import: the bundle into an existing site (its administrators). */
export async function importIntoSite(
  bc: BundleContext,
  caller: Caller,
  siteId: number,
  body: Readable,
  options: ImportOptions,
) {
  const site = await administeredSite(bc.ctx, caller, siteId);
  return importInto(bc, caller, site, body, options);
}

/**
 * POST /api/sites/import?domain=: a new site made of the bundle (a super-administrator). The
 * bundle is read and checked whole first, so a refused one makes no site; the new site is then
 * made the bundle's, what a new site starts with included (replace).
 */
export async function importNewSite(bc: BundleContext, caller: Caller, domain: unknown, body: Readable) {
  if (!caller.superAdmin) throw fail("insufficient_role", {}, "Only a super-administrator may create a site.");
  const bundle = await readBundle(body, bc.limits);
  const objects = objectsOf(bundle);
  const settings = [...objects.byKind.entries()].find(([kind]) => kind.kind === "settings")?.[1].get("settings");
  const file = settings ? jsonOf(settings) : null;
  const name = isRecord(file) && typeof file.name === "string" ? file.name : undefined;
  const record = await createSite(bc.ctx, caller, { domain, ...(name ? { name } : {}) });
  const site = (await siteById(bc.ctx.db, record.id))!;
  const io = await siteIO(bc, site, caller);
  const plan = await planImport(io, objects, true);
  await applyPlan(io, plan, bundle.entries, true);
  return {
    site_id: site.id,
    mode: "replace" as const,
    dry_run: false,
    source: bundle.manifest.source,
    ...planAnswer(plan),
  };
}
