// What an import would do (docs/bundles.md, "Merge and replace"): each object of the bundle is
// created, updated (its entry differs from the one the same reader makes of the site) or
// unchanged; with replace, each object of the site the bundle lacks is deleted. An object whose
// reference (a page's frame or parent, a menu's or sidebar's pages) is neither in the bundle nor
// on the site is a conflict, skipped, and so is what refers to it in turn.
import { createHash } from "node:crypto";
import type { ReadBundle } from "./archive-read.ts";
import { nulPath } from "../http/nul.ts";
import { invalidBundle } from "./format.ts";
import { KINDS, objectAt } from "./kinds/index.ts";
import { isRecord, jsonOf, type BundleKind, type KindObject, type Reference, type SiteIO } from "./kinds/kind.ts";

export interface PlanItem {
  kind: string;
  name: string;
}

export interface Conflict extends PlanItem {
  reason: string;
  details?: Record<string, unknown>;
}

export interface Step extends PlanItem {
  bundleKind: BundleKind;
  bytes: Buffer;
}

export interface ImportPlan {
  creates: Step[];
  updates: Step[];
  unchanged: PlanItem[];
  deletes: Step[];
  conflicts: Conflict[];
}

export interface BundleObjects {
  byKind: Map<BundleKind, Map<string, Buffer>>;
}

const TEXT_FATAL = new TextDecoder("utf-8", { fatal: true });

/** U+0000 in an entry's text: no store keeps it in text (docs/foundation.md, "U+0000"), so the bundle is refused whole. */
function refuseNul(path: string, holds: boolean): void {
  if (holds) throw invalidBundle("nul_character", { entry: path }, `${path} contains U+0000, which cannot be stored.`);
}

/** The bundle's objects by kind; an entry no kind has a place for, or one that does not read, refuses the bundle. */
export function objectsOf(bundle: ReadBundle): BundleObjects {
  const byKind = new Map<BundleKind, Map<string, Buffer>>(KINDS.map((kind) => [kind, new Map()]));
  for (const [path, bytes] of bundle.entries) {
    const at = objectAt(path);
    if (!at) throw invalidBundle("unknown_entry", { entry: path });
    if (at.kind.kind !== "media") {
      let text: string;
      let value: unknown;
      try {
        text = TEXT_FATAL.decode(bytes);
        if (path.endsWith(".json")) value = jsonOf(bytes);
      } catch {
        throw invalidBundle("bad_entry", { entry: path }, `${path} is not UTF-8 JSON or text.`);
      }
      refuseNul(path, text.includes("\u0000") || nulPath(value) !== null);
    } else if (path.endsWith(".json")) {
      // A media file's texts: a file's own bytes may hold anything.
      let value: unknown;
      try {
        value = jsonOf(bytes);
      } catch {
        value = undefined;
      }
      refuseNul(path, nulPath(value) !== null);
    }
    byKind.get(at.kind)!.set(at.name, bytes);
  }
  return { byKind };
}

/** A page's reference (`/de/about`) from its plan name (`de:/about`) under the default language `defaultLang`. */
function refOfPageName(name: string, defaultLang: string | null, active: boolean): string {
  const colon = name.indexOf(":");
  const lang = name.slice(0, colon);
  const path = name.slice(colon + 1);
  return !active || lang === "_" || lang === defaultLang ? path : `/${lang}${path}`;
}

/** The default language the site will have once the bundle's languages are written. */
function languagesAfter(objects: BundleObjects, io: SiteIO): { defaultLang: string | null; active: boolean } {
  const languages = [...objects.byKind.entries()].find(([kind]) => kind.kind === "languages")?.[1].get("languages");
  const file = languages ? jsonOf(languages) : null;
  if (isRecord(file) && Array.isArray(file.languages) && file.languages.length > 0)
    return { defaultLang: typeof file.default === "string" ? file.default : null, active: true };
  return { defaultLang: io.pages.state.defaultLang, active: io.pages.state.active };
}

export async function planImport(io: SiteIO, objects: BundleObjects, replace: boolean): Promise<ImportPlan> {
  const plan: ImportPlan = { creates: [], updates: [], unchanged: [], deletes: [], conflicts: [] };
  const site = new Map<BundleKind, KindObject[]>();
  for (const kind of KINDS) site.set(kind, await kind.read(io));
  for (const kind of KINDS) {
    const held = new Map(site.get(kind)!.map((object) => [object.name, object.entry.sha256]));
    const given = objects.byKind.get(kind)!;
    for (const [name, bytes] of given) {
      const step = { kind: kind.kind, name, bundleKind: kind, bytes };
      const sha = held.get(name);
      if (sha === undefined) plan.creates.push(step);
      else if (sha !== shaOf(bytes)) plan.updates.push(step);
      else plan.unchanged.push({ kind: kind.kind, name });
    }
    if (replace && kind.remove)
      for (const name of held.keys())
        if (!given.has(name)) plan.deletes.push({ kind: kind.kind, name, bundleKind: kind, bytes: Buffer.alloc(0) });
  }
  unresolved(plan, objects, site, languagesAfter(objects, io));
  return plan;
}

function shaOf(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Moves the steps whose references resolve nowhere to the conflicts, until none is left. */
function unresolved(
  plan: ImportPlan,
  objects: BundleObjects,
  site: Map<BundleKind, KindObject[]>,
  languages: { defaultLang: string | null; active: boolean },
): void {
  const deleted = new Set(plan.deletes.map((step) => `${step.kind}\u0000${step.name}`));
  const namesOf = (kindName: string) => {
    const kind = KINDS.find((k) => k.kind === kindName)!;
    const names = new Set([...objects.byKind.get(kind)!.keys()]);
    for (const object of site.get(kind)!) if (!deleted.has(`${kindName}\u0000${object.name}`)) names.add(object.name);
    return names;
  };
  const frames = namesOf("frames");
  const pages = namesOf("pages");
  const refs = () => new Set([...pages].map((name) => refOfPageName(name, languages.defaultLang, languages.active)));
  let pageRefs = refs();
  const resolves = (reference: Reference) =>
    reference.kind === "frames"
      ? frames.has(reference.name)
      : reference.name.includes(":")
        ? pages.has(reference.name)
        : pageRefs.has(reference.name);
  for (let changed = true; changed; ) {
    changed = false;
    for (const list of [plan.creates, plan.updates]) {
      for (let i = list.length - 1; i >= 0; i--) {
        const step = list[i]!;
        const missing = step.bundleKind.references?.(step.name, step.bytes).find((reference) => !resolves(reference));
        if (!missing) continue;
        list.splice(i, 1);
        plan.conflicts.push({
          kind: step.kind,
          name: step.name,
          reason: "unresolved_reference",
          details: { ref_kind: missing.kind, ref: missing.name },
        });
        if (step.kind === "pages" && list === plan.creates) {
          pages.delete(step.name);
          pageRefs = refs();
        }
        changed = true;
      }
    }
  }
}

/** The plan as answered: each object by kind and name. */
export function planAnswer(plan: ImportPlan) {
  const named = (steps: readonly PlanItem[]) => steps.map(({ kind, name }) => ({ kind, name }));
  return {
    creates: named(plan.creates),
    updates: named(plan.updates),
    unchanged: named(plan.unchanged),
    deletes: named(plan.deletes),
    conflicts: plan.conflicts,
  };
}
