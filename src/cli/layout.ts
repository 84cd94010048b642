// The folder layout of `svc pull` / `svc push` (docs/cli.md, "The folder"): which file holds which
// object of a site. An object's key is its file's path relative to the folder, with forward
// slashes (`frames/home.html`, `pages/en/docs/intro.json`); the first segment names its kind.
// Pure: no I/O.

/**
 * The kinds of objects a folder holds, in the order a push writes them (what others refer to
 * first): languages before everything written in a language, strings before the frames printing
 * them.
 */
export const KINDS = [
  "languages",
  "strings",
  "media",
  "media-texts",
  "styles",
  "frames",
  "pages",
  "menus",
  "sidebars",
  "data",
  "seo",
  "redirects",
  "settings",
] as const;
export type Kind = (typeof KINDS)[number];

/** The files at the folder's top that are objects, by name. */
export const ROOT_FILES: Readonly<Record<string, Kind>> = {
  "languages.json": "languages",
  "seo.json": "seo",
  "redirects.csv": "redirects",
  "settings.json": "settings",
};

/** Kinds a site always has one of: never deleted, a file removed is kept there. */
export const NEVER_DELETED: ReadonlySet<Kind> = new Set(["settings", "seo"]);

/** Kinds whose files sit in another kind's folder: a media file's texts beside it (`media/<file>.json`). */
export const ALSO_IN: Readonly<Record<string, Kind>> = { media: "media-texts" };

/** The folders at the folder's top that hold objects, and the kind of what they hold. */
export const FOLDERS: Readonly<Record<string, Kind>> = {
  strings: "strings",
  media: "media",
  styles: "styles",
  themes: "styles",
  frames: "frames",
  pages: "pages",
  menus: "menus",
  sidebars: "sidebars",
  data: "data",
};

/** Kinds whose files are bytes as stored (hashed as they are); the others are JSON (hashed canonically). */
export const BYTE_KINDS: ReadonlySet<Kind> = new Set(["media", "styles", "frames"]);

/** Kinds a moved file renames on the server (same content, new name): frames and menus by slug, pages by path, media by slug. */
export const RENAMABLE: ReadonlySet<Kind> = new Set(["frames", "pages", "menus", "media"]);

/** The folder of pages without a language (a site without languages): language codes never look like this. */
export const NO_LANG_DIR = "_";

const SLUG_WORDS = "[a-z0-9]+(?:-[a-z0-9]+)*";
const FRAME_SLUG = new RegExp(`^${SLUG_WORDS}(?:__${SLUG_WORDS})?(?:--${SLUG_WORDS})?$`);
const NAME = /^[a-z0-9][a-z0-9_-]*$/;
const THEME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
const LANG = /^[a-z]{2}(?:-[a-z]{2})?$/;
const PAGE_SLUG = new RegExp(`^${SLUG_WORDS}$`);
const MEDIA_FILE = new RegExp(`^(${SLUG_WORDS})(\\.[a-z0-9]+)?$`);

export function isKind(value: string): value is Kind {
  return (KINDS as readonly string[]).includes(value);
}

/** What a key names. */
export type ObjectRef =
  | { kind: "frames"; slug: string }
  | { kind: "styles"; name: string; theme: string | null }
  | { kind: "menus"; slug: string }
  | { kind: "data"; name: string; lang: string | null }
  | { kind: "sidebars"; name: string; lang: string | null }
  | { kind: "pages"; lang: string | null; path: string; markdown?: boolean }
  | { kind: "settings" }
  | { kind: "languages" }
  | { kind: "seo" }
  | { kind: "redirects" }
  | { kind: "strings"; lang: string | null }
  | { kind: "media"; slug: string; ext: string }
  | { kind: "media-texts"; slug: string; ext: string };

export const SETTINGS_KEY = "settings.json";
export const LANGUAGES_KEY = "languages.json";

/** The key (file path) of an object. */
export function keyOf(ref: ObjectRef): string {
  switch (ref.kind) {
    case "frames":
      return `frames/${ref.slug}.html`;
    case "styles":
      return ref.theme === null ? `styles/${ref.name}.css` : `themes/${ref.theme}/${ref.name}.css`;
    case "menus":
      return `menus/${ref.slug}.json`;
    case "data":
    case "sidebars":
      return `${ref.kind}/${ref.name}${ref.lang ? `.${ref.lang}` : ""}.json`;
    case "pages":
      return `pages/${ref.lang ?? NO_LANG_DIR}${ref.path}${ref.markdown ? ".md" : ".json"}`;
    case "settings":
      return SETTINGS_KEY;
    case "languages":
    case "seo":
    case "redirects":
      return Object.keys(ROOT_FILES).find((file) => ROOT_FILES[file] === ref.kind)!;
    case "strings":
      return `strings/${ref.lang ?? NO_LANG_DIR}.json`;
    case "media":
      return `media/${ref.slug}${ref.ext}`;
    case "media-texts":
      return `media/${ref.slug}${ref.ext}.json`;
  }
}

/** The kind of a key (what it names, else its folder's), or null for a file the layout has no place for. */
export function kindOfKey(key: string): Kind | null {
  const ref = refOfKey(key);
  if (!("error" in ref)) return ref.kind;
  const slash = key.indexOf("/");
  return slash === -1 ? null : (FOLDERS[key.slice(0, slash)] ?? null);
}

/**
 * What a file path names, or a reason it names nothing (a file in the wrong place or with a name
 * the service would not take). Paths are relative to the folder, with forward slashes.
 */
export function refOfKey(key: string): ObjectRef | { error: string } {
  const root = ROOT_FILES[key];
  if (root === "settings" || root === "languages" || root === "seo" || root === "redirects") return { kind: root };
  const parts = key.split("/");
  const [top, ...rest] = parts;
  const file = rest.join("/");
  switch (top) {
    case "frames": {
      const slug = stem(file, ".html");
      if (rest.length !== 1 || slug === null) return { error: "a frame is frames/<slug>.html" };
      if (!FRAME_SLUG.test(slug) || slug.length > 200)
        return { error: `"${slug}" is not a frame slug (block__element--modifier: lower-case words joined by dashes)` };
      return { kind: "frames", slug };
    }
    case "styles": {
      const name = stem(file, ".css");
      if (rest.length !== 1 || name === null) return { error: "a stylesheet is styles/<name>.css" };
      if (!NAME.test(name) || name.length > 100)
        return { error: `"${name}" is not a stylesheet name (lower-case letters, digits, - and _)` };
      return { kind: "styles", name, theme: null };
    }
    case "themes": {
      const name = rest.length === 2 ? stem(rest[1], ".css") : null;
      if (name === null) return { error: "another theme's stylesheet is themes/<theme>/<name>.css" };
      if (!THEME.test(rest[0])) return { error: `"${rest[0]}" is not a theme name (letters, digits, ., - and _)` };
      if (!NAME.test(name) || name.length > 100)
        return { error: `"${name}" is not a stylesheet name (lower-case letters, digits, - and _)` };
      return { kind: "styles", name, theme: rest[0] };
    }
    case "menus": {
      const slug = stem(file, ".json");
      if (rest.length !== 1 || slug === null) return { error: "a menu is menus/<slug>.json" };
      if (!PAGE_SLUG.test(slug)) return { error: `"${slug}" is not a menu slug (lower-case words joined by dashes)` };
      return { kind: "menus", slug };
    }
    case "data":
    case "sidebars": {
      const what = top === "data" ? "a data set" : "a sidebar";
      const base = stem(file, ".json");
      if (rest.length !== 1 || base === null)
        return { error: `${what} is ${top}/<name>.json or ${top}/<name>.<lang>.json` };
      const dot = base.indexOf(".");
      const name = dot === -1 ? base : base.slice(0, dot);
      const lang = dot === -1 ? null : base.slice(dot + 1);
      if (!NAME.test(name) || name.length > 100)
        return { error: `"${name}" is not ${what}'s name (lower-case letters, digits, - and _)` };
      if (lang !== null && !LANG.test(lang)) return { error: `"${lang}" is not a language code (en, pt-br)` };
      return { kind: top, name, lang };
    }
    case "pages": {
      if (rest.length < 2)
        return { error: "a page is pages/<lang>/<path>.json (pages/_/<path>.json without a language)" };
      const [langDir, ...segments] = rest;
      const markdown = segments[segments.length - 1].endsWith(".md");
      const last = stem(segments[segments.length - 1], markdown ? ".md" : ".json");
      if (last === null) return { error: "a page is pages/<lang>/<path>.json, or .md for a page in Markdown" };
      if (langDir !== NO_LANG_DIR && !LANG.test(langDir))
        return { error: `"${langDir}" is not a language code (or _ for pages without one)` };
      const slugs = [...segments.slice(0, -1), last];
      const bad = slugs.find((slug) => !PAGE_SLUG.test(slug));
      if (bad !== undefined) return { error: `"${bad}" is not a page slug (lower-case words joined by dashes)` };
      return {
        kind: "pages",
        lang: langDir === NO_LANG_DIR ? null : langDir,
        path: `/${slugs.join("/")}`,
        ...(markdown ? { markdown } : {}),
      };
    }
    case "strings": {
      const lang = stem(file, ".json");
      if (rest.length !== 1 || lang === null) return { error: "a language's strings are strings/<lang>.json" };
      if (lang !== NO_LANG_DIR && !LANG.test(lang))
        return { error: `"${lang}" is not a language code (or _ on a site without languages)` };
      return { kind: "strings", lang: lang === NO_LANG_DIR ? null : lang };
    }
    case "media": {
      const texts = rest.length === 1 ? /^(.+\.[a-z0-9]+)\.json$/.exec(file) : null;
      const of = texts ? MEDIA_FILE.exec(texts[1]) : null;
      if (of?.[2] && !/^\d+$/.test(of[1])) return { kind: "media-texts", slug: of[1], ext: of[2] };
      const match = rest.length === 1 ? MEDIA_FILE.exec(file) : null;
      if (!match || /^\d+$/.test(match[1]))
        return {
          error:
            "a media file is media/<slug>.<extension>, its slug lower-case words joined by dashes, not digits alone (e.g. media/team-photo.jpg)",
        };
      return { kind: "media", slug: match[1], ext: match[2] ?? "" };
    }
    default:
      return {
        error: `not a file svc syncs (${[...Object.keys(FOLDERS).map((f) => `${f}/`), ...Object.keys(ROOT_FILES)].join(", ")})`,
      };
  }
}

function stem(file: string, extension: string): string | null {
  return file.endsWith(extension) && file.length > extension.length ? file.slice(0, -extension.length) : null;
}

/** The extension a media file is kept under: its server file name's, lower-cased ("" when it has none). */
export function mediaExtension(filename: string): string {
  const match = /\.([A-Za-z0-9]+)$/.exec(filename);
  return match ? `.${match[1].toLowerCase()}` : "";
}

/** The kind's position in the write order (KINDS). */
export function kindRank(kind: Kind): number {
  return KINDS.indexOf(kind);
}

/** Depth of a page key (parents before children when creating). */
export function depthOf(key: string): number {
  return key.split("/").length;
}
