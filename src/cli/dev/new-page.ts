// A page file the service does not have yet, as `svc dev` previews it (docs/cli.md, "svc dev"):
// `new_page` of POST /preview is the body `svc push` would create it with (write-content.ts: the
// file's fields, its slug and parent from its path, its language from its folder), and
// `new_parents` the same bodies for its parents that are only in the folder too, top first, so
// the chain is made in order. A parent in neither place is left to the service to refuse
// (`parent_not_found`, as push would meet it). Pure.
import { pageBody } from "../files.ts";
import { keyOf } from "../layout.ts";
import type { LocalFolder } from "../local.ts";
import type { Snapshot } from "../remote.ts";
import { placement } from "../write-content.ts";

export interface NewPagePreview {
  body: { new_page: Record<string, unknown>; new_parents?: Record<string, unknown>[] };
  /** The file of each body: the parents' in order, then the page's (`new_parents.<i>`, `new_page`). */
  files: string[];
}

function bodyOf(folder: LocalFolder, lang: string | null, path: string): Record<string, unknown> {
  const key = keyOf({ kind: "pages", lang, path });
  return {
    ...pageBody(key, folder.objects.get(key)?.value ?? null),
    ...placement(path),
    ...(lang ? { lang } : {}),
  };
}

/** The bodies for the folder's page at `lang` and `path`, with its parents only in the folder. */
export function newPagePreview(
  folder: LocalFolder,
  server: Snapshot,
  lang: string | null,
  path: string,
): NewPagePreview {
  const parents: string[] = [];
  const segments = path.split("/").filter(Boolean);
  for (let depth = 1; depth < segments.length; depth++) {
    const parent = `/${segments.slice(0, depth).join("/")}`;
    const key = keyOf({ kind: "pages", lang, path: parent });
    if (server.objects.has(key)) continue;
    if (!folder.objects.has(key)) break;
    parents.push(parent);
  }
  const new_page = bodyOf(folder, lang, path);
  const new_parents = parents.map((parent) => bodyOf(folder, lang, parent));
  return {
    body: { new_page, ...(new_parents.length > 0 ? { new_parents } : {}) },
    files: [...parents, path].map((p) => keyOf({ kind: "pages", lang, path: p })),
  };
}

/** The file a refusal or warning of the preview names by its `field` (`new_parents.1.title`, `new_page`). */
export function fileOfField(preview: NewPagePreview, field: unknown): string | undefined {
  if (typeof field !== "string") return undefined;
  if (field === "new_page" || field.startsWith("new_page.")) return preview.files[preview.files.length - 1];
  const parent = /^new_parents\.(\d+)(?:\.|$)/.exec(field);
  return parent ? preview.files[Number(parent[1])] : undefined;
}
