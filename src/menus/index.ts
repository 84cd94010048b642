// What other capabilities use from menus.
export { menusReferencingPage } from "./queries.ts";
export { locationTree } from "./read-service.ts";
export { menuRoutes } from "./routes.ts";
