// The markup module: pure functions over frame markup (no I/O).
export { compileFrame, positionOf } from "./compile.ts";
export { renderFrame, MAX_FRAME_DEPTH } from "./render.ts";
export { OverBudget, RENDER_BUDGET, withinBytes, type BudgetName, type RenderBudget } from "./budget.ts";
export { rewriteFrameRefs, type RewriteResult } from "./rewrite-refs.ts";
export { escapeAttr, escapeText } from "./escape.ts";
export { KNOWN_INSERTS, REF_KEYS } from "./insert-grammar.ts";
export { classifyToken, mediaToken, normalizeRepeatSource, type RepeatSource } from "./tokens.ts";
export type { Program } from "./program.ts";
export { listed, listPageUrl, pageCount, pageSlice, type ListSpec } from "./list-window.ts";
export { orderByText, parseOrderBy, ORDER_KEYS, type OrderBy } from "./list-order.ts";
export { matchItems, type Match } from "./match.ts";
export type {
  ListEntry,
  ListPage,
  CompiledFrame,
  FrameRefInsert,
  LanguageLink,
  MarkupAnalysis,
  MarkupWarning,
  MediaView,
  MenuNode,
  RenderContext,
  RenderOptions,
  RenderResult,
  SeoHead,
  SidebarNode,
  FormView,
  FormViewField,
  PagerLinks,
  Heading,
} from "./types.ts";
export { withHeadingIds, headingSlug } from "./headings.ts";
export {
  formHtml,
  reprintForm,
  FORM_TOKEN_PLACEHOLDER,
  HONEYPOT_FIELD,
  TOKEN_FIELD,
  type FormState,
} from "./form-html.ts";
export { SUBMIT_KEY } from "./form-op.ts";
export {
  searchBlockHtml,
  searchStrings,
  SEARCH_BLOCK_END,
  SEARCH_BLOCK_START,
  SEARCH_STRINGS,
  type SearchBlockView,
  type SearchResultView,
} from "./search-html.ts";
export {
  applyMarks,
  isAncestorItem,
  isCurrentItem,
  type CurrentPage,
  type MarkedPage,
  type MarkEntry,
} from "./current.ts";
export {
  displayWidthFrom,
  imageHtml,
  imageSizes,
  imageSizesMissing,
  namesItsSize,
  type ImageParams,
} from "./image-html.ts";
