// What `--since <event id>` fetches again (docs/cli.md, "svc export-static"): the site's events
// after that id (GET /events, 1,000 a call) name, in `published.urls`, every address whose public
// answer their writes changed (docs/events.md). A write of the site's whole (its row, domains,
// languages, settings, SEO defaults, a cache flush, a kind this list does not know) changes what
// every page prints, and an event whose publish run is not over yet tells nothing: then every
// page is fetched again, as without --since.
import { data, type Api, type Rec } from "../api.ts";
import { ownAddress, type Linking } from "./links.ts";

/** Kinds whose writes change only the addresses their events name. */
const NAMED_KINDS = new Set([
  "page",
  "media",
  "redirect",
  "frame",
  "menu",
  "data",
  "style",
  "sidebar",
  "strings",
  "preview_link",
  "webhook",
  "user",
  "token",
  "member",
  "quota",
]);

const PAGE = 1000;
const SETTLE_TRIES = 20;
const SETTLE_WAIT_MS = 250;

export interface SiteEvents {
  events: Rec[];
  /** The last event's id (`since` when there is none). */
  last: number;
}

/** The site's events after `since`, waiting a moment for publish runs still going. */
export async function eventsAfter(api: Api, since: number): Promise<SiteEvents> {
  for (let attempt = 0; ; attempt++) {
    const events: Rec[] = [];
    let cursor = since;
    for (;;) {
      const answer = await data(
        api,
        api.site.GET("/events", { params: { query: { since: String(cursor), limit: String(PAGE) } } }),
      );
      const page = Array.isArray(answer.events) ? (answer.events as Rec[]) : [];
      events.push(...page);
      if (page.length < PAGE) break;
      cursor = Number(page[page.length - 1].id);
    }
    const last = events.length > 0 ? Number(events[events.length - 1].id) : since;
    if (events.every((event) => event.published !== null) || attempt >= SETTLE_TRIES) return { events, last };
    await new Promise((resolve) => setTimeout(resolve, SETTLE_WAIT_MS));
  }
}

export interface Refetch {
  /** Every page again: a write of the site's whole, or a publish run not over. */
  everything: boolean;
  /** The site's own paths the events name. */
  addresses: Set<string>;
}

export function refetchOf(events: readonly Rec[], linking: Linking): Refetch {
  const addresses = new Set<string>();
  let everything = false;
  for (const event of events) {
    const kind = String(event.type ?? "").split(".")[0];
    const published = event.published as { urls?: unknown } | null;
    if (kind === "site" && event.type === "site.changed") {
      // One per write, after its objects' events: it says nothing of its own.
    } else if (!NAMED_KINDS.has(kind)) everything = true;
    if (published === null || published === undefined) everything = true;
    else if (Array.isArray(published.urls))
      for (const url of published.urls) {
        const own = ownAddress(String(url), linking);
        if (own) addresses.add(own.path);
      }
  }
  return { everything, addresses };
}
