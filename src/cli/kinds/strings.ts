// `strings/<lang>.json`: the texts frames print with `t.<key>` in one language, `{key: text}`
// (docs/markup.md, "Strings per language"); `strings/_.json` on a site without languages. A push
// replaces a language's texts with the file's (`PUT /strings {lang, strings}`); a file removed and
// pushed with --delete empties them. A language without texts has no file.
import { data, type Api, type Rec } from "../api.ts";
import { jsonHash, type Json } from "../canonical.ts";
import { bad, isRecord } from "../file-shape.ts";
import type { SiteFacts } from "../files.ts";
import { keyOf, refOfKey } from "../layout.ts";
import type { RemoteObject } from "../remote.ts";
import { need, urlsOf, warningsOf, type Change, type Outcome, type WriteContext } from "../write-types.ts";
import type { KindModule } from "./module.ts";

function check(key: string, value: Json): Record<string, string> {
  if (!isRecord(value) || !Object.values(value).every((text) => typeof text === "string"))
    throw bad(key, 'a strings file is a JSON object {"<key>": "<text>"}');
  return value as Record<string, string>;
}

async function read(api: Api, facts: SiteFacts): Promise<RemoteObject[]> {
  const answer = await data(api, api.site.GET("/strings", {}));
  const all = isRecord(answer.strings) ? answer.strings : {};
  return Object.entries(all)
    .filter(([, texts]) => isRecord(texts) && Object.keys(texts).length > 0)
    .map(([code, texts]) => {
      const lang = facts.languages.length > 0 ? code : null;
      const value = texts as Json;
      return {
        key: keyOf({ kind: "strings", lang }),
        kind: "strings" as const,
        hash: jsonHash(value),
        value,
        record: answer,
      };
    });
}

async function write(ctx: WriteContext, change: Change): Promise<Outcome> {
  const ref = refOfKey(change.item.key);
  const lang = "error" in ref || ref.kind !== "strings" ? null : ref.lang;
  const strings =
    change.item.action === "delete" ? {} : check(change.item.key, need(change.local, "the strings file").value ?? null);
  const answer: Rec = await data(
    ctx.api,
    ctx.api.site.PUT("/strings", { body: { strings, ...(lang ? { lang } : {}) } as never }),
  );
  const after = (isRecord(answer.strings) ? answer.strings : {}) as Json;
  return {
    written: { server_sha256: change.item.action === "delete" ? "" : jsonHash(after) },
    warnings: warningsOf(answer),
    urls: urlsOf(answer, ctx.facts),
  };
}

export const stringsKind: KindModule = { read, write, check: (key, value) => void check(key, value) };
