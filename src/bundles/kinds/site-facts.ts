// The whole-site objects: languages.json, settings.json and seo.json (docs/bundles.md). Each is
// one object a site always has; written with the settings, languages and SEO services. Settings
// that name pages (home_page, not_found_page) are written after every page is (`finish`).
import { patchSiteSeo, siteSeoRead } from "../../seo/site-seo.ts";
import { LANGUAGE_KEYS } from "../../seo/site-seo-languages.ts";
import { addLanguage, removeLanguage } from "../../settings/languages-service.ts";
import { patchSettings, readSettings } from "../../settings/settings-service.ts";
import { languageState } from "../../site/languages.ts";
import { memoryEntry } from "../archive-write.ts";
import { jsonEntry } from "../format.ts";
import { refOrId, type PageNames } from "../page-names.ts";
import { isRecord, jsonOf, type BundleKind } from "./kind.ts";

function single(kind: string, path: string): Pick<BundleKind, "kind" | "nameOf"> {
  return { kind, nameOf: (given) => (given === path ? kind : null) };
}

function objectOf(bytes: Buffer, what: string): Record<string, unknown> {
  const value = jsonOf(bytes);
  if (!isRecord(value)) throw new Error(`${what} is a JSON object`);
  return value;
}

export const languages: BundleKind = {
  ...single("languages", "languages.json"),
  async read({ ctx, site }) {
    const state = await languageState(ctx.db, site.id);
    const file = {
      default: state.active ? state.defaultLang : null,
      languages: state.rows.map((row) => ({ code: row.code, name: row.name })),
    };
    return [{ name: "languages", entry: memoryEntry("languages.json", jsonEntry(file)) }];
  },
  async put({ ctx, site }, _name, bytes, _entries, { replace }) {
    const file = objectOf(bytes, "languages.json");
    const wanted = Array.isArray(file.languages) ? (file.languages as Array<{ code: string; name: string }>) : [];
    for (const language of wanted)
      await addLanguage(ctx, site, {
        code: language.code,
        name: language.name,
        default: language.code === file.default,
      });
    if (!replace) return;
    const keep = new Set(wanted.map((language) => language.code));
    for (const row of (await languageState(ctx.db, site.id)).rows)
      if (!keep.has(row.code)) await removeLanguage(ctx, site, row.code);
  },
};

/** A page setting as the bundle names it: a page's reference, or what was written when it names no page by id. */
function pageSetting(value: number | string | null, names: PageNames): number | string | null {
  if (value === null) return null;
  const id = typeof value === "number" ? value : /^\d+$/.test(value) ? Number(value) : null;
  return id === null ? value : refOrId(names, id);
}

const PAGE_SETTINGS = ["home_page", "not_found_page"] as const;

export const settings: BundleKind = {
  ...single("settings", "settings.json"),
  async read({ ctx, site, pages }) {
    const now = await readSettings(ctx, site);
    const file = {
      name: now.name,
      tagline: now.tagline,
      theme: now.theme,
      home_page: pageSetting(now.home_page, pages),
      not_found_page: pageSetting(now.not_found_page, pages),
      iframe_hosts: now.iframe_hosts,
      menu_locations: now.menu_locations,
    };
    return [{ name: "settings", entry: memoryEntry("settings.json", jsonEntry(file)) }];
  },
  async put({ ctx, site }, _name, bytes) {
    const file = objectOf(bytes, "settings.json");
    const before = await readSettings(ctx, site);
    const locations = Array.isArray(file.menu_locations) ? (file.menu_locations as string[]) : [];
    // Locations the site has that the bundle lacks stay until the menus are written (finish).
    const body = {
      name: file.name,
      tagline: file.tagline,
      theme: file.theme,
      iframe_hosts: file.iframe_hosts,
      menu_locations: [...locations, ...before.menu_locations.filter((l) => !locations.includes(l))],
    };
    await patchSettings(ctx, site, body);
  },
  async finish({ ctx, site }, written) {
    for (const { bytes } of written) {
      const file = objectOf(bytes, "settings.json");
      const body: Record<string, unknown> = { menu_locations: file.menu_locations };
      for (const key of PAGE_SETTINGS) body[key] = file[key] ?? null;
      await patchSettings(ctx, site, body);
    }
  },
};

export const seo: BundleKind = {
  ...single("seo", "seo.json"),
  async read({ ctx, site }) {
    const now = await siteSeoRead(ctx.db, site);
    return [{ name: "seo", entry: memoryEntry("seo.json", jsonEntry(now)) }];
  },
  async put({ ctx, site }, _name, bytes) {
    const file = objectOf(bytes, "seo.json");
    const state = await languageState(ctx.db, site.id);
    const { languages: given, ...body } = file;
    const languages = isRecord(given) ? given : {};
    // A language's own value is sent as a map {code: value}; the default language's is the top-level one.
    for (const key of LANGUAGE_KEYS) {
      if (!state.active) continue;
      const map: Record<string, unknown> = {};
      for (const code of state.codes) {
        const own = languages[code];
        if (code === state.defaultLang) map[code] = body[key];
        else if (isRecord(own) && Object.hasOwn(own, key)) map[code] = own[key];
      }
      body[key] = map;
    }
    await patchSiteSeo(ctx, site, body);
  },
};
