// The menus group (docs/mcp.md): read a menu, write one whole (docs/menus.md).
import { succeeded } from "./answers.ts";
import { leastOf, REF, segment, without, type Tool } from "./tool.ts";

/**
 * put_menu: the POST /menus body. A new slug creates the menu; the slug of a menu that exists
 * (409 slug_taken names it) replaces that menu's name, items and location, each through its own
 * REST call, and answers the menu as it then is.
 */
const putMenu: Tool["run"] = async ({ rest }, input) => {
  const body = without(input);
  const created = await rest({ method: "POST", path: "/menus", body });
  if (created.status !== 409 || created.body?.error !== "slug_taken") return created;
  const menu = `/menus/${segment(created.body.id)}`;
  const selectors = { lang: body.lang, theme: body.theme };
  const steps: Array<[method: "PATCH" | "PUT", path: string, body: Record<string, unknown>]> = [
    ["PATCH", menu, { name: body.name, ...selectors }],
  ];
  if (body.items !== undefined)
    steps.push(["PUT", `${menu}/items`, { items: body.items, allow_invalid: body.allow_invalid, ...selectors }]);
  if (typeof body.location === "string")
    steps.push(["PUT", `${menu}/location`, { location: body.location, ...selectors }]);
  for (const [method, path, stepBody] of steps) {
    const answer = await rest({ method, path, body: stepBody });
    if (!succeeded(answer)) return answer;
  }
  return rest({ method: "GET", path: menu, query: { lang: body.lang as string, theme: body.theme as string } });
};

export const MENU_TOOLS: Tool[] = [
  {
    name: "get_menu",
    group: "menus",
    writes: false,
    least: leastOf("GET", "/menus/:ref"),
    description: "One menu with its items (flat, parents first) and locations.",
    input: { own: { ref: { ...REF, description: "id, slug or a location (header, footer_1, …)" } }, required: ["ref"] },
    run: ({ rest }, input) => rest({ method: "GET", path: `/menus/${segment(input.ref)}` }),
  },
  {
    name: "put_menu",
    group: "menus",
    writes: true,
    least: leastOf("POST", "/menus"),
    description:
      "Write a menu whole: creates it, or replaces the menu with that slug (name, items, location). Items are page ids or {url, title}.",
    input: { body: ["post", "/menus"] },
    run: putMenu,
  },
];
