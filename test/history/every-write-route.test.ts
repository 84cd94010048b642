// Every write route leaves its revisions (docs/revisions.md): the write operations of the served
// OpenAPI document are enumerated; each that writes a frame, page, menu, data set, stylesheet or
// sidebar is called (its call is test/support/write-scenarios.ts's) and each object it changed must
// gain exactly one revision (a delete: the object is in the trash); each other write is named with
// why it keeps no history. A write route added later without a row here fails the first test.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { TestApp } from "../support/app.ts";
import { ok, startTestApp, type SeoSite } from "../seo/helpers.ts";
import { fixture, SCENARIO_ENV, send, SITE_WRITES, writeOperations, type Fixture } from "../support/write-scenarios.ts";

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

/** What a write leaves in history (its call is SITE_WRITES's). */
interface Revised {
  /** The objects (history addresses) expected to gain exactly one revision. */
  revised?: (f: Fixture) => string[];
  /** Entries expected in the trash after the call (`kind:slug`). */
  trashed?: string[];
}

const REVISED: Record<string, Revised> = {
  createFrame: { revised: () => ["/frames/fresh"] },
  putFrame: { revised: (f) => [`/frames/${f.frameId}`] },
  patchFrame: { revised: (f) => [`/frames/${f.frameId}`] },
  deleteFrame: { revised: (f) => [`/pages/${f.home}`, `/pages/${f.about}`], trashed: ["frames:layout"] },
  assignFrame: { revised: (f) => [`/pages/${f.home}`] },
  publishPage: { revised: (f) => [`/pages/${f.home}`] },
  patchPage: { revised: (f) => [`/pages/${f.about}`] },
  deletePage: { revised: (f) => [`/pages/${f.about}`] },
  createPageTranslation: { revised: () => ["/pages/home?lang=de"] },
  patchPageSeo: { revised: (f) => [`/pages/${f.home}`] },
  putDataset: { revised: () => ["/data/team"] },
  deleteDataset: { trashed: ["data:team"] },
  createMenu: { revised: () => ["/menus/footer"] },
  patchMenu: { revised: (f) => [`/menus/${f.menu}`] },
  deleteMenu: { trashed: ["menus:main"] },
  putMenuLocation: { revised: (f) => [`/menus/${f.menu}`] },
  deleteMenuLocation: { revised: (f) => [`/menus/${f.menu}`] },
  putMenuItems: { revised: (f) => [`/menus/${f.menu}`] },
  createMenuItem: { revised: (f) => [`/menus/${f.menu}`] },
  patchMenuItem: { revised: (f) => [`/menus/${f.menu}`] },
  deleteMenuItem: { revised: (f) => [`/menus/${f.menu}`] },
  reorderMenuItems: { revised: (f) => [`/menus/${f.menu}`] },
  putStyle: { revised: () => ["/styles/main"] },
  deleteStyle: { trashed: ["styles:main"] },
  putSidebar: { revised: () => ["/sidebars/docs"] },
  deleteSidebar: { trashed: ["sidebars:docs"] },
  restoreFrameRevision: { revised: (f) => [`/frames/${f.frameId}`] },
  restorePageRevision: { revised: (f) => [`/pages/${f.home}`] },
  restoreMenuRevision: { revised: (f) => [`/menus/${f.menu}`] },
  restoreDataSetRevision: { revised: () => ["/data/team"] },
  restoreStylesheetRevision: { revised: () => ["/styles/main"] },
  restoreSidebarRevision: { revised: () => ["/sidebars/docs"] },
  // Back from the trash with its history: no new revision (its state is its last one's), out of the trash.
  restoreTrashItem: { trashed: [] },
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
  patchStrings: "strings are settings per language",
  previewPage: "writes nothing (rolled back)",
  checkFrames: "writes nothing (rolled back)",
  createPreviewLink: "a link, not content",
  deletePreviewLink: "a link, not content",
  purgeTrashItem: "deletes a trashed object's history for good: there is nothing left to revise",
  putSiteUser: "roles, not content",
  deleteSiteUser: "roles, not content",
  createForm: "a form's declaration is read by pages but kept like a setting: its versions are its events",
  patchForm: "forms: as createForm",
  deleteForm: "forms: as createForm (its submissions go with it)",
  createWebhook: "a site's plumbing, not content",
  updateWebhook: "a site's plumbing, not content",
  deleteWebhook: "a site's plumbing, not content",
  rotateWebhookSecret: "a site's plumbing, not content",
  testWebhook: "sends a delivery; writes no object",
  redeliverWebhookDelivery: "sends a delivery; writes no object",
  deleteFormSubmission: "a visitor's submission, not content (docs/forms.md, 'Submissions')",
};

describe("every write route leaves its revisions", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ env: SCENARIO_ENV })));
  after(() => t.close());

  it("each write operation of the OpenAPI document is either tried below or named as keeping no history, and no row names an operation that is gone", async () => {
    const writes = new Set(
      [...(await writeOperations(t))].filter(([, op]) => op.path.startsWith("/api/site/{site_id}/")).map(([id]) => id),
    );
    const named = new Set([...Object.keys(REVISED), ...Object.keys(NOT_REVISED)]);
    assert.deepEqual([...writes].filter((id) => !named.has(id)).sort(), [], "write routes with no row here");
    assert.deepEqual([...named].filter((id) => !writes.has(id)).sort(), [], "rows naming no write route");
  });

  for (const [operationId, scenario] of Object.entries(REVISED)) {
    it(`${operationId}: each object it changed gains exactly one revision${scenario.trashed?.length ? "; the deleted one is in the trash" : ""}`, async () => {
      const write = SITE_WRITES[operationId]!;
      const f = await fixture(t, write.languages);
      const prepared = await write.prepare?.(f);
      const addresses = scenario.revised?.(f) ?? [];
      const before = await Promise.all(addresses.map((address) => total(f.s, address)));
      const request = write.call(f, prepared);
      ok(await send(f, request), `${operationId}: ${request[0]} ${request[1]}`, write.status ?? 200);
      const after = await Promise.all(
        addresses.map((address) => total(f.s, address.replace("/frames/layout", "/frames/shell"))),
      );
      for (const [i, address] of addresses.entries())
        assert.equal(after[i], before[i] + 1, `${operationId}: ${address} ${before[i]} → ${after[i]}`);
      if (scenario.trashed) assert.deepEqual(await trashed(f.s), scenario.trashed, `${operationId}: trash`);
    });
  }
});
