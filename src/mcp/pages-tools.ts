// The pages group (docs/mcp.md): list, read, publish and preview pages (docs/content-model.md,
// docs/preview.md).
import { leastOf, queryOf, REF, segment, without, type Tool } from "./tool.ts";

export const PAGE_TOOLS: Tool[] = [
  {
    name: "list_pages",
    group: "pages",
    writes: false,
    least: leastOf("GET", "/pages"),
    description: "The site's pages (id, title, slug, path, status, frame), filtered by lang, status or parent.",
    input: { query: ["get", "/pages"] },
    run: ({ rest }, input) => rest({ method: "GET", path: "/pages", query: queryOf(input) }),
  },
  {
    name: "get_page",
    group: "pages",
    writes: false,
    least: leastOf("GET", "/pages/:ref"),
    description: "One page with its content, fields, frame and translations.",
    input: { own: { ref: { ...REF, description: "id, slug or path" } }, required: ["ref"] },
    run: ({ rest }, input) => rest({ method: "GET", path: `/pages/${segment(input.ref)}` }),
  },
  {
    name: "publish_page",
    group: "pages",
    writes: true,
    least: leastOf("POST", "/pages"),
    description:
      "Create a page, or update the one named by id (the POST /pages body); status publish makes it public at its path.",
    input: { body: ["post", "/pages"] },
    run: ({ rest }, input) => rest({ method: "POST", path: "/pages", body: without(input) }),
  },
  {
    name: "preview_page",
    group: "pages",
    writes: false,
    least: leastOf("POST", "/preview"),
    description:
      "Render a page as it would look with unsaved frames, styles, data or page fields; writes nothing. Answers the HTML.",
    input: { body: ["post", "/preview"] },
    run: ({ rest }, input) => rest({ method: "POST", path: "/preview", body: without(input) }),
  },
];
