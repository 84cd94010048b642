// Every write names what it changed; the publish step alone decides what that affects
// (DESIGN.md). Capabilities build these and hand them to Publisher.changed after their
// transaction has committed.

export type Change =
  | { kind: "settings" }
  | { kind: "languages" }
  /** A page's own record changed (title, slug, path, status, content, fields, frame, parent, lang). */
  | { kind: "page"; pageId: number; /** the parent before and after, when it moved */ parents?: number[]; /** it left the public site (unpublished, trashed, deleted) */ gone?: boolean }
  | { kind: "dataset"; name: string }
  | { kind: "menu"; menuId: number }
  | { kind: "frame"; frameId: string; slug: string }
  /** POST /frames/rebake selectors without a finer change: every frame, or page-printing frames. */
  | { kind: "all" }
  | { kind: "pages" };

/** The `rebaked` object that write answers carry (spec, POST /frames/rebake). */
export interface Rebaked {
  status: "ok" | "unavailable" | "failed";
  total: number;
  baked: number;
  not_needed: number;
  frames: Array<{ id: string; slug: string; because: string[]; bake: string; detail?: unknown }>;
  /** Ids of pages whose public output was rewritten or flushed. */
  pages: number[];
  cache: {
    status: string;
    scope: string;
    pages: number[];
    flushed: { urls: { status: string; by: string; urls: string[]; skipped: string[] } };
  };
  skipped?: string[];
}

export interface PublishOptions {
  /** At most this many frames are rebaked; the rest are listed in `skipped` (POST /frames/rebake: 25). */
  limit?: number;
}

export interface Publisher {
  /** Rebakes and flushes whatever the changes affect on that site; never throws for a render fault. */
  changed(siteId: number, changes: Change[], options?: PublishOptions): Promise<Rebaked>;
}
