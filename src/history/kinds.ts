// Every kind with a history: one adapter each, in the order of REVISION_KINDS.
import { frameHistory } from "./frames.ts";
import { pageHistory } from "./pages.ts";
import { menuHistory } from "./menus.ts";
import { dataHistory } from "./data.ts";
import { styleHistory } from "./styles.ts";
import { sidebarHistory } from "./sidebars.ts";
import type { HistoryKind } from "./kind.ts";

export const HISTORY_KINDS: readonly HistoryKind[] = [
  frameHistory,
  pageHistory,
  menuHistory,
  dataHistory,
  styleHistory,
  sidebarHistory,
];
