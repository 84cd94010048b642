// The theme locations a menu can be assigned to (docs/menus.md).
export const MENU_LOCATIONS = ["header", "footer_1", "footer_2", "footer_3"] as const;
export type MenuLocation = (typeof MENU_LOCATIONS)[number];

export function isMenuLocation(value: string): value is MenuLocation {
  return (MENU_LOCATIONS as readonly string[]).includes(value);
}
