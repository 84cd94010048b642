// "No silent nothing": what a frame's markup names that its site does not have, found
// when the frame is written (and in dry runs) — a data set, a menu location, a sidebar or a string
// or a form that does not exist (`unknown_source`, `unknown_string`, `unknown_form`), a block no slot up the layout chain
// takes (`unused_block`), and a named slot up the chain that nothing fills and that has no
// default content (`unfilled_slot`, at the svc/layout insert). Each with the line and column of
// the comment or data-op-bind attribute it is about.
import { sourceName } from "../markup/source-name.ts";
import { positionOf, SEARCH_STRINGS, SUBMIT_KEY } from "../markup/index.ts";
import { siteMenuLocations } from "../site/menu-locations.ts";
import type { DependencyIndex } from "../effects/dependency-index.ts";
import type { Db } from "../store/database.ts";
import { warning, type Warning } from "../warnings.ts";
import { storedAnalysis } from "./record.ts";
import type { FrameReport } from "./report.ts";

const MAX_CHAIN = 16;

function at(html: string, offset: number): Record<string, number> {
  return { at: offset, ...positionOf(html, offset) };
}

async function namesIn(
  db: Db,
  table: "datasets" | "sidebars" | "forms",
  siteId: number,
  names: readonly string[],
): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows = await db
    .selectFrom(table)
    .select("name")
    .where("site_id", "=", siteId)
    .where("name", "in", [...names])
    .execute();
  return new Set(rows.map((row) => row.name));
}

/** What a check takes as existing although the site does not have it yet (POST /frames/check `data`). */
export interface Assumed {
  /** Data sets written together with the frames checked. */
  datasets?: readonly string[];
}

/** Sources the site has nothing for: a data set, a menu location (or a data set standing in for it), a sidebar, a string. */
async function unknownSources(
  db: Db,
  siteId: number,
  html: string,
  report: FrameReport,
  assumed: Assumed,
): Promise<Warning[]> {
  const { sources, source_positions: positions = {}, source_written: written = {} } = report.compiled.analysis;
  const named = sources.map(sourceName);
  const sets = named.flatMap((s) => (s.kind === "data" ? [s.name] : []));
  const readsMenus = named.some((s) => s.kind === "menu");
  // The site's own locations (setting menu_locations), read only when the frame prints a menu.
  const locations = readsMenus ? await siteMenuLocations(db, siteId) : [];
  const menus = named.flatMap((s) => (s.kind === "menu" && !locations.includes(s.location) ? [s.location] : []));
  const sidebarNames = named.flatMap((s) => (s.kind === "sidebar" ? [s.name] : []));
  // svc/form's button reads t.form.submit and svc/search t.search.*: each has a text of its own without it.
  const defaulted = (key: string) => key === SUBMIT_KEY || Object.hasOwn(SEARCH_STRINGS, key);
  const keys = named.flatMap((s) => (s.kind === "text" && !defaulted(s.key) ? [s.key] : []));
  const formNames = named.flatMap((s) => (s.kind === "form" ? [s.name] : []));
  const [datasets, sidebars, forms, strings] = await Promise.all([
    namesIn(db, "datasets", siteId, [...sets, ...menus]),
    namesIn(db, "sidebars", siteId, sidebarNames),
    namesIn(db, "forms", siteId, formNames),
    keys.length === 0
      ? Promise.resolve(new Set<string>())
      : db
          .selectFrom("strings")
          .select("key")
          .where("site_id", "=", siteId)
          .where("key", "in", keys)
          .execute()
          .then((rows) => new Set(rows.map((row) => row.key))),
  ]);
  for (const name of assumed.datasets ?? []) datasets.add(name);
  const out: Warning[] = [];
  const place = (source: string) => at(html, positions[source] ?? 0);
  for (const name of sets)
    if (!datasets.has(name))
      out.push(
        warning("unknown_source", `The site has no data set "${name}": it reads nothing until one is written.`, {
          // As its author wrote it (a repeat's source may be the set's bare name).
          source: written[`data.${name}`] ?? `data.${name}`,
          ...place(`data.${name}`),
        }),
      );
  for (const location of menus)
    if (!datasets.has(location))
      out.push(
        warning(
          "unknown_source",
          `"menu.${location}" is no menu location of the site (${locations.join(", ")}) and no data set stands in for it: it reads nothing.`,
          { source: `menu.${location}`, ...place(`menu.${location}`) },
        ),
      );
  for (const name of sidebarNames)
    if (!sidebars.has(name))
      out.push(
        warning("unknown_source", `The site has no sidebar "${name}": it prints nothing until one is written.`, {
          source: `sidebar.${name}`,
          ...place(`sidebar.${name}`),
        }),
      );
  for (const name of formNames)
    if (!forms.has(name))
      out.push(
        warning("unknown_form", `The site has no form "${name}": svc/form prints nothing until one is declared.`, {
          name,
          ...place(`form.${name}`),
        }),
      );
  for (const key of keys)
    if (!strings.has(key))
      out.push(
        warning("unknown_string", `No language has a text for "${key}": t.${key} prints nothing.`, {
          key,
          ...place(`t.${key}`),
        }),
      );
  return out;
}

/** Blocks no slot up the layout chain takes, and named slots up the chain nothing fills. */
async function layoutWarnings(
  db: Db,
  siteId: number,
  html: string,
  report: FrameReport,
  index: DependencyIndex,
): Promise<Warning[]> {
  const analysis = report.compiled.analysis;
  const blocks = analysis.blocks ?? [];
  const layoutInsert = analysis.frame_refs.find((ref) => ref.insert === "svc/layout");
  if (!analysis.layout) {
    return blocks.map((block) =>
      warning("unused_block", `Block "${block.name}" fills nothing: the frame has no layout (svc/layout).`, {
        name: block.name,
        ...at(html, block.at),
      }),
    );
  }
  // The layouts up the chain, nearest first, with their slots and blocks.
  const chain: Array<{ slots: Array<{ name: string; defaults: boolean }>; blocks: string[] }> = [];
  const seen = new Set<string>();
  for (let ref: string | null = analysis.layout; ref !== null && chain.length < MAX_CHAIN; ) {
    const slug = report.resolve(ref);
    if (seen.has(slug) || !index.get(slug)) break;
    seen.add(slug);
    const row = await db
      .selectFrom("frames")
      .select("analysis_json")
      .where("site_id", "=", siteId)
      .where("slug", "=", slug)
      .executeTakeFirst();
    if (!row) break;
    const stored = storedAnalysis(row).analysis;
    chain.push({ slots: stored.slots ?? [], blocks: (stored.blocks ?? []).map((b) => b.name) });
    ref = stored.layout ?? null;
  }
  const out: Warning[] = [];
  for (const block of blocks) {
    if (!chain.some((level) => level.slots.some((slot) => slot.name === block.name))) {
      out.push(
        warning("unused_block", `Block "${block.name}" fills nothing: no slot up the layout chain is named so.`, {
          name: block.name,
          ...at(html, block.at),
        }),
      );
    }
  }
  const filled = new Set(blocks.map((block) => block.name));
  for (const level of chain) {
    for (const slot of level.slots) {
      if (slot.name !== "" && !slot.defaults && !filled.has(slot.name)) {
        out.push(
          warning(
            "unfilled_slot",
            `Slot "${slot.name}" of the layout chain gets no block and has no default content: it prints nothing.`,
            { name: slot.name, ...at(html, layoutInsert?.at ?? 0) },
          ),
        );
        filled.add(slot.name);
      }
    }
    for (const name of level.blocks) filled.add(name);
  }
  return out;
}

/** The warnings of a frame write that need the site: the frame's markup as `report` analysed it. */
export async function siteWarnings(
  db: Db,
  siteId: number,
  html: string,
  report: FrameReport,
  index: DependencyIndex,
  assumed: Assumed = {},
): Promise<Warning[]> {
  const [sources, layout] = await Promise.all([
    unknownSources(db, siteId, html, report, assumed),
    layoutWarnings(db, siteId, html, report, index),
  ]);
  return [...sources, ...layout].sort((a, b) => (a.at as number) - (b.at as number));
}
