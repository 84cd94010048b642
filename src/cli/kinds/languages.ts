// `languages.json`: the site's languages in its order and the default one
// (`{"default": "en", "languages": [{"code": "en", "name": "English"}, …]}`). Written first in a
// push: pages, data sets, strings and sidebars of a language need it. A push adds the languages
// the file has and the site lacks (in the file's order, which is the site's order of them),
// renames, moves the default, and removes the languages the file no longer has (their pages keep
// their language: docs/content-model.md, "Languages"). A site without languages has no file.
import { data, type Api, type Rec } from "../api.ts";
import { jsonHash, type Json } from "../canonical.ts";
import { bad, isRecord, refuseUnknown } from "../file-shape.ts";
import { LANGUAGES_KEY } from "../layout.ts";
import type { RemoteObject } from "../remote.ts";
import { gathering, need, type Change, type Outcome, type WriteContext } from "../write-types.ts";
import type { KindModule } from "./module.ts";

interface Languages {
  default: string | null;
  languages: Array<{ code: string; name: string }>;
}

function fileOf(answer: Rec): Languages | null {
  if (answer.active !== true || !Array.isArray(answer.languages)) return null;
  return {
    default: typeof answer.default_lang === "string" ? answer.default_lang : null,
    languages: (answer.languages as Rec[]).map((l) => ({ code: String(l.code), name: String(l.name) })),
  };
}

function check(key: string, value: Json): Languages {
  const shape = 'a JSON object {"default": "en", "languages": [{"code": "en", "name": "English"}]}';
  if (!isRecord(value)) throw bad(key, shape);
  refuseUnknown(key, value, ["default", "languages"], "languages.json");
  const list = value.languages;
  if (!Array.isArray(list) || list.length === 0 || !list.every((l) => isRecord(l) && typeof l.code === "string"))
    throw bad(key, `languages: ${shape}`);
  const languages = (list as Rec[]).map((l) => ({
    code: String(l.code),
    name: typeof l.name === "string" ? l.name : "",
  }));
  const codes = languages.map((l) => l.code);
  if (new Set(codes).size !== codes.length) throw bad(key, "languages: a code appears twice");
  const chosen = value.default ?? codes[0];
  if (typeof chosen !== "string" || !codes.includes(chosen))
    throw bad(key, `default: one of the languages (${codes.join(", ")})`);
  return { default: chosen, languages };
}

async function read(api: Api): Promise<RemoteObject[]> {
  const answer = await data(api, api.site.GET("/languages", {}));
  const value = fileOf(answer);
  if (value === null) return [];
  return [
    {
      key: LANGUAGES_KEY,
      kind: "languages",
      hash: jsonHash(value as unknown as Json),
      value: value as unknown as Json,
      record: answer,
    },
  ];
}

async function write(ctx: WriteContext, change: Change): Promise<Outcome> {
  const { api } = ctx;
  const { collect, settle } = gathering(ctx.facts);
  const have = change.remote?.value ? check(change.item.key, change.remote.value) : { default: null, languages: [] };
  const want: Languages =
    change.item.action === "delete"
      ? { default: null, languages: [] }
      : check(change.item.key, need(change.local, "languages.json").value ?? null);
  const haveNames = new Map(have.languages.map((l) => [l.code, l.name]));
  let last: Rec | null = null;
  for (const { code, name } of want.languages) {
    if (haveNames.get(code) === name) continue;
    last = collect(
      await data(api, api.site.POST("/languages", { body: { code, ...(name ? { name } : {}) } as never })),
    );
  }
  if (want.default !== null && (last ? last.default_lang : have.default) !== want.default)
    last = collect(
      await data(api, api.site.POST("/languages", { body: { code: want.default, default: true } as never })),
    );
  for (const { code } of have.languages.filter((h) => !want.languages.some((w) => w.code === h.code)))
    last = collect(await data(api, api.site.DELETE("/languages/{code}", { params: { path: { code } } } as never)));
  const now = await data(api, api.site.GET("/languages", {}));
  const value = fileOf(now);
  ctx.facts.languages = value ? value.languages.map((l) => l.code) : [];
  ctx.facts.defaultLang = value?.default ?? ctx.facts.defaultLang;
  return settle({ server_sha256: value ? jsonHash(value as unknown as Json) : "" });
}

export const languagesKind: KindModule = {
  read,
  write,
  check: (key, value) => void check(key, value),
  order: ["default", "languages"],
};
