// What `svc dev` sends POST /preview for a page (docs/cli.md, "svc dev"): every frame, stylesheet
// and data set of the folder whose content differs from the server's (or that the server does not
// have), and the page's own file when it differs from the server's record: the folder wins. The
// comparison is the one status and push make (canonical.ts: bytes by sha256, JSON by value). Pure.
import type { Json } from "../canonical.ts";
import { dataItems, pageBody } from "../files.ts";
import type { LocalFolder, LocalObject } from "../local.ts";
import type { Snapshot } from "../remote.ts";

export interface PreviewChanges {
  frames: Record<string, string>;
  styles: Record<string, string>;
  data: Record<string, Json[]>;
  page_fields?: Record<string, unknown>;
}

const decoder = new TextDecoder();

function differs(object: LocalObject, server: Snapshot): boolean {
  return server.objects.get(object.key)?.hash !== object.hash;
}

/** The folder's frames, stylesheets and data sets that differ from the server's. */
function siteChanges(folder: LocalFolder, server: Snapshot): PreviewChanges {
  const changes: PreviewChanges = { frames: {}, styles: {}, data: {} };
  for (const object of folder.objects.values()) {
    if (!differs(object, server)) continue;
    const { ref } = object;
    if (ref.kind === "frames") changes.frames[ref.slug] = decoder.decode(object.bytes);
    else if (ref.kind === "styles") changes.styles[ref.name] = decoder.decode(object.bytes);
    else if (ref.kind === "data")
      changes.data[ref.lang ? `${ref.name}.${ref.lang}` : ref.name] = dataItems(object.key, object.value ?? null);
  }
  return changes;
}

/**
 * The page file as `page_fields`: its record fields, and its `fields` with every field the server's
 * record has and the file does not set to null (removed), so the page shows as the file says.
 */
function pageFields(object: LocalObject, server: Snapshot): Record<string, unknown> {
  const body = pageBody(object.key, object.value ?? null);
  const stored = server.objects.get(object.key)?.record.fields;
  const fields = { ...(body.fields as Record<string, unknown>) };
  if (stored && typeof stored === "object")
    for (const name of Object.keys(stored)) if (!(name in fields)) fields[name] = null;
  return {
    title: body.title,
    content: body.content,
    menu_order: body.menu_order,
    seo: body.seo,
    fields,
    frame: body.frame,
  };
}

/** The body of POST /preview for the page `key` of the folder (its changes) on top of the site's. */
export function previewChanges(folder: LocalFolder, server: Snapshot, key: string): PreviewChanges {
  const changes = siteChanges(folder, server);
  const page = folder.objects.get(key);
  if (page && differs(page, server)) changes.page_fields = pageFields(page, server);
  return changes;
}
