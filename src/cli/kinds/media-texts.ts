// `media/<file>.json` beside a media file: its alt and title texts per language,
// `{"alt": {"en": "A beach", "de": "Ein Strand"}, "title": {"en": "Holiday"}}` (docs/media.md,
// "Alt and title"). A file without texts has no such file. A push sends `PATCH /media/{slug}
// {alt, title}`: the file's texts, and null for a language the server has a text in and the file
// does not; on a site without languages the one text as a plain string. Written after the media
// files (a new file is uploaded first).
import { data, listAll, type Api, type Rec } from "../api.ts";
import { jsonHash, type Json } from "../canonical.ts";
import { CliError } from "../errors.ts";
import { bad, isRecord, refuseUnknown } from "../file-shape.ts";
import type { SiteFacts } from "../files.ts";
import { keyOf, mediaExtension, refOfKey } from "../layout.ts";
import type { RemoteObject } from "../remote.ts";
import { need, urlsOf, warningsOf, type Change, type Outcome, type WriteContext } from "../write-types.ts";
import type { KindModule } from "./module.ts";

const FIELDS = ["alt", "title"] as const;

function texts(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter(([, text]) => typeof text === "string" && text !== ""),
  ) as Record<string, string>;
}

/** A media record's texts as its sidecar file, or null when it has none. */
export function textsFile(media: Rec): Json | null {
  const file = { alt: texts(media.alt), title: texts(media.title) };
  return Object.keys(file.alt).length || Object.keys(file.title).length ? file : null;
}

function check(key: string, value: Json): Record<(typeof FIELDS)[number], Record<string, string>> {
  const shape = 'a JSON object {"alt": {"<lang>": "<text>"}, "title": {"<lang>": "<text>"}}';
  if (!isRecord(value)) throw bad(key, shape);
  refuseUnknown(key, value, FIELDS, "a media file's texts");
  for (const field of FIELDS)
    if (
      value[field] !== undefined &&
      !(isRecord(value[field]) && Object.values(value[field]).every((t) => typeof t === "string"))
    )
      throw bad(key, `${field}: ${shape}`);
  return { alt: texts(value.alt), title: texts(value.title) };
}

/** What PATCH /media is sent for one field: a map with nulls for languages to clear, or a plain text without languages. */
function fieldBody(want: Record<string, string>, have: Record<string, string>, facts: SiteFacts): unknown {
  if (facts.languages.length === 0) return Object.values(want)[0] ?? null;
  const body: Record<string, string | null> = { ...want };
  for (const lang of Object.keys(have)) if (!(lang in want)) body[lang] = null;
  return Object.keys(body).length ? body : null;
}

async function read(api: Api): Promise<RemoteObject[]> {
  const media = await listAll(
    api,
    (page) => api.site.GET("/media", { params: { query: { per_page: 500, page } } }),
    "media",
  );
  return media.flatMap((file) => {
    const value = textsFile(file);
    if (value === null) return [];
    const key = keyOf({ kind: "media-texts", slug: String(file.slug), ext: mediaExtension(String(file.filename)) });
    return [{ key, kind: "media-texts" as const, hash: jsonHash(value), id: Number(file.id), value, record: file }];
  });
}

async function write(ctx: WriteContext, change: Change): Promise<Outcome> {
  const ref = refOfKey(change.item.key);
  if ("error" in ref || ref.kind !== "media-texts") throw bad(change.item.key, "not a media file's texts");
  const have = change.remote?.value ? check(change.item.key, change.remote.value) : { alt: {}, title: {} };
  const want =
    change.item.action === "delete"
      ? { alt: {}, title: {} }
      : check(change.item.key, need(change.local, "the media file's texts").value ?? null);
  const body = Object.fromEntries(FIELDS.map((field) => [field, fieldBody(want[field], have[field], ctx.facts)]));
  let answer: Rec;
  try {
    answer = await data(
      ctx.api,
      ctx.api.site.PATCH("/media/{ref}", { params: { path: { ref: ref.slug } }, body: body as never }),
    );
  } catch (error) {
    // The texts of a file deleted (or renamed) in the same push went with it.
    const gone = error instanceof CliError && (error.details as { code?: string }).code === "media_not_found";
    if (gone && change.item.action === "delete") return { written: { server_sha256: "" }, warnings: [], urls: [] };
    throw error;
  }
  const value = textsFile((answer.media ?? {}) as Rec);
  return {
    written: { server_sha256: value === null ? "" : jsonHash(value), id: Number((answer.media as Rec)?.id) },
    warnings: warningsOf(answer),
    urls: urlsOf(answer, ctx.facts),
  };
}

export const mediaTextsKind: KindModule = { read, write, check: (key, value) => void check(key, value), order: FIELDS };
