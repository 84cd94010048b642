// What the publish engine reads of menus (publish/contract.ts PublishSources.menus).
import type { PublishSources } from "../publish/contract.ts";
import { menusShowingPage } from "./queries.ts";

export const menuPublishSource: PublishSources["menus"] = {
  showingPage: menusShowingPage,
};
