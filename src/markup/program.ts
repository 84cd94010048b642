// The compiled form of a frame: a list of operations over the original markup string.
// Static operations are byte ranges of that string, so output outside the holes is the
// uploaded text itself; holes are inserts, binds and repeat blocks (with a nested program).

import type { OrderBy } from "./list-order.ts";
import type { RepeatSource } from "./tokens.ts";

/** Copy `html[s, e)` to the output. */
export interface StaticOp {
  t: "static";
  s: number;
  e: number;
}

/**
 * A self-closing insert. `kind` "unknown" (name not known) and "invalid" (parameters
 * unusable) print nothing but are counted by the renderer.
 */
export interface InsertOp {
  t: "insert";
  kind:
    | "frame"
    | "partial"
    | "menu"
    | "lang"
    | "image"
    | "styles"
    | "seo"
    | "sidebar"
    | "form"
    | "search"
    | "pager"
    | "toc"
    | "pagination"
    | "unknown"
    | "invalid";
  full: string;
  at: number;
  /** Output markers, precomputed: `<!-- op/<name> <params as written> -->` and `<!-- /op/<name> -->`. */
  open: string;
  close: string;
  /** frame/partial: reference values in the order tried (name, ref, frame, slug, id). */
  refs: string[];
  /** partial: the `with` object (values are literals, read as vars.<key>). */
  vars: Record<string, unknown> | null;
  /** menu: location, depth (0 = every level) and class of the outer list. */
  location: string;
  depth: number;
  /** menu, lang-switcher and image: the `class` given. */
  cls: string | null;
  /** image: the media reference (id or slug, as written), its `sizes`, `width` (CSS pixels) and `loading`. */
  media: string;
  sizes: string | null;
  width: number | null;
  loading: string | null;
  /** styles: the stylesheet names linked, in order. */
  styles: string[];
  /** sidebar and pager: the sidebar's name; form: the form's name (sidebar also uses depth and cls). */
  name: string;
  /** toc: the heading levels listed. */
  levels: number[];
  /** pagination: the nav's label and the texts of its previous and next links. */
  labels: PaginationLabels | null;
}

/** What svc/pagination prints besides the page numbers (pagination-html.ts). */
export interface PaginationLabels {
  label: string;
  previous: string;
  next: string;
}

/** A svc/repeat block. */
export interface RepeatOp {
  t: "repeat";
  /** False when its parameters are unusable: the whole block prints nothing. */
  valid: boolean;
  at: number;
  open: string;
  close: string;
  source: RepeatSource;
  /** Field (a dotted path) → the value it must have, or a list of values it may have (match.ts). */
  match: Readonly<Record<string, unknown>> | null;
  /** `order_by` (list-order.ts); null keeps the source's order. */
  orderBy: OrderBy | null;
  /** Skip the first n items (after match and order). */
  offset: number;
  /** Keep the first n items (after offset); -1 = all. */
  limit: number;
  /** Items per page (`page_size`); 0 = not paged. */
  pageSize: number;
  /**
   * The page's list: the first paged repeat of a frame outside other repeats. Printed in the page's
   * own frame, it shows the page of the list the address names (`<page>/page/<n>/`); elsewhere
   * (embedded, in a layout) and every other paged repeat shows its first page.
   */
  list: boolean;
  body: Op[];
}

/**
 * A svc/if block: `then` printed when the token has a value (non-empty; equal to `equals` when
 * given; inverted by `not`), else `else` (after `<!-- svc/else /-->`). Prints no markers: it is
 * structure, like layouts.
 */
export interface IfOp {
  t: "if";
  valid: boolean;
  at: number;
  token: string;
  equals: string | null;
  not: boolean;
  then: Op[];
  else: Op[];
  /** While compiling: whether `<!-- svc/else /-->` was seen. */
  inElse: boolean;
}

/**
 * A layout's slot (`svc/slot`, `name` "" for the main one): where the frames on the layout put
 * their markup (the main slot) and their blocks (named slots); `defaults` when nothing fills it.
 */
export interface SlotOp {
  t: "slot";
  name: string;
  at: number;
  defaults: Op[];
}

/** A `svc/block {"name"}` pair while it is compiled: its body goes to the program's blocks. */
export interface BlockOp {
  t: "block";
  name: string;
  at: number;
  body: Op[];
}

/** One part of a bind value template: text as written, or a token with its filters. */
export type TemplatePart = { text: string } | { token: string; filters: Filter[] };

export interface Filter {
  name: string;
  arg: string | number | null;
}

/** What a bind target prints: a token, or a template of text and tokens (`"mailto:{item.email}"`). */
export type ValueSpec = string | { parts: TemplatePart[] };

/**
 * Stands where the data-op-bind attribute was (the attribute itself is dropped): writes the
 * bound attributes that did not replace an attribute already on the element.
 */
export interface BindOp {
  t: "bind";
  tag: string;
  at: number;
  attrs: Array<[name: string, value: ValueSpec]>;
}

/** Replaces an existing attribute (from the white space before it) by its bound value. */
export interface AttrOp {
  t: "attr";
  /** Start of the white space before the attribute name, and the name's start: that white space is kept. */
  ws: number;
  nameStart: number;
  name: string;
  token: ValueSpec;
}

/**
 * Element content from a `text` (escaped) or `html` (raw) bind target. When `replace` is
 * true the original content was dropped from the program; when the element had no matching
 * close tag the value is written after the start tag and the content is kept.
 */
export interface ContentOp {
  t: "content";
  /** "html": raw; "text": escaped; "rawtext": a text target inside <script>/<style>, where
   *  entities mean nothing: written as is, with "</" made "<\/" so it cannot close the element. */
  mode: "html" | "text" | "rawtext";
  token: ValueSpec;
  replace: boolean;
  at: number;
}

export type Op = StaticOp | InsertOp | RepeatOp | IfOp | SlotOp | BindOp | AttrOp | ContentOp;

/** An op that holds a body while it is compiled (program-builder.ts levels). */
export type BlockHolder = RepeatOp | IfOp | SlotOp | BlockOp;

export interface Program {
  /** The frame's markup outside its blocks (all of it without a layout). */
  ops: Op[];
  /** `svc/layout {"name"}`: the layout frame it is printed inside (references in the order tried). */
  layout?: { refs: string[]; at: number };
  /** `svc/block` bodies by name (the first of a name), for the slots up the layout chain. */
  blocks?: Array<{ name: string; at: number; ops: Op[] }>;
}
