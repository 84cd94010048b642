// The frame record (docs/frames.md, "Identity and record"), and the frame's ETag.
import type { Selectable } from "kysely";
import { Type, type Static } from "@sinclair/typebox";
import type { FramesTable } from "../store/schema.ts";
import { jsonColumn } from "../store/json-column.ts";

export type FrameRow = Selectable<FramesTable>;

const Strings = Type.Array(Type.String());

/**
 * A frame's analysis as stored (`analysis_json`): the markup's whole analysis (markup/types.ts
 * MarkupAnalysis) and its reference values, of which the schema names what is read back. Rows
 * stored before layouts may lack `layout`, `slots` and `blocks`; rows stored before lists, `lists`
 * (they had none: no repeat sorted or paged then).
 */
const STORED_ANALYSIS = jsonColumn(
  "frames.analysis_json",
  Type.Object({
    analysis: Type.Object({
      inserts: Type.Record(Type.String(), Type.Number()),
      sources: Strings,
      frame_refs: Type.Array(
        Type.Object({
          insert: Type.Union([Type.Literal("svc/frame"), Type.Literal("svc/partial"), Type.Literal("svc/layout")]),
          at: Type.Number(),
          keys: Type.Array(Type.Tuple([Type.String(), Type.String()])),
        }),
      ),
      binds: Type.Number(),
      live_reasons: Strings,
      layout: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      slots: Type.Optional(
        Type.Array(Type.Object({ name: Type.String(), defaults: Type.Boolean(), at: Type.Number() })),
      ),
      blocks: Type.Optional(Type.Array(Type.Object({ name: Type.String(), at: Type.Number() }))),
      lists: Type.Optional(
        Type.Array(
          Type.Object({
            at: Type.Number(),
            source: Type.String(),
            match: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
            order_by: Type.Union([Type.String(), Type.Null()]),
            offset: Type.Number(),
            limit: Type.Union([Type.Number(), Type.Null()]),
            page_size: Type.Union([Type.Number(), Type.Null()]),
          }),
        ),
      ),
    }),
    /** Raw reference values of svc/frame and svc/partial inserts (ids or slugs as written). */
    ref_values: Strings,
  }),
);

/** What is stored of a frame's analysis, with references already turned into slugs. */
export type StoredAnalysis = Static<typeof STORED_ANALYSIS.schema>;

/** The frame's stored analysis; `CorruptJson` (store/json-column.ts) when it is not one. */
export function storedAnalysis(row: Pick<FrameRow, "analysis_json">): StoredAnalysis {
  return STORED_ANALYSIS.read(row.analysis_json);
}

/** The frame's stored analysis, or `fallback` when it is not one. */
export function storedAnalysisOr<F>(row: Pick<FrameRow, "analysis_json">, fallback: F): StoredAnalysis | F {
  return STORED_ANALYSIS.readOr(row.analysis_json, fallback);
}

export interface FrameExtras {
  /** Slugs of embedded frames (ids turned into slugs). */
  frameRefs: string[];
  /** Turns a reference as written (slug or id) into the frame's slug: `layout` is answered as one. */
  resolve: (ref: string) => string;
  rendersOnRequest: boolean;
  pages?: number[];
  html?: boolean;
  referencedBy?: string[];
}

export function optionName(frameId: string): string {
  return `svc_frame_${frameId}`;
}

/** Strong ETag: changes with every write of the frame (markup, slug). */
export function frameEtag(row: Pick<FrameRow, "revision" | "sha256">): string {
  return `"r${row.revision}-${row.sha256.slice(0, 16)}"`;
}

export function frameRecord(row: FrameRow, extras: FrameExtras): Record<string, unknown> {
  const { analysis } = storedAnalysis(row);
  const record: Record<string, unknown> = {
    id: row.id,
    slug: row.slug,
    block: row.block,
    element: row.element,
    modifier: row.modifier,
    bytes: row.bytes,
    sha256: row.sha256,
    inserts: analysis.inserts,
    sources: analysis.sources,
    frame_refs: extras.frameRefs,
    // The layout frame it is printed inside (docs/markup.md, "Layouts"), by slug; null without one.
    layout: analysis.layout ? extras.resolve(analysis.layout) : null,
    binds: analysis.binds,
    created_at_gmt: row.created_at_gmt,
    updated_at_gmt: row.updated_at_gmt,
    updated_by: row.updated_by,
    option: optionName(row.id),
    renders_on_request: extras.rendersOnRequest,
  };
  if (extras.pages !== undefined && extras.pages.length > 0) record.pages = extras.pages;
  if (extras.html) record.html = row.html;
  if (extras.referencedBy !== undefined) record.referenced_by = extras.referencedBy;
  return record;
}
