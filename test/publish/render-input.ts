// A render's input with nothing in it but what a test gives: the frame rendered (`slug`) and the
// items of its data sources, as the render tests and the render worker's tests build it.
import type { RenderInput } from "../../src/publish/render-context.ts";

export function renderInput(
  slug: string,
  items: RenderInput["items"] = [],
  more: Partial<RenderInput> = {},
): RenderInput {
  return {
    slug,
    items,
    site: { name: "S", tagline: "", url: "/", lang: null },
    settings: {},
    page: undefined,
    links: [],
    media: [],
    styles: [],
    sidebars: [],
    headings: [],
    current: null,
    strings: [],
    ...more,
  };
}
