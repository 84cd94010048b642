// Every write route appends its events (docs/events.md, "What a write appends"): the write
// operations of the served OpenAPI document are enumerated; each is called (its call is
// test/support/write-scenarios.ts's or network-write-scenarios.ts's) and the events it appended,
// read from GET /api/events as a super-administrator, must be exactly one per object it wrote,
// then one site.changed when it wrote a site; a write that writes nothing is named with why and
// must append nothing. A legacy address (`/api/frames…`) appends what its site address does; a
// dry run appends nothing; no event carries a token's secret. A write route added later without a
// row here fails the first test.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Answer, TestApp } from "../support/app.ts";
import { ok, startTestApp } from "../seo/helpers.ts";
import {
  fixture,
  SCENARIO_ENV,
  send,
  SITE_WRITES,
  writeOperations,
  type Fixture,
  type WriteCall,
} from "../support/write-scenarios.ts";
import { gmt } from "../../src/clock.ts";
import { NETWORK_WRITES, passwordUser, signedIn } from "../support/network-write-scenarios.ts";

/** What a write appends: its objects' events as [type, object id], in order (site.changed aside). */
interface Appends {
  events: (f: Fixture, prepared: any, answer: any) => Array<[string, string]>;
  /** The site the events belong to (default: the fixture's); null: none (a user's, a token's). */
  site?: (f: Fixture, answer: any) => number | null;
}

const one =
  (type: string, id: (f: Fixture, prepared: any, answer: any) => string | number): Appends["events"] =>
  (f, prepared, answer) => [[type, String(id(f, prepared, answer))]];
const siteless = () => null;

const APPENDS: Record<string, Appends> = {
  createFrame: { events: one("frame.created", (_, __, a) => a.frame.id) },
  putFrame: { events: one("frame.updated", (f) => f.frameId) },
  patchFrame: { events: one("frame.renamed", (f) => f.frameId) },
  deleteFrame: {
    events: (f) => [
      ["frame.deleted", f.frameId],
      ["page.updated", String(f.home)],
      ["page.updated", String(f.about)],
    ],
  },
  assignFrame: { events: one("page.updated", (f) => f.home) },
  flushCache: { events: one("cache.flushed", () => "all") },
  patchSettings: { events: one("settings.updated", () => "tagline") },
  // The site's first language becomes its default.
  createLanguage: {
    events: () => [
      ["language.created", "fr"],
      ["settings.updated", "default_lang"],
    ],
  },
  deleteLanguage: { events: one("language.deleted", () => "de") },
  publishPage: { events: one("page.updated", (f) => f.home) },
  // The source page joins the new translation group.
  createPageTranslation: {
    events: (f, _, a) => [
      ["page.updated", String(f.home)],
      ["page.created", String(a.page.id)],
    ],
  },
  // Its old address redirects to its new one: a redirect made by the pages feature is an event too.
  patchPage: {
    events: (f) => [
      ["page.updated", String(f.about)],
      ["redirect.created", "/about/"],
    ],
  },
  deletePage: { events: one("page.deleted", (f) => f.about) },
  putDataset: { events: one("data.updated", () => "team") },
  deleteDataset: { events: one("data.deleted", () => "team") },
  createMenu: { events: one("menu.created", (_, __, a) => a.menu.id) },
  patchMenu: { events: one("menu.renamed", (f) => f.menu) },
  deleteMenu: { events: one("menu.deleted", (f) => f.menu) },
  putMenuLocation: { events: one("menu.updated", (f) => f.menu) },
  deleteMenuLocation: { events: one("menu.updated", (f) => f.menu) },
  putMenuItems: { events: one("menu.updated", (f) => f.menu) },
  createMenuItem: { events: one("menu.updated", (f) => f.menu) },
  patchMenuItem: { events: one("menu.updated", (f) => f.menu) },
  deleteMenuItem: { events: one("menu.updated", (f) => f.menu) },
  reorderMenuItems: { events: one("menu.updated", (f) => f.menu) },
  createMedia: { events: one("media.created", (_, __, a) => a.media.id) },
  putMedia: { events: one("media.updated", (_, id) => id) },
  patchMedia: { events: one("media.updated", (_, id) => id) },
  deleteMedia: { events: one("media.deleted", (_, id) => id) },
  putStyle: { events: one("style.updated", () => "default:main") },
  deleteStyle: { events: one("style.deleted", () => "default:main") },
  patchSeo: { events: one("seo.updated", () => "site") },
  patchPageSeo: { events: one("page.updated", (f) => f.home) },
  createRedirect: { events: one("redirect.created", () => "/old/") },
  deleteRedirect: { events: one("redirect.deleted", () => "/old/") },
  putSidebar: { events: one("sidebar.updated", () => "docs") },
  deleteSidebar: { events: one("sidebar.deleted", () => "docs") },
  putStrings: { events: one("strings.updated", () => "") },
  patchStrings: { events: one("strings.updated", () => "") },
  createPreviewLink: { events: one("preview_link.created", (_, __, a) => a.id) },
  deletePreviewLink: { events: one("preview_link.deleted", (_, id) => id) },
  restoreFrameRevision: { events: one("frame.updated", (f) => f.frameId) },
  restorePageRevision: { events: one("page.updated", (f) => f.home) },
  restoreMenuRevision: { events: one("menu.updated", (f) => f.menu) },
  restoreDataSetRevision: { events: one("data.updated", () => "team") },
  restoreStylesheetRevision: { events: one("style.updated", () => "default:main") },
  restoreSidebarRevision: { events: one("sidebar.updated", () => "docs") },
  restoreTrashItem: { events: one("data.restored", () => "team") },
  purgeTrashItem: { events: one("data.deleted", () => "team") },
  putSiteUser: { events: one("member.added", (_, id) => id) },
  deleteSiteUser: { events: one("member.removed", (_, id) => id) },
  createForm: { events: one("form.created", () => "contact") },
  patchForm: { events: one("form.updated", () => "contact") },
  deleteForm: { events: one("form.deleted", () => "contact") },
  createWebhook: { events: one("webhook.created", (_, __, a) => a.webhook.id) },
  updateWebhook: { events: one("webhook.updated", (_, id) => id) },
  deleteWebhook: { events: one("webhook.deleted", (_, id) => id) },
  rotateWebhookSecret: { events: one("webhook.rotated", (_, id) => id) },
  deleteFormSubmission: { events: one("form_submission.deleted", (_, made) => made.id) },
  createSite: {
    events: (_, __, a) => [
      ["site.created", String(a.site.id)],
      ["domain.created", a.site.domain],
    ],
    site: (_, a) => a.site.id,
  },
  patchSite: { events: one("site.updated", (f) => f.s.id) },
  importSite: { events: one("settings.updated", () => "tagline") },
  importNewSite: {
    events: (_, made, a) => [
      ["site.created", String(a.site_id)],
      ["domain.created", made.domain],
    ],
    site: (_, a) => a.site_id,
  },
  deleteSite: { events: one("site.deleted", (f) => f.s.id) },
  patchSiteQuotas: { events: one("quota.updated", (f) => f.s.id) },
  createSiteDomain: { events: one("domain.created", (f) => `alias-${f.s.host}`) },
  deleteSiteDomain: { events: one("domain.deleted", (_, domain) => domain) },
  updateSiteDomain: { events: one("domain.updated", (_, domain) => domain) },
  login: { events: one("token.created", (_, __, a) => a.token_id), site: siteless },
  updateUser: { events: one("user.updated", (_, user) => user.id), site: siteless },
  createUser: { events: one("user.created", (_, __, a) => a.user.id), site: siteless },
  createUserToken: { events: one("token.created", (_, __, a) => a.token_id), site: siteless },
  deleteUserToken: { events: one("token.deleted", (_, made) => made.token), site: siteless },
  reissueUserToken: { events: one("token.updated", (_, made) => made.token), site: siteless },
};

/** Writes that append nothing, and why. */
const APPENDS_NOTHING: Record<string, string> = {
  rebakeFrames: "rebuilds the engine's output (bakes, static copies) of what is stored; writes no object",
  resolveDataSource: "a read sent as POST (a query too large for a URL)",
  previewPage: "its writes are rolled back once the render is read (docs/architecture.md, preview/)",
  checkFrames: "its frames are written and rolled back once their warnings are read (docs/frames.md, Check)",
  testWebhook:
    "sends a test delivery: a delivery is bookkeeping of a hook, not an object of the site (docs/webhooks.md)",
  redeliverWebhookDelivery: "sends a delivery again: as testWebhook",
  mcp: "an MCP message; the REST calls its tools make append their own events (docs/mcp.md)",
  logout:
    "ends a session: a session is bookkeeping, not a change (docs/events.md, 'What a write appends'), as its sign-in",
};

const WRITES: Record<string, WriteCall> = { ...SITE_WRITES, ...NETWORK_WRITES };
/** The site address of a legacy operation (`createFrameLegacy` → `createFrame`). */
const siteTwin = (operationId: string) => operationId.replace(/Legacy$/, "");

describe("every write route appends its events", () => {
  let t: TestApp;
  /** The last event id read so far: each scenario reads what came after it. */
  let cursor = 0;
  // The answers are not checked against the document here (test/support/openapi-check.ts): this
  // test reaches nearly every operation, and compiling a validator for each takes longer than the
  // test itself; each feature's own tests check its answers.
  before(async () => (t = await startTestApp({ checkAnswers: false, env: SCENARIO_ENV })));
  after(() => t.close());

  /** Every event after the cursor (the network's, as the admin token's super-administrator), moving it on. */
  async function appended(): Promise<any[]> {
    await t.settled();
    const all: any[] = [];
    for (;;) {
      const page = ok(await t.call("GET", `/api/events?since=${cursor}&limit=1000`), "events").events as any[];
      all.push(...page);
      cursor = page.at(-1)?.id ?? cursor;
      if (page.length < 1000) return all;
    }
  }

  /** Calls the write on a fresh fixture; answers the answer, what was prepared and the events the call appended. */
  async function run(operationId: string, options: { legacy?: boolean; dryRun?: boolean } = {}) {
    const write = WRITES[siteTwin(operationId)]!;
    const f = await fixture(t, write.languages);
    const prepared = await write.prepare?.(f);
    await appended();
    const [method, path, body, sent] = write.call(f, prepared);
    const dry = options.dryRun ? `${path.includes("?") ? "&" : "?"}dry_run=1` : "";
    const answer = await send(f, [method, `${path}${dry}`, body, sent], options.legacy);
    // A dry run makes nothing: 200 where the write would answer 201.
    ok(answer, `${operationId}: ${method} ${path}${dry}`, options.dryRun ? 200 : (write.status ?? 200));
    return { f, prepared, answer, events: await appended() };
  }

  it("each write operation of the OpenAPI document has a row here (its events, or why it appends none), legacy addresses their site address's, and no row names an operation that is gone", async () => {
    const writes = [...(await writeOperations(t)).keys()];
    const named = new Set([...Object.keys(APPENDS), ...Object.keys(APPENDS_NOTHING)]);
    assert.deepEqual(writes.filter((id) => !named.has(siteTwin(id))).sort(), [], "write routes with no row here");
    assert.deepEqual([...named].filter((id) => !writes.includes(id)).sort(), [], "rows naming no write route");
    assert.deepEqual(Object.keys(WRITES).sort(), [...named].sort(), "rows with no call, calls with no row");
  });

  /** Checks the events one call appended against its row. */
  function expect(operationId: string, run: { f: Fixture; prepared: any; answer: Answer; events: any[] }) {
    const row = APPENDS[siteTwin(operationId)];
    const actual = run.events.map((event) => [event.type, event.object.id]);
    if (!row) return assert.deepEqual(actual, [], `${operationId} appends nothing`);
    const site = row.site ? row.site(run.f, run.answer.body) : run.f.s.id;
    const expected = [
      ...row.events(run.f, run.prepared, run.answer.body),
      ...(site === null ? [] : [["site.changed", String(site)]]),
    ];
    assert.deepEqual(actual, expected, `${operationId}: events`);
    assert.deepEqual(
      run.events.map((event) => event.site_id),
      expected.map(() => site),
      `${operationId}: site_id`,
    );
    // A token made or given a new secret: the answer shows the secret once, and no event carries it.
    const secret = run.answer.body?.token;
    if (run.events.some((event) => ["token.created", "token.updated"].includes(event.type)))
      assert.equal(typeof secret, "string", `${operationId}: the answer's secret`);
    if (typeof secret === "string")
      assert.ok(!JSON.stringify(run.events).includes(secret), `${operationId}: an event carries the token's secret`);
  }

  for (const operationId of Object.keys(WRITES)) {
    const reason = APPENDS_NOTHING[operationId];
    it(`${operationId}: ${reason ? `appends nothing (${reason})` : "one event per object it wrote, then site.changed for a site's"}`, async () => {
      expect(operationId, await run(operationId));
    });
  }

  it("the legacy addresses (/api/frames…, the site by X-Svc-Blog-Id) append what their site addresses do", async () => {
    const legacy = [...(await writeOperations(t)).keys()].filter((id) => id.endsWith("Legacy"));
    assert.ok(legacy.length > 0);
    for (const operationId of legacy) expect(operationId, await run(operationId, { legacy: true }));
  });

  it("a dry run (?dry_run=1) of every write that takes one appends nothing", async () => {
    const dryRunnable = [...(await writeOperations(t))].filter(([, op]) => op.query.includes("dry_run"));
    assert.ok(dryRunnable.length > 0);
    for (const [operationId] of dryRunnable) {
      const { events } = await run(operationId, { dryRun: true, legacy: operationId.endsWith("Legacy") });
      assert.deepEqual(events, [], `${operationId} ?dry_run=1`);
    }
  });

  it("a sign-in for a session and a session's recorded use append nothing: a session is bookkeeping, not a change", async () => {
    const f = await fixture(t);
    const { login } = await passwordUser(f);
    await appended();
    const session = await signedIn(f, login);
    // A minute on, the session's next call records its use (http/session-gate.ts).
    const stale = gmt(Date.now() - 10 * 60_000);
    await t.store.db.updateTable("sessions").set({ seen_at_gmt: stale }).execute();
    const headers = { host: t.config.adminHost, cookie: session.cookie };
    ok(await send(f, ["GET", "/api/session", undefined, { token: null, headers }]), "a read in the session");
    const seen = await t.store.db.selectFrom("sessions").select("seen_at_gmt").execute();
    assert.ok(
      seen.some((row) => row.seen_at_gmt > stale),
      "the use was recorded",
    );
    assert.deepEqual(await appended(), []);
  });
});
