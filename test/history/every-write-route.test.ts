// Every write route leaves its revisions (docs/revisions.md): the write operations of the served
// OpenAPI document are enumerated; each that writes a frame, page, menu, data set, stylesheet or
// sidebar has a scenario here that calls it and checks that each object it changed gained exactly
// one revision (a delete: the object is in the trash); each other write is named with why it keeps
// no history. A write route added later without a row here fails the first test.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { TestApp } from "../support/app.ts";
import { ok, seoSite as newSite, startTestApp, type SeoSite } from "../seo/helpers.ts";

const LAYOUT = `<!DOCTYPE html><html><head><title>t</title></head><body><nav><!-- svc/menu {"location": "header"} /--></nav><!-- svc/sidebar {"name": "docs"} /--><main>layout</main></body></html>`;

/** A site with one of everything: frames, pages, a menu, a data set, a stylesheet, a sidebar. */
interface Fixture {
  s: SeoSite;
  home: number;
  about: number;
  menu: number;
  /** The menu's two item ids, in order. */
  items: number[];
  frameId: string;
}

async function fixture(t: TestApp, languages = false): Promise<Fixture> {
  const s = await newSite(t, { languages });
  await s.frame("layout", LAYOUT);
  await s.frame("plain", "<!DOCTYPE html><html><body><p>plain</p></body></html>");
  const home = await s.page("Home", "layout");
  const about = await s.page("About", "layout");
  const menu = ok(
    await s.api("POST", "/menus", { name: "Main", location: "header", items: [home, about] }),
    "menu",
    201,
  ).menu;
  ok(await s.api("PUT", "/data/team", { items: [{ name: "Ada" }] }), "data", 201);
  ok(await s.api("PUT", "/styles/main", { css: "body { color: red }" }), "style", 201);
  ok(await s.api("PUT", "/sidebars/docs", { items: [{ page: home }] }), "sidebar", 201);
  const frameId = ok(await s.api("GET", "/frames/layout"), "frame").frame.id as string;
  const items = ok(await s.api("GET", `/menus/${menu.id}`), "menu items").items as Array<{ id: number }>;
  return { s, home, about, menu: menu.id as number, items: items.map((i) => i.id), frameId };
}

/** How many revisions the object at this address has (0 when it has no address). */
async function total(s: SeoSite, address: string): Promise<number> {
  const [path, query] = address.split("?");
  const answer = await s.api("GET", `${path}/revisions${query ? `?${query}` : ""}`);
  if (answer.status === 404) return 0;
  return ok(answer, `${address}/revisions`).total as number;
}

async function trashed(s: SeoSite): Promise<string[]> {
  return ok(await s.api("GET", "/trash"), "trash").items.map(
    (i: { kind: string; slug: string }) => `${i.kind}:${i.slug}`,
  );
}

interface Scenario {
  /** The objects (history addresses) expected to gain exactly one revision. */
  revised?: (f: Fixture) => string[];
  /** Entries expected in the trash after the call (`kind:slug`). */
  trashed?: string[];
  languages?: boolean;
  /** Runs before the counts are taken (e.g. a first change to restore from). */
  prepare?: (f: Fixture) => Promise<void>;
  call: (f: Fixture) => [string, string, unknown?];
  status?: number;
}

const REVISED: Record<string, Scenario> = {
  createFrame: {
    revised: () => ["/frames/fresh"],
    call: () => ["POST", "/frames", { slug: "fresh", html: "<p>fresh</p>" }],
    status: 201,
  },
  putFrame: {
    revised: (f) => [`/frames/${f.frameId}`],
    call: () => ["PUT", "/frames/layout", { html: LAYOUT.replace("layout<", "changed<"), bake: false }],
  },
  patchFrame: { revised: (f) => [`/frames/${f.frameId}`], call: () => ["PATCH", "/frames/layout", { slug: "shell" }] },
  deleteFrame: {
    revised: (f) => [`/pages/${f.home}`, `/pages/${f.about}`],
    trashed: ["frames:layout"],
    call: () => ["DELETE", "/frames/layout"],
  },
  assignFrame: {
    revised: (f) => [`/pages/${f.home}`],
    call: (f) => ["POST", "/frames/plain/assign", { page: f.home }],
  },
  publishPage: {
    revised: (f) => [`/pages/${f.home}`],
    call: (f) => ["POST", "/pages", { id: f.home, title: "Welcome" }],
  },
  patchPage: { revised: (f) => [`/pages/${f.about}`], call: (f) => ["PATCH", `/pages/${f.about}`, { frame: null }] },
  deletePage: { revised: (f) => [`/pages/${f.about}`], call: (f) => ["DELETE", `/pages/${f.about}`] },
  createPageTranslation: {
    languages: true,
    revised: () => ["/pages/home?lang=de"],
    call: (f) => ["POST", "/pages/language", { page: f.home, lang: "de", title: "Startseite", slug: "home" }],
    status: 201,
  },
  patchPageSeo: {
    revised: (f) => [`/pages/${f.home}`],
    call: (f) => ["PATCH", `/seo/pages/${f.home}`, { description: "A home." }],
  },
  putDataset: {
    revised: () => ["/data/team"],
    call: () => ["PUT", "/data/team", { items: [{ name: "Ada" }, { name: "Grace" }] }],
  },
  deleteDataset: { trashed: ["data:team"], call: () => ["DELETE", "/data/team"] },
  createMenu: {
    revised: () => ["/menus/footer"],
    call: (f) => ["POST", "/menus", { name: "Footer", items: [f.about] }],
    status: 201,
  },
  patchMenu: {
    revised: (f) => [`/menus/${f.menu}`],
    call: (f) => ["PATCH", `/menus/${f.menu}`, { name: "Main menu" }],
  },
  deleteMenu: { trashed: ["menus:main"], call: (f) => ["DELETE", `/menus/${f.menu}`] },
  putMenuLocation: {
    revised: (f) => [`/menus/${f.menu}`],
    call: (f) => ["PUT", `/menus/${f.menu}/location`, { location: "footer_1" }],
  },
  deleteMenuLocation: {
    revised: (f) => [`/menus/${f.menu}`],
    call: (f) => ["DELETE", `/menus/${f.menu}/location?location=header`],
  },
  putMenuItems: {
    revised: (f) => [`/menus/${f.menu}`],
    call: (f) => ["PUT", `/menus/${f.menu}/items`, { items: [f.about] }],
  },
  createMenuItem: {
    revised: (f) => [`/menus/${f.menu}`],
    call: (f) => ["POST", `/menus/${f.menu}/items`, { url: "/feed", title: "Feed" }],
    status: 201,
  },
  patchMenuItem: {
    revised: (f) => [`/menus/${f.menu}`],
    call: (f) => ["PATCH", `/menus/${f.menu}/items/${f.items[0]}`, { title: "Start" }],
  },
  deleteMenuItem: {
    revised: (f) => [`/menus/${f.menu}`],
    call: (f) => ["DELETE", `/menus/${f.menu}/items/${f.items[0]}`],
  },
  reorderMenuItems: {
    revised: (f) => [`/menus/${f.menu}`],
    call: (f) => ["POST", `/menus/${f.menu}/reorder`, { order: [f.items[1], f.items[0]] }],
  },
  putStyle: { revised: () => ["/styles/main"], call: () => ["PUT", "/styles/main", { css: "body { color: blue }" }] },
  deleteStyle: { trashed: ["styles:main"], call: () => ["DELETE", "/styles/main"] },
  putSidebar: {
    revised: () => ["/sidebars/docs"],
    call: (f) => ["PUT", "/sidebars/docs", { items: [{ page: f.home }, { page: f.about }] }],
  },
  deleteSidebar: { trashed: ["sidebars:docs"], call: () => ["DELETE", "/sidebars/docs"] },
  restoreFrameRevision: {
    revised: (f) => [`/frames/${f.frameId}`],
    prepare: async (f) =>
      void ok(await f.s.api("PUT", "/frames/layout", { html: LAYOUT.replace("layout<", "v2<") }), "v2"),
    call: () => ["POST", "/frames/layout/revisions/1/restore"],
  },
  restorePageRevision: {
    revised: (f) => [`/pages/${f.home}`],
    prepare: async (f) => void ok(await f.s.api("PATCH", `/pages/${f.home}`, { title: "Changed" }), "v2"),
    call: (f) => ["POST", `/pages/${f.home}/revisions/1/restore`],
  },
  restoreMenuRevision: {
    revised: (f) => [`/menus/${f.menu}`],
    prepare: async (f) => void ok(await f.s.api("PUT", `/menus/${f.menu}/items`, { items: [f.about] }), "v2"),
    call: (f) => ["POST", `/menus/${f.menu}/revisions/1/restore`],
  },
  restoreDataSetRevision: {
    revised: () => ["/data/team"],
    prepare: async (f) => void ok(await f.s.api("PUT", "/data/team", { items: [] }), "v2"),
    call: () => ["POST", "/data/team/revisions/1/restore"],
  },
  restoreStylesheetRevision: {
    revised: () => ["/styles/main"],
    prepare: async (f) => void ok(await f.s.api("PUT", "/styles/main", { css: "p { color: green }" }), "v2"),
    call: () => ["POST", "/styles/main/revisions/1/restore"],
  },
  restoreSidebarRevision: {
    revised: () => ["/sidebars/docs"],
    prepare: async (f) => void ok(await f.s.api("PUT", "/sidebars/docs", { items: [{ page: f.about }] }), "v2"),
    call: () => ["POST", "/sidebars/docs/revisions/1/restore"],
  },
  // Back from the trash with its history: no new revision (its state is its last one's), out of the trash.
  restoreTrashItem: {
    trashed: [],
    prepare: async (f) => void ok(await f.s.api("DELETE", "/data/team"), "delete"),
    call: () => ["POST", "/trash/data/team/restore"],
  },
};

/** Writes that change nothing a revision keeps, and why. */
const NOT_REVISED: Record<string, string> = {
  rebakeFrames: "rebuilds output; writes no object",
  flushCache: "empties caches; writes no object",
  patchSettings:
    "settings are not a kind with history (docs/revisions.md, 'What is kept': frames, pages, menus, data sets, stylesheets, sidebars)",
  createLanguage: "languages are settings",
  deleteLanguage: "languages are settings; pages keep their language code",
  resolveDataSource: "a read sent as POST",
  createMedia: "media keep their own versions (sha256, variants); not a kind with history",
  putMedia: "media: as createMedia",
  patchMedia: "media: as createMedia",
  deleteMedia: "media: as createMedia",
  patchSeo: "the site's SEO defaults are settings",
  createRedirect: "redirects are addresses, not content",
  deleteRedirect: "redirects are addresses, not content",
  putStrings: "strings are settings per language",
  previewPage: "writes nothing (rolled back)",
  createPreviewLink: "a link, not content",
  deletePreviewLink: "a link, not content",
  purgeTrashItem: "deletes a trashed object's history for good: there is nothing left to revise",
  putSiteUser: "roles, not content",
  deleteSiteUser: "roles, not content",
};

describe("every write route leaves its revisions", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("each write operation of the OpenAPI document is either tried below or named as keeping no history, and no row names an operation that is gone", async () => {
    const doc = ok(await t.call("GET", "/api/openapi.json"), "document");
    const writes = new Set<string>();
    for (const [path, operations] of Object.entries(
      doc.paths as Record<string, Record<string, { operationId: string }>>,
    )) {
      if (!path.startsWith("/api/site/{site_id}/")) continue;
      for (const [method, operation] of Object.entries(operations))
        if (["post", "put", "patch", "delete"].includes(method)) writes.add(operation.operationId);
    }
    const named = new Set([...Object.keys(REVISED), ...Object.keys(NOT_REVISED)]);
    assert.deepEqual([...writes].filter((id) => !named.has(id)).sort(), [], "write routes with no row here");
    assert.deepEqual([...named].filter((id) => !writes.has(id)).sort(), [], "rows naming no write route");
  });

  for (const [operationId, scenario] of Object.entries(REVISED)) {
    it(`${operationId}: each object it changed gains exactly one revision${scenario.trashed?.length ? "; the deleted one is in the trash" : ""}`, async () => {
      const f = await fixture(t, scenario.languages);
      await scenario.prepare?.(f);
      const addresses = scenario.revised?.(f) ?? [];
      const before = await Promise.all(addresses.map((address) => total(f.s, address)));
      const [method, path, body] = scenario.call(f);
      ok(await f.s.api(method, path, body), `${operationId}: ${method} ${path}`, scenario.status ?? 200);
      const after = await Promise.all(
        addresses.map((address) => total(f.s, address.replace("/frames/layout", "/frames/shell"))),
      );
      for (const [i, address] of addresses.entries())
        assert.equal(after[i], before[i] + 1, `${operationId}: ${address} ${before[i]} → ${after[i]}`);
      if (scenario.trashed) assert.deepEqual(await trashed(f.s), scenario.trashed, `${operationId}: trash`);
    });
  }
});
