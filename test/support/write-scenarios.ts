// One call of each write operation of the served OpenAPI document, on a site with one of
// everything: the tests that hold every write route to a rule (test/history/every-write-route.test.ts
// for revisions, test/events/every-write-route.test.ts for events) share these calls and say what
// each must leave. `writeOperations` lists the document's writes, so a route added without a call
// here fails those tests.
import type { Answer, TestApp } from "./app.ts";
import { makeUser } from "./app.ts";
import { ok, seoSite, type SeoSite } from "../seo/helpers.ts";
import { storeSubmission } from "./form-submissions.ts";

export const LAYOUT = `<!DOCTYPE html><html><head><title>t</title></head><body><nav><!-- svc/menu {"location": "header"} /--></nav><!-- svc/sidebar {"name": "docs"} /--><main>layout</main></body></html>`;

/**
 * What the tests' app needs for these calls: webhooks may point at this machine (no DNS, no
 * network here), where nothing listens on HOOK_URL's port, so their attempts fail at once.
 */
export const SCENARIO_ENV = { SVC_WEBHOOKS_ALLOW_PRIVATE: "1" };
const HOOK_URL = "http://127.0.0.1:9/hook";

/** A site with one of everything: frames, pages, a menu, a data set, a stylesheet, a sidebar. */
export interface Fixture {
  t: TestApp;
  s: SeoSite;
  home: number;
  about: number;
  menu: number;
  /** The menu's two item ids, in order. */
  items: number[];
  frameId: string;
}

export async function fixture(t: TestApp, languages = false): Promise<Fixture> {
  const s = await seoSite(t, { languages });
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
  return { t, s, home, about, menu: menu.id as number, items: items.map((i) => i.id), frameId };
}

/** Bytes sent as the body with their Content-Type (a media upload). */
export interface Upload {
  bytes: Buffer;
  type: string;
}

export interface SendOptions {
  upload?: Upload;
  headers?: Record<string, string>;
  /** Default: the admin token (a super-administrator); null: none. */
  token?: string | null;
}

/** A call: a path under `/api/` is sent as is, any other is the fixture site's (`/api/site/{id}…`). */
export type Request = [method: string, path: string, body?: unknown, options?: SendOptions];

export interface WriteCall {
  languages?: boolean;
  /** Runs before the call (and before what a test counts); what it answers is handed to `call`. */
  prepare?: (f: Fixture) => Promise<any>;
  call: (f: Fixture, prepared: any) => Request;
  /** The call's status (default 200). */
  status?: number;
}

/**
 * Sends a call. `legacy`: a site's call at its legacy address (`/api/frames…`), the site named by
 * X-Svc-Blog-Id.
 */
export function send(f: Fixture, [method, path, body, options = {}]: Request, legacy = false): Promise<Answer> {
  const network = path.startsWith("/api/");
  const url = network ? path : legacy ? `/api${path}` : `/api/site/${f.s.id}${path}`;
  const headers: Record<string, string> = { ...options.headers };
  if (legacy && !network) headers["x-svc-blog-id"] = String(f.s.id);
  if (options.upload) headers["content-type"] = options.upload.type;
  return f.t.call(method, url, {
    headers,
    ...(options.upload ? { payload: options.upload.bytes } : {}),
    ...(body === undefined ? {} : { body }),
    ...(options.token === undefined ? {} : { token: options.token }),
  });
}

/** The write operations (POST, PUT, PATCH, DELETE) of the served document, with their query parameters. */
export async function writeOperations(t: TestApp): Promise<Map<string, { path: string; query: string[] }>> {
  const doc = ok(await t.call("GET", "/api/openapi.json"), "document");
  const writes = new Map<string, { path: string; query: string[] }>();
  type Operation = { operationId: string; parameters?: Array<{ in: string; name: string }> };
  for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, Operation>>))
    for (const [method, operation] of Object.entries(operations))
      if (["post", "put", "patch", "delete"].includes(method))
        writes.set(operation.operationId, {
          path,
          query: (operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name),
        });
  return writes;
}

/** A 1×1 PNG. */
export const PNG: Upload = {
  bytes: Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    "base64",
  ),
  type: "image/png",
};

let made = 0;
/** A name no other call of the process used. */
export const fresh = (prefix: string) => `${prefix}-${++made}-${process.pid}`;

const upload = async (f: Fixture) =>
  ok(await send(f, ["POST", "/media?filename=dot.png", undefined, { upload: PNG }]), "media", 201).media.id as number;
/** A user who is the site's editor; answers the user's id. */
const editor = async (f: Fixture) => {
  const user = await makeUser(f.t, fresh("editor"));
  ok(await f.s.api("PUT", `/users/${user.id}`, { role: "editor" }), "role");
  return user.id;
};

/** Every write of a site (`/api/site/{site_id}/…`), by operationId; the network's are in network-write-scenarios.ts. */
export const SITE_WRITES: Record<string, WriteCall> = {
  createFrame: { call: () => ["POST", "/frames", { slug: "fresh", html: "<p>fresh</p>" }], status: 201 },
  rebakeFrames: { call: () => ["POST", "/frames/rebake", { frames: ["layout"] }] },
  checkFrames: { call: () => ["POST", "/frames/check", { frames: [{ slug: "fresh", html: "<p>fresh</p>" }] }] },
  putFrame: { call: () => ["PUT", "/frames/layout", { html: LAYOUT.replace("layout<", "changed<"), bake: false }] },
  patchFrame: { call: () => ["PATCH", "/frames/layout", { slug: "shell" }] },
  deleteFrame: { call: () => ["DELETE", "/frames/layout"] },
  assignFrame: { call: (f) => ["POST", "/frames/plain/assign", { page: f.home }] },
  flushCache: { call: () => ["POST", "/cache/flush", { all: true }] },
  patchSettings: { call: () => ["PATCH", "/settings", { tagline: "All of it" }] },
  createLanguage: { call: () => ["POST", "/languages", { code: "fr" }], status: 201 },
  deleteLanguage: { languages: true, call: () => ["DELETE", "/languages/de"] },
  publishPage: { call: (f) => ["POST", "/pages", { id: f.home, title: "Welcome" }] },
  createPageTranslation: {
    languages: true,
    call: (f) => ["POST", "/pages/language", { page: f.home, lang: "de", title: "Startseite", slug: "home" }],
    status: 201,
  },
  patchPage: { call: (f) => ["PATCH", `/pages/${f.about}`, { frame: null, slug: "about-us" }] },
  deletePage: { call: (f) => ["DELETE", `/pages/${f.about}`] },
  resolveDataSource: { call: () => ["POST", "/data/resolve", { source: "menu.header", match: { title: "Home" } }] },
  putDataset: { call: () => ["PUT", "/data/team", { items: [{ name: "Ada" }, { name: "Grace" }] }] },
  deleteDataset: { call: () => ["DELETE", "/data/team"] },
  createMenu: { call: (f) => ["POST", "/menus", { name: "Footer", items: [f.about] }], status: 201 },
  patchMenu: { call: (f) => ["PATCH", `/menus/${f.menu}`, { name: "Main menu" }] },
  deleteMenu: { call: (f) => ["DELETE", `/menus/${f.menu}`] },
  putMenuLocation: { call: (f) => ["PUT", `/menus/${f.menu}/location`, { location: "footer_1" }] },
  deleteMenuLocation: { call: (f) => ["DELETE", `/menus/${f.menu}/location?location=header`] },
  putMenuItems: { call: (f) => ["PUT", `/menus/${f.menu}/items`, { items: [f.about] }] },
  createMenuItem: { call: (f) => ["POST", `/menus/${f.menu}/items`, { url: "/feed", title: "Feed" }], status: 201 },
  patchMenuItem: { call: (f) => ["PATCH", `/menus/${f.menu}/items/${f.items[0]}`, { title: "Start" }] },
  deleteMenuItem: { call: (f) => ["DELETE", `/menus/${f.menu}/items/${f.items[0]}`] },
  reorderMenuItems: { call: (f) => ["POST", `/menus/${f.menu}/reorder`, { order: [f.items[1], f.items[0]] }] },
  createMedia: { call: () => ["POST", "/media?filename=dot.png", undefined, { upload: PNG }], status: 201 },
  putMedia: { prepare: upload, call: (_, id) => ["PUT", `/media/${id}?filename=dot.png`, undefined, { upload: PNG }] },
  patchMedia: { prepare: upload, call: (_, id) => ["PATCH", `/media/${id}`, { alt: "A dot" }] },
  deleteMedia: { prepare: upload, call: (_, id) => ["DELETE", `/media/${id}`] },
  putStyle: { call: () => ["PUT", "/styles/main", { css: "body { color: blue }" }] },
  deleteStyle: { call: () => ["DELETE", "/styles/main"] },
  patchSeo: { call: () => ["PATCH", "/seo", { noindex: true }] },
  patchPageSeo: { call: (f) => ["PATCH", `/seo/pages/${f.home}`, { description: "A home." }] },
  createRedirect: { call: () => ["POST", "/seo/redirects", { from: "/old/", to: "/new/" }], status: 201 },
  deleteRedirect: {
    prepare: async (f) =>
      ok(await f.s.api("POST", "/seo/redirects", { from: "/old/", to: "/new/" }), "redirect", 201).redirect.id,
    call: (_, id) => ["DELETE", `/seo/redirects/${id}`],
  },
  putSidebar: { call: (f) => ["PUT", "/sidebars/docs", { items: [{ page: f.home }, { page: f.about }] }] },
  deleteSidebar: { call: () => ["DELETE", "/sidebars/docs"] },
  putStrings: { call: () => ["PUT", "/strings", { strings: { "footer.text": "Made here" } }] },
  patchStrings: { call: () => ["PATCH", "/strings", { strings: { "footer.text": "Made here", "nav.gone": null } }] },
  previewPage: { call: (f) => ["POST", "/preview", { page: f.home, page_fields: { title: "Draft" } }] },
  createPreviewLink: { call: (f) => ["POST", "/preview/links", { page: f.home }], status: 201 },
  deletePreviewLink: {
    prepare: async (f) => ok(await f.s.api("POST", "/preview/links", { page: f.home }), "link", 201).id,
    call: (_, id) => ["DELETE", `/preview/links/${id}`],
  },
  restoreFrameRevision: {
    prepare: async (f) =>
      void ok(await f.s.api("PUT", "/frames/layout", { html: LAYOUT.replace("layout<", "v2<") }), "v2"),
    call: () => ["POST", "/frames/layout/revisions/1/restore"],
  },
  restorePageRevision: {
    prepare: async (f) => void ok(await f.s.api("PATCH", `/pages/${f.home}`, { title: "Changed" }), "v2"),
    call: (f) => ["POST", `/pages/${f.home}/revisions/1/restore`],
  },
  restoreMenuRevision: {
    prepare: async (f) => void ok(await f.s.api("PUT", `/menus/${f.menu}/items`, { items: [f.about] }), "v2"),
    call: (f) => ["POST", `/menus/${f.menu}/revisions/1/restore`],
  },
  restoreDataSetRevision: {
    prepare: async (f) => void ok(await f.s.api("PUT", "/data/team", { items: [] }), "v2"),
    call: () => ["POST", "/data/team/revisions/1/restore"],
  },
  restoreStylesheetRevision: {
    prepare: async (f) => void ok(await f.s.api("PUT", "/styles/main", { css: "p { color: green }" }), "v2"),
    call: () => ["POST", "/styles/main/revisions/1/restore"],
  },
  restoreSidebarRevision: {
    prepare: async (f) => void ok(await f.s.api("PUT", "/sidebars/docs", { items: [{ page: f.about }] }), "v2"),
    call: () => ["POST", "/sidebars/docs/revisions/1/restore"],
  },
  restoreTrashItem: {
    prepare: async (f) => void ok(await f.s.api("DELETE", "/data/team"), "delete"),
    call: () => ["POST", "/trash/data/team/restore"],
  },
  purgeTrashItem: {
    prepare: async (f) => void ok(await f.s.api("DELETE", "/data/team"), "delete"),
    call: () => ["DELETE", "/trash/data/team"],
  },
  putSiteUser: {
    prepare: async (f) => (await makeUser(f.t, fresh("member"))).id,
    call: (_, id) => ["PUT", `/users/${id}`, { role: "editor" }],
  },
  deleteSiteUser: { prepare: editor, call: (_, id) => ["DELETE", `/users/${id}`] },
  createForm: { call: () => ["POST", "/forms", CONTACT_FORM], status: 201 },
  patchForm: { prepare: form, call: () => ["PATCH", "/forms/contact", { notify: ["office@example.com"] }] },
  deleteForm: { prepare: form, call: () => ["DELETE", "/forms/contact"] },
  createWebhook: { call: () => ["POST", "/webhooks", { url: HOOK_URL, events: ["page"] }], status: 201 },
  updateWebhook: { prepare: webhook, call: (_, id) => ["PATCH", `/webhooks/${id}`, { active: false }] },
  deleteWebhook: { prepare: webhook, call: (_, id) => ["DELETE", `/webhooks/${id}`] },
  rotateWebhookSecret: { prepare: webhook, call: (_, id) => ["POST", `/webhooks/${id}/rotate`] },
  testWebhook: { prepare: webhook, call: (_, id) => ["POST", `/webhooks/${id}/test`] },
  redeliverWebhookDelivery: {
    prepare: async (f) => {
      const id = await webhook(f);
      const tested = ok(await f.s.api("POST", `/webhooks/${id}/test`), "test delivery");
      return { id, delivery: tested.delivery.id };
    },
    call: (_, made) => ["POST", `/webhooks/${made.id}/deliveries/${made.delivery}/redeliver`],
  },
  deleteFormSubmission: {
    // A visitor's submission, stored as the public form route stores it.
    prepare: async (f) => {
      const name = fresh("contact");
      ok(await f.s.api("POST", "/forms", { name, fields: [{ name: "message" }] }), "form", 201);
      return { name, id: await storeSubmission(f.t.store.db, f.s.id, name, { fields: { message: "hi" } }) };
    },
    call: (_, made) => ["DELETE", `/forms/${made.name}/submissions/${made.id}`],
  },
};

/** A webhook of the fixture site (its id). */
const CONTACT_FORM = { name: "contact", fields: [{ name: "email", type: "email", required: true }] };

async function form(f: Fixture): Promise<void> {
  ok(await f.s.api("POST", "/forms", CONTACT_FORM), "form", 201);
}

async function webhook(f: Fixture): Promise<number> {
  return ok(await f.s.api("POST", "/webhooks", { url: HOOK_URL }), "webhook", 201).webhook.id;
}
