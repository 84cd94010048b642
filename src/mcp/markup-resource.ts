// The resource svc://docs/markup: the frame markup grammar (docs/markup.md), so an agent reads how
// to write a frame before it writes one. The build copies the file beside the service
// (scripts/build.mjs: dist/docs/markup.md); run from src/ it is the checkout's.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const MARKUP_URI = "svc://docs/markup";

export const MARKUP_RESOURCE = {
  uri: MARKUP_URI,
  name: "markup",
  title: "Frame markup grammar",
  description: "How to write a frame: layouts, blocks, binds, repeats, menus, data and the warnings (docs/markup.md).",
  mimeType: "text/markdown",
};

function markupPath(): string {
  if (typeof __dirname === "string") return join(__dirname, "docs", "markup.md");
  return fileURLToPath(new URL("../../docs/markup.md", import.meta.url));
}

let read: Promise<string> | null = null;

/** The grammar's text, read once. */
export function markupText(): Promise<string> {
  read ??= readFile(markupPath(), "utf8").catch((error) => {
    read = null;
    throw error;
  });
  return read;
}
