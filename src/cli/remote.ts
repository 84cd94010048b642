// The server's side: every object of the kinds asked for, keyed as the folder keys it (layout.ts),
// with the hash the plan compares (docs/cli.md, "Change detection"):
// - frames, stylesheets, media: the sha256 the API reports for the stored bytes (the lists carry
//   it, so a status or a push reads no markup, CSS or file);
// - pages, menus, data sets, settings: the hash of the file the record becomes (files.ts), read
//   from the lists (pages), one call per menu, one per data set (two when the set's own items
//   cannot be told from a fallback: its latest revision), one for the settings.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { data, eachLimited, listAll, type Api, type Rec } from "./api.ts";
import { jsonHash, type Json } from "./canonical.ts";
import { CliError } from "./errors.ts";
import { dataFileValue, pageFile, menuFile, settingsFile, type SiteFacts } from "./files.ts";
import { KIND_MODULES } from "./kinds/index.ts";
import type { KindModule } from "./kinds/module.ts";
import { keyOf, mediaExtension, type Kind } from "./layout.ts";

export interface RemoteObject {
  key: string;
  kind: Kind;
  hash: string;
  id?: string | number;
  /** The file's value (JSON kinds). */
  value?: Json;
  /** The file's bytes, when already read (frames listed with their markup). */
  bytes?: Uint8Array;
  /** The record as the API answered it. */
  record: Rec;
}

export interface Snapshot {
  facts: SiteFacts;
  objects: Map<string, RemoteObject>;
}

const encoder = new TextEncoder();

/** What the CLI needs of the site: its public origin, its default language. */
export async function siteFacts(api: Api): Promise<SiteFacts> {
  const [answer, languages] = await Promise.all([
    data(api, api.site.GET("/data/{name}", { params: { path: { name: "site" } } })),
    data(api, api.site.GET("/languages", {})),
  ]);
  const site = (Array.isArray(answer.items) ? answer.items[0] : {}) as Rec;
  let origin = "";
  try {
    origin = new URL(String(site.url)).origin;
  } catch {
    origin = "";
  }
  const codes =
    languages.active === true && Array.isArray(languages.languages)
      ? (languages.languages as Rec[]).map((language) => String(language.code))
      : [];
  return {
    origin,
    defaultLang: typeof site.default_lang === "string" ? site.default_lang : null,
    languages: codes,
    pages: new Map(),
  };
}

async function readFrames(api: Api, withMarkup: boolean): Promise<RemoteObject[]> {
  const frames = await listAll(
    api,
    (page) =>
      api.site.GET("/frames", {
        params: { query: { per_page: 500, page, ...(withMarkup ? { include_html: "1" } : {}) } },
      }),
    "frames",
  );
  return frames.map((frame) => ({
    key: keyOf({ kind: "frames", slug: String(frame.slug) }),
    kind: "frames",
    hash: String(frame.sha256),
    id: String(frame.id),
    record: frame,
    ...(typeof frame.html === "string" ? { bytes: encoder.encode(frame.html) } : {}),
  }));
}

async function readPages(api: Api): Promise<Rec[]> {
  return listAll(api, (page) => api.site.GET("/pages", { params: { query: { per_page: 500, page } } }), "pages");
}

function pageObjects(pages: Rec[], facts: SiteFacts): RemoteObject[] {
  return pages
    .filter((page) => page.status !== "trash")
    .map((page) => {
      const value = pageFile(page, facts);
      const lang = typeof page.lang === "string" && page.lang ? page.lang : null;
      return {
        key: keyOf({ kind: "pages", lang, path: String(page.path), markdown: page.content_format === "markdown" }),
        kind: "pages",
        hash: jsonHash(value),
        id: Number(page.id),
        value,
        record: page,
      };
    });
}

async function readMenus(api: Api, facts: SiteFacts): Promise<RemoteObject[]> {
  const list = await data(api, api.site.GET("/menus", {}));
  const menus = Array.isArray(list.menus) ? (list.menus as Rec[]) : [];
  return eachLimited(menus, 4, async (summary) => {
    const answer = await data(api, api.site.GET("/menus/{ref}", { params: { path: { ref: String(summary.id) } } }));
    const menu = answer.menu as Rec;
    const value = menuFile(menu, Array.isArray(answer.items) ? (answer.items as Rec[]) : [], facts);
    return {
      key: keyOf({ kind: "menus", slug: String(menu.slug) }),
      kind: "menus" as const,
      hash: jsonHash(value),
      id: Number(menu.id),
      value,
      record: answer,
    };
  });
}

/** The items of one data set or variant: GET /data/{name}, or its latest revision when GET answered a fallback. */
export async function readDataItems(api: Api, name: string, lang: string | null): Promise<Json[]> {
  const answer = await data(
    api,
    api.site.GET("/data/{name}", { params: { path: { name }, query: lang ? { lang } : {} } }),
  );
  const meta = (answer.meta ?? {}) as Rec;
  const own = lang ? meta.variant === "lang" && meta.lang === lang : meta.variant === "shared";
  if (own && Array.isArray(answer.items)) return answer.items as Json[];
  const query = lang ? { lang, per_page: 1 } : { per_page: 1 };
  const list = await data(api, api.site.GET("/data/{name}/revisions", { params: { path: { name }, query } as never }));
  const latest = Array.isArray(list.revisions) ? (list.revisions[0] as Rec | undefined) : undefined;
  if (!latest) {
    // A set written before revisions existed, hidden behind a variant: its items cannot be read (rather than guessed).
    throw new CliError(
      1,
      `dataset_unreadable: data/${name}${lang ? `.${lang}` : ""}.json: GET /data/${name} answers ${lang ? "the shared set" : "a language's variant"} and the set has no revision to read it from; write it once (PUT /data/${name}) and run svc again`,
    );
  }
  const revision = await data(
    api,
    api.site.GET("/data/{name}/revisions/{n}", {
      params: { path: { name, n: Number(latest.revision) }, query: lang ? { lang } : {} } as never,
    }),
  );
  const fields = ((revision.revision as Rec)?.fields ?? {}) as Rec;
  return Array.isArray(fields.items) ? (fields.items as Json[]) : [];
}

async function readData(api: Api): Promise<RemoteObject[]> {
  const sets = await listAll(
    api,
    (page) => api.site.GET("/data", { params: { query: { per_page: 500, page } } }),
    "datasets",
  );
  return eachLimited(sets, 4, async (set) => {
    const name = String(set.name);
    const lang = typeof set.lang === "string" && set.lang ? set.lang : null;
    const value = dataFileValue(await readDataItems(api, name, lang));
    return {
      key: keyOf({ kind: "data", name, lang }),
      kind: "data" as const,
      hash: jsonHash(value),
      value,
      record: set,
    };
  });
}

/** The site's theme's stylesheets (`styles/`), and every other theme's (`themes/<theme>/`). */
async function readStyles(api: Api): Promise<RemoteObject[]> {
  const answer = await data(api, api.site.GET("/styles", {}));
  const current = String(answer.theme);
  const others = (Array.isArray(answer.themes) ? (answer.themes as string[]) : []).filter((t) => t !== current);
  const lists = await eachLimited(others, 4, (theme) =>
    data(api, api.site.GET("/styles", { params: { query: { theme } } })),
  );
  return [answer, ...lists].flatMap((list) =>
    (Array.isArray(list.styles) ? (list.styles as Rec[]) : []).map((style) => ({
      key: keyOf({ kind: "styles", name: String(style.name), theme: list === answer ? null : String(style.theme) }),
      kind: "styles" as const,
      hash: String(style.sha256),
      record: style,
    })),
  );
}

async function readSettings(api: Api): Promise<RemoteObject[]> {
  const answer = await data(api, api.site.GET("/settings", {}));
  const value = settingsFile((answer.settings ?? {}) as Rec);
  return [{ key: "settings.json", kind: "settings", hash: jsonHash(value), value, record: answer.settings as Rec }];
}

async function readMedia(api: Api): Promise<RemoteObject[]> {
  const media = await listAll(
    api,
    (page) => api.site.GET("/media", { params: { query: { per_page: 500, page } } }),
    "media",
  );
  return media.map((file) => ({
    key: keyOf({ kind: "media", slug: String(file.slug), ext: mediaExtension(String(file.filename)) }),
    kind: "media",
    hash: String(file.sha256),
    id: Number(file.id),
    record: file,
  }));
}

/** Reads the server's objects of `kinds` (frames with their markup when `withMarkup`). */
export async function readServer(
  api: Api,
  kinds: ReadonlySet<Kind>,
  options: { withMarkup?: boolean } = {},
): Promise<Snapshot> {
  const facts = await siteFacts(api);
  const objects = new Map<string, RemoteObject>();
  const add = (list: RemoteObject[]) => {
    for (const object of list) objects.set(object.key, object);
  };
  if (kinds.has("pages") || kinds.has("menus") || kinds.has("sidebars")) {
    const pages = await readPages(api);
    for (const page of pages) {
      if (page.status === "trash") continue;
      facts.pages.set(Number(page.id), {
        lang: typeof page.lang === "string" && page.lang ? page.lang : null,
        path: String(page.path),
        title: String(page.title),
      });
    }
    if (kinds.has("pages")) add(pageObjects(pages, facts));
  }
  const readers: Array<Promise<RemoteObject[]>> = [];
  if (kinds.has("frames")) readers.push(readFrames(api, options.withMarkup ?? false));
  if (kinds.has("menus")) readers.push(readMenus(api, facts));
  if (kinds.has("data")) readers.push(readData(api));
  if (kinds.has("styles")) readers.push(readStyles(api));
  if (kinds.has("settings")) readers.push(readSettings(api));
  if (kinds.has("media")) readers.push(readMedia(api));
  for (const [kind, module] of Object.entries(KIND_MODULES) as Array<[Kind, KindModule]>)
    if (kinds.has(kind)) readers.push(module.read(api, facts));
  for (const list of await Promise.all(readers)) add(list);
  return { facts, objects };
}

/** A public file of the site (a media file), asked of the service's address with the site's host name. */
export function download(serviceUrl: string, path: string, siteOrigin: string): Promise<Uint8Array> {
  const url = new URL(path, `${serviceUrl.replace(/\/+$/, "")}/`);
  const host = siteOrigin ? new URL(siteOrigin).host : url.host;
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { headers: { host, "user-agent": "svc-cli" }, servername: url.hostname } as never,
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks))
            : reject(new Error(`GET ${path} answered ${res.statusCode}`)),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** The bytes of a frame, stylesheet or media file the snapshot listed without them. */
export async function loadBytes(api: Api, facts: SiteFacts, object: RemoteObject): Promise<Uint8Array> {
  if (object.bytes) return object.bytes;
  if (object.kind === "frames") {
    const answer = await data(api, api.site.GET("/frames/{ref}", { params: { path: { ref: String(object.id) } } }));
    return encoder.encode(String((answer.frame as Rec).html ?? ""));
  }
  if (object.kind === "styles") {
    const answer = await data(
      api,
      api.site.GET("/styles/{name}", {
        params: { path: { name: String(object.record.name) }, query: { theme: String(object.record.theme) } },
      }),
    );
    return encoder.encode(String((answer.style as Rec).css ?? ""));
  }
  if (object.kind === "media") return download(api.target.url, String(object.record.url), facts.origin);
  const text = JSON.stringify(object.value ?? null);
  return encoder.encode(text);
}
