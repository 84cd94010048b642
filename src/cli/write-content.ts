// Writes of the JSON kinds: pages, menus, data sets, settings. The server's hash after a write is
// that of the file its answer becomes (files.ts), so what the service filled in (a page's seo
// defaults) is the baseline's server side and not a change next time.
import { data, type Rec } from "./api.ts";
import { jsonHash, type Json } from "./canonical.ts";
import { CliError } from "./errors.ts";
import {
  dataItems,
  menuFile,
  menuInput,
  pageBody,
  pageFile,
  settingsChanges,
  settingsFile,
  type MenuLocation,
} from "./files.ts";
import { linkTranslations } from "./kinds/translations.ts";
import { keyOf, refOfKey, type ObjectRef } from "./layout.ts";
import { gathering, need, urlsOf, warningsOf, type Change, type Outcome, type WriteContext } from "./write-types.ts";

function refOf<K extends ObjectRef["kind"]>(key: string, kind: K): Extract<ObjectRef, { kind: K }> {
  const ref = refOfKey(key);
  if ("error" in ref || ref.kind !== kind)
    throw new CliError(1, `invalid_file: ${key}: ${"error" in ref ? ref.error : `not a ${kind} file`}`);
  return ref as Extract<ObjectRef, { kind: K }>;
}

async function pageOutcome(ctx: WriteContext, answer: Rec, key: string, file?: Json): Promise<Outcome> {
  let page = (answer.page ?? {}) as Rec;
  const lang = typeof page.lang === "string" && page.lang ? page.lang : null;
  // Menus written later in the push name this page by its path (files.ts pageRef).
  ctx.facts.pages.set(Number(page.id), { lang, path: String(page.path), title: String(page.title) });
  const warnings = warningsOf(answer);
  if (file !== undefined) {
    const linked = await linkTranslations(ctx, key, file, page);
    page = linked.page;
    warnings.push(...linked.warnings);
  }
  const placed = keyOf({ kind: "pages", lang, path: String(page.path), markdown: page.content_format === "markdown" });
  if (placed !== key) {
    warnings.push({
      code: "page_placed_elsewhere",
      message: `the service put this page at ${placed} (e.g. a page without a language on a site with languages); move the file there, or svc status shows it twice`,
    });
  }
  return {
    written: { server_sha256: jsonHash(pageFile(page, ctx.facts)), id: Number(page.id) },
    warnings,
    urls: urlsOf(answer, ctx.facts),
  };
}

/** Where a page's path puts it: its slug (the last segment) under its parent's path (0: the top); `svc dev` too. */
export function placement(path: string): { slug: string; parent: string | 0 } {
  const cut = path.lastIndexOf("/");
  return { slug: path.slice(cut + 1), parent: cut > 0 ? path.slice(0, cut) : 0 };
}

export async function writePage(ctx: WriteContext, change: Change): Promise<Outcome> {
  const { item } = change;
  const { api } = ctx;
  const ref = refOf(item.key, "pages");
  if (item.action === "create") {
    const file = need(change.local, "the page's file").value ?? null;
    const answer = await data(
      api,
      api.site.POST("/pages", {
        body: { ...pageBody(item.key, file), ...placement(ref.path), ...(ref.lang ? { lang: ref.lang } : {}) } as never,
      }),
    );
    return pageOutcome(ctx, answer, item.key, file);
  }
  const id = Number(need(change.remote, "the server's page").id);
  if (item.action === "update") {
    const file = need(change.local, "the page's file").value ?? null;
    const answer = await data(api, api.site.POST("/pages", { body: { ...pageBody(item.key, file), id } as never }));
    return pageOutcome(ctx, answer, item.key, file);
  }
  if (item.action === "rename") {
    const from = refOf(need(item.from, "the page's old key"), "pages");
    const body = { ...placement(ref.path), ...(ref.lang !== from.lang ? { lang: ref.lang } : {}) };
    const answer = await data(
      api,
      api.site.PATCH("/pages/{ref}", { params: { path: { ref: String(id) } }, body: body as never }),
    );
    return pageOutcome(ctx, answer, item.key);
  }
  const answer = await data(api, api.site.DELETE("/pages/{ref}", { params: { path: { ref: String(id) } } }));
  return { written: { server_sha256: "" }, warnings: warningsOf(answer), urls: urlsOf(answer, ctx.facts) };
}

const sameLocation = (a: MenuLocation, b: MenuLocation) =>
  a.location === b.location && (a.lang ?? null) === (b.lang ?? null);

/** Puts the menu where the file says and takes it off where it does not. */
async function placeMenu(ctx: WriteContext, ref: string, want: MenuLocation[], have: MenuLocation[]): Promise<Outcome> {
  const { api } = ctx;
  const { outcome, collect } = gathering(ctx.facts);
  for (const spot of have.filter((h) => !want.some((w) => sameLocation(w, h)))) {
    collect(
      await data(
        api,
        api.site.DELETE("/menus/{ref}/location", {
          params: {
            path: { ref },
            query: { location: spot.location, ...(spot.lang ? { lang: spot.lang } : {}) },
          } as never,
        }),
      ),
    );
  }
  for (const spot of want.filter((w) => !have.some((h) => sameLocation(w, h)))) {
    collect(
      await data(
        api,
        api.site.PUT("/menus/{ref}/location", {
          params: { path: { ref } },
          body: { location: spot.location, ...(spot.lang ? { lang: spot.lang } : {}) } as never,
        }),
      ),
    );
  }
  return outcome;
}

/** The menu as the server has it now (for the baseline's server hash). */
async function menuNow(ctx: WriteContext, ref: string): Promise<{ hash: string; id: number }> {
  const answer = await data(ctx.api, ctx.api.site.GET("/menus/{ref}", { params: { path: { ref } } }));
  const menu = answer.menu as Rec;
  return {
    hash: jsonHash(menuFile(menu, Array.isArray(answer.items) ? (answer.items as Rec[]) : [], ctx.facts)),
    id: Number(menu.id),
  };
}

export async function writeMenu(ctx: WriteContext, change: Change): Promise<Outcome> {
  const { item } = change;
  const { api } = ctx;
  const { slug } = refOf(item.key, "menus");
  if (item.action === "delete") {
    const answer = await data(
      api,
      api.site.DELETE("/menus/{ref}", {
        params: { path: { ref: String(need(change.remote, "the server's menu").id) } },
      }),
    );
    return { written: { server_sha256: "" }, warnings: warningsOf(answer), urls: urlsOf(answer, ctx.facts) };
  }
  const { outcome, collect, settle } = gathering(ctx.facts);
  let ref: string;
  if (item.action === "rename") {
    ref = String(need(change.remote, "the server's menu").id);
    const answer = await data(
      api,
      api.site.PATCH("/menus/{ref}", { params: { path: { ref } }, body: { slug } as never }),
    );
    outcome.warnings.push(...warningsOf(answer));
  } else {
    const want = menuInput(item.key, need(change.local, "the menu's file").value ?? null);
    if (item.action === "create") {
      const answer = await data(
        api,
        api.site.POST("/menus", { body: { name: want.name, slug, items: want.items } as never }),
      );
      ref = String((answer.menu as Rec).id);
      collect(answer);
      const placed = await placeMenu(ctx, ref, want.locations, []);
      outcome.warnings.push(...placed.warnings);
      outcome.urls.push(...placed.urls);
    } else {
      const remote = need(change.remote, "the server's menu");
      ref = String(remote.id);
      const have = menuInput(item.key, remote.value ?? null);
      // The tree first: it is what the service is most likely to refuse, and a refusal then leaves the menu as it was.
      if (jsonHash(have.items) !== jsonHash(want.items)) {
        const answer = await data(
          api,
          api.site.PUT("/menus/{ref}/items", { params: { path: { ref } }, body: { items: want.items } as never }),
        );
        collect(answer);
      }
      if (have.name !== want.name)
        outcome.warnings.push(
          ...warningsOf(
            await data(
              api,
              api.site.PATCH("/menus/{ref}", { params: { path: { ref } }, body: { name: want.name } as never }),
            ),
          ),
        );
      const placed = await placeMenu(ctx, ref, want.locations, have.locations);
      outcome.warnings.push(...placed.warnings);
      outcome.urls.push(...placed.urls);
    }
  }
  const now = await menuNow(ctx, ref);
  return settle({ server_sha256: now.hash, id: now.id });
}

export async function writeData(ctx: WriteContext, change: Change): Promise<Outcome> {
  const { item } = change;
  const { api } = ctx;
  const { name, lang } = refOf(item.key, "data");
  if (item.action === "delete") {
    const answer = await data(
      api,
      api.site.DELETE("/data/{name}", { params: { path: { name }, query: lang ? { lang } : {} } as never }),
    );
    return { written: { server_sha256: "" }, warnings: warningsOf(answer), urls: urlsOf(answer, ctx.facts) };
  }
  const items = dataItems(item.key, need(change.local, "the data set's file").value ?? null);
  const answer = await data(
    api,
    api.site.PUT("/data/{name}", { params: { path: { name } }, body: { items, ...(lang ? { lang } : {}) } as never }),
  );
  return {
    written: { server_sha256: jsonHash(items as Json) },
    warnings: warningsOf(answer),
    urls: urlsOf(answer, ctx.facts),
  };
}

export async function writeSettings(ctx: WriteContext, change: Change): Promise<Outcome> {
  const { item } = change;
  const changes = settingsChanges(item.key, need(change.local, "settings.json").value ?? null, change.remote?.value);
  if (Object.keys(changes).length === 0)
    return { written: { server_sha256: change.remote?.hash ?? "" }, warnings: [], urls: [] };
  const answer = await data(ctx.api, ctx.api.site.PATCH("/settings", { body: changes as never }));
  return {
    written: { server_sha256: jsonHash(settingsFile((answer.settings ?? {}) as Rec)) },
    warnings: warningsOf(answer),
    urls: urlsOf(answer, ctx.facts),
  };
}
