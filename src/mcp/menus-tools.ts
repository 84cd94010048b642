// The menus group (docs/mcp.md): read a menu, write one whole (docs/menus.md).
import { succeeded } from "./answers.ts";
import { leastOf, REF, segment, without, type Rest, type RestAnswer, type Tool } from "./tool.ts";

/** The id of the menu put_menu replaces: the one its slug names, else the one of its name; null for none. */
async function menuToReplace(rest: Rest, body: Record<string, unknown>): Promise<number | null | RestAnswer> {
  if (body.slug === undefined) {
    const listed = await rest({ method: "GET", path: "/menus", query: { theme: body.theme as string | undefined } });
    if (!succeeded(listed)) return listed;
    const named = (listed.body.menus as Array<{ id: number; name: string }>).find((menu) => menu.name === body.name);
    return named?.id ?? null;
  }
  const held = await rest({
    method: "GET",
    path: `/menus/${segment(body.slug)}`,
    query: { theme: body.theme as string | undefined },
  });
  return succeeded(held) ? (held.body.menu as { id: number }).id : null;
}

/**
 * put_menu: the POST /menus body. A new menu is created; the menu of that slug (or, without one,
 * of that name) has its name, items and location replaced, each through its own REST call, and
 * the answer is the menu as it then is.
 */
const putMenu: Tool["run"] = async ({ rest }, input) => {
  const body = without(input);
  const existing = await menuToReplace(rest, body);
  if (existing === null) return rest({ method: "POST", path: "/menus", body });
  if (typeof existing !== "number") return existing;
  const menu = `/menus/${existing}`;
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
