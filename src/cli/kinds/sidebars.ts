// `sidebars/<name>.json` (the default language's tree) and `sidebars/<name>.<lang>.json` (a
// language's own tree), docs/sidebars.md: `{"root": "/docs"}` for a tree generated from the pages
// under a page, else `{"items": [...]}` written by hand — `{page, label?}` naming a page as a
// menu file does (its path, after its language's prefix unless it is the default language's),
// `{url, label}`, `{label, items, open?}` for a section. Item ids, answered addresses and
// validity are the service's and are not in the file; a label equal to the page's title is read as
// none (the item follows the title). A push writes a tree with `PUT /sidebars/{name} {items |
// root, lang?}`, `?allow_invalid=true` (items of unpublished pages are left out, as the public site
// leaves them out); a removed default tree pushed with --delete deletes the sidebar.
import { data, eachLimited, type Api, type Rec } from "../api.ts";
import { jsonHash, type Json } from "../canonical.ts";
import { bad, isRecord, refuseUnknown } from "../file-shape.ts";
import { linkRef, pageRef, type SiteFacts } from "../files.ts";
import { keyOf, refOfKey } from "../layout.ts";
import type { RemoteObject } from "../remote.ts";
import { need, urlsOf, warningsOf, type Change, type Outcome, type WriteContext } from "../write-types.ts";
import type { KindModule } from "./module.ts";

function itemsFile(items: readonly Rec[], facts: SiteFacts): Json[] {
  return items.map((item) => {
    const out: Record<string, Json> = {};
    const page = typeof item.page === "number" ? item.page : null;
    const label = typeof item.label === "string" ? item.label : "";
    const below = Array.isArray(item.items) ? (item.items as Rec[]) : [];
    if (page !== null) {
      out.page = pageRef(facts, page) ?? page;
      if (label && label !== facts.pages.get(page)?.title) out.label = label;
    } else if (typeof item.url === "string" && item.url) {
      out.url = linkRef(facts, item.url);
      out.label = label;
    } else {
      out.label = label;
      out.items = itemsFile(below, facts);
      if (item.open === true) out.open = true;
    }
    if (page !== null && below.length) out.items = itemsFile(below, facts);
    return out;
  });
}

/** A sidebar's tree as its file. */
export function sidebarFile(sidebar: Rec, facts: SiteFacts): Json {
  if (typeof sidebar.root === "number") return { root: pageRef(facts, sidebar.root) ?? sidebar.root };
  return { items: itemsFile(Array.isArray(sidebar.items) ? (sidebar.items as Rec[]) : [], facts) };
}

function check(key: string, value: Json): Rec {
  if (!isRecord(value)) throw bad(key, 'a sidebar file is {"root": "<page>"} or {"items": [...]}');
  refuseUnknown(key, value, ["root", "items"], "a sidebar file");
  if ("root" in value === "items" in value) throw bad(key, "a sidebar file holds root or items, one of them");
  if ("items" in value && !Array.isArray(value.items)) throw bad(key, "items: a list of items");
  return value;
}

async function readOne(api: Api, facts: SiteFacts, name: string, lang: string | null): Promise<RemoteObject> {
  const answer = await data(
    api,
    api.site.GET("/sidebars/{name}", { params: { path: { name }, query: lang ? { lang } : {} } } as never),
  );
  const value = sidebarFile((answer.sidebar ?? {}) as Rec, facts);
  return {
    key: keyOf({ kind: "sidebars", name, lang }),
    kind: "sidebars",
    hash: jsonHash(value),
    value,
    record: answer,
  };
}

async function read(api: Api, facts: SiteFacts): Promise<RemoteObject[]> {
  const list = await data(api, api.site.GET("/sidebars", {}));
  const trees: Array<[string, string | null]> = [];
  for (const sidebar of (list.sidebars ?? []) as Rec[]) {
    const name = String(sidebar.name);
    trees.push([name, null]);
    for (const lang of (sidebar.languages ?? []) as string[]) if (lang !== facts.defaultLang) trees.push([name, lang]);
  }
  return eachLimited(trees, 4, ([name, lang]) => readOne(api, facts, name, lang));
}

async function write(ctx: WriteContext, change: Change): Promise<Outcome> {
  const { api } = ctx;
  const ref = refOfKey(change.item.key);
  if ("error" in ref || ref.kind !== "sidebars") throw bad(change.item.key, "not a sidebar file");
  const { name, lang } = ref;
  if (change.item.action === "delete") {
    if (lang !== null)
      return {
        written: { server_sha256: change.remote?.hash ?? "" },
        warnings: [
          { code: "not_deleted", message: "a language's own tree is not deleted: the API deletes whole sidebars" },
        ],
        urls: [],
      };
    const answer = await data(api, api.site.DELETE("/sidebars/{name}", { params: { path: { name } } }));
    return { written: { server_sha256: "" }, warnings: warningsOf(answer), urls: urlsOf(answer, ctx.facts) };
  }
  const tree = check(change.item.key, need(change.local, "the sidebar's file").value ?? null);
  const answer = await data(
    api,
    api.site.PUT("/sidebars/{name}", {
      params: { path: { name }, query: { allow_invalid: "true" } },
      body: { ...tree, ...(lang ? { lang } : {}) },
    } as never),
  );
  return {
    written: { server_sha256: jsonHash(sidebarFile((answer.sidebar ?? {}) as Rec, ctx.facts)) },
    warnings: warningsOf(answer),
    urls: urlsOf(answer, ctx.facts),
  };
}

export const sidebarsKind: KindModule = {
  read,
  write,
  check: (key, value) => void check(key, value),
  order: ["root", "items"],
};
