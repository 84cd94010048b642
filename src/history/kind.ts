// What the history calls need of each kind of object (docs/revisions.md). Each kind's
// adapter (history/<kind>.ts) reaches its feature's services: it finds the object a ref names,
// reads its current state, and writes a revision's state back through the feature's own write
// path, so that a restore is checked, revised and published as any write of that kind is.
import type { WrittenKind } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import type { RevisionKind, Snapshot } from "../revisions/revisions.ts";
import type { TrashEntry } from "../revisions/trash.ts";
import type { SiteRow } from "../site/sites.ts";

/** One history call: who asks, on which site, with which query parameters and If-Match. */
export interface HistoryCall {
  ctx: ServiceContext;
  site: SiteRow;
  userId: number;
  /** The request's query (e.g. `lang` of a data set variant). */
  query: Record<string, unknown>;
  ifMatch?: string;
}

/** A stored revision as a restore reads it. */
export interface StoredState {
  revision: number;
  content: string;
  fields: Record<string, unknown>;
}

/** An answer of a restoring write: its body (with `rebaked`) and, for a frame, its ETag. */
export interface RestoreAnswer {
  body: Record<string, unknown>;
  etag?: string | null;
}

export interface HistoryKind {
  kind: RevisionKind;
  /** What its writes name it (`frame`, `dataset`, …): the kind of a purge's event. */
  written: WrittenKind;
  /** The route's address of one object, in Fastify's form: `/frames/:ref`. */
  path: string;
  /** The route parameter naming the object (`ref` or `name`). */
  param: "ref" | "name";
  /** The object's summary word in the document (`frame`, `data set`, …). */
  noun: string;
  /** The kind has variants per language, named by `?lang` (data sets). */
  langVariants?: boolean;
  /** How `?lang` reads for this kind, when not a data set's variant (pages: the language a slug or path is looked up in). */
  langDescription?: string;
  /** The kind is kept per theme, named by `?theme` (stylesheets; default: the site's theme). */
  themeVariants?: boolean;
  /**
   * The object's address under the site for the id its revisions are kept under (`/pages/12`,
   * `/data/team?lang=de`): where its own history calls are. Default: `path` with the id as its ref.
   */
  addressOf?(id: string): string;
  /**
   * The id revisions are kept under, for a ref (an id or the current slug or name; a data set's
   * `?lang`), and the object's current state. Throws the kind's not-found error (404) otherwise,
   * also for an object of another site.
   */
  locate(call: HistoryCall, ref: string): Promise<{ id: string; current: Snapshot }>;
  /**
   * Writes a revision's state as a new write of the object `id` through the feature's write path
   * (checked, revised, published). It keeps the object's current name or address; what the
   * revision held of it is left as it is now (docs/revisions.md).
   */
  restore(call: HistoryCall, id: string, state: StoredState): Promise<RestoreAnswer>;
  /**
   * Brings a deleted object back under its id with its last revision's state and name (from
   * `entry` and `state`), through the feature's write path, and takes it out of the trash
   * (revisions/trash.ts leaveTrash) in that write's transaction. Its name taken meanwhile: 409
   * slug_taken with the occupant's `id`, nothing written.
   */
  undelete(
    call: HistoryCall,
    entry: TrashEntry & { extra: Record<string, unknown> },
    state: StoredState,
  ): Promise<RestoreAnswer>;
}
