// `seo.json`: the site's SEO defaults as `GET /seo` answers them (docs/seo.md, "Site defaults"):
// `title_template`, `description`, `og_image`, `noindex`, `twitter_site`, `robots_extra`, and
// `languages`, each language's own `title_template`, `description` and `og_image` (null: it prints
// the default language's). The top-level values are the default language's; its entry in
// `languages` is read, never sent. A push sends what differs from the server's in one `PATCH /seo`,
// the values of languages as a map (`{"description": {"de": "…"}}`). Like the settings, always
// there and never deleted.
import { data, type Api, type Rec } from "../api.ts";
import { jsonHash, type Json } from "../canonical.ts";
import { bad, isRecord, refuseUnknown } from "../file-shape.ts";
import type { RemoteObject } from "../remote.ts";
import { need, urlsOf, warningsOf, type Change, type Outcome, type WriteContext } from "../write-types.ts";
import type { KindModule } from "./module.ts";

export const SEO_KEY = "seo.json";
const PLAIN = ["noindex", "twitter_site", "robots_extra"] as const;
const PER_LANGUAGE = ["title_template", "description", "og_image"] as const;
const FIELDS = [...PER_LANGUAGE, ...PLAIN, "languages"];

function fileOf(seo: Rec): Json {
  return Object.fromEntries(
    FIELDS.map((field) => [field, (seo[field] ?? (field === "languages" ? {} : null)) as Json]),
  );
}

function check(key: string, value: Json): Rec {
  if (!isRecord(value)) throw bad(key, `seo.json is a JSON object {${FIELDS.join(", ")}}`);
  refuseUnknown(key, value, FIELDS, "seo.json");
  if (value.languages !== undefined && !isRecord(value.languages))
    throw bad(key, 'languages: {"<lang>": {title_template, description, og_image}}');
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The body of PATCH /seo that makes the server's defaults the file's (empty when they are). */
export function seoChanges(want: Rec, have: Rec, defaultLang: string | null, languages: string[]): Rec {
  const body: Rec = {};
  for (const field of PLAIN) if (field in want && !same(want[field], have[field])) body[field] = want[field];
  const wantLangs = isRecord(want.languages) ? want.languages : {};
  const haveLangs = isRecord(have.languages) ? have.languages : {};
  for (const field of PER_LANGUAGE) {
    const map: Rec = {};
    for (const lang of languages) {
      if (lang === defaultLang) continue;
      const mine = isRecord(wantLangs[lang]) ? wantLangs[lang][field] : undefined;
      const theirs = isRecord(haveLangs[lang]) ? haveLangs[lang][field] : undefined;
      if (mine !== undefined && !same(mine, theirs)) map[lang] = mine;
    }
    const top = field in want && !same(want[field], have[field]);
    if (Object.keys(map).length === 0) {
      if (top) body[field] = want[field];
    } else {
      if (top && defaultLang) map[defaultLang] = want[field];
      body[field] = map;
    }
  }
  return body;
}

async function read(api: Api): Promise<RemoteObject[]> {
  const answer = await data(api, api.site.GET("/seo", {}));
  const value = fileOf((answer.seo ?? {}) as Rec);
  return [{ key: SEO_KEY, kind: "seo", hash: jsonHash(value), value, record: answer }];
}

async function write(ctx: WriteContext, change: Change): Promise<Outcome> {
  if (change.item.action === "delete") return { written: { server_sha256: "" }, warnings: [], urls: [] };
  const want = check(change.item.key, need(change.local, SEO_KEY).value ?? null);
  const have = isRecord(change.remote?.value) ? change.remote.value : {};
  const body = seoChanges(want, have, ctx.facts.defaultLang, ctx.facts.languages);
  if (Object.keys(body).length === 0)
    return { written: { server_sha256: change.remote?.hash ?? "" }, warnings: [], urls: [] };
  const answer = await data(ctx.api, ctx.api.site.PATCH("/seo", { body: body as never }));
  return {
    written: { server_sha256: jsonHash(fileOf((answer.seo ?? {}) as Rec)) },
    warnings: warningsOf(answer),
    urls: urlsOf(answer, ctx.facts),
  };
}

export const seoKind: KindModule = { read, write, check: (key, value) => void check(key, value), order: FIELDS };
