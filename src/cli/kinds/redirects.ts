// `redirects.csv`: the site's redirects in the API's CSV form (docs/seo.md, "Redirects as CSV"):
// a header row `from,to,status`, one row per redirect by address, automatic ones included, as
// `GET /seo/redirects` answers it to `Accept: text/csv`. Compared by its rows, not its bytes (a
// file saved with LF line ends, or without the statuses of 301 redirects, is the same file). A
// push makes the site's redirects the file's: the rows in order, 1,000 a call (`POST
// /seo/redirects {redirects}`, each replacing the redirect at its address), then every redirect
// the file does not have deleted. A file removed and pushed with --delete deletes them all. A site
// without redirects has no file.
import { CsvError, parse } from "csv-parse/sync";
import { data, send, type Api, type Rec } from "../api.ts";
import { jsonHash, type Json } from "../canonical.ts";
import { bad } from "../file-shape.ts";
import type { RemoteObject } from "../remote.ts";
import { gathering, need, type Change, type Outcome, type WriteContext } from "../write-types.ts";
import type { KindModule } from "./module.ts";

export const REDIRECTS_KEY = "redirects.csv";
const PER_CALL = 1000;

interface Row {
  from: string;
  to: string;
  status: number;
}

/** The rows of a CSV document, read as the service reads a CSV body (header names trimmed, any case, BOM and empty lines skipped; no status is 301). */
export function redirectRows(csv: string): Row[] {
  let header: string[] = [];
  let rows: Array<Record<string, string>>;
  try {
    rows = parse(csv, {
      bom: true,
      skip_empty_lines: true,
      trim: true,
      columns: (names: string[]) => {
        header = names.map((name) => name.trim().toLowerCase());
        return header;
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw new Error(`not CSV: ${error.message}`);
  }
  if (csv.trim() !== "" && !["from", "to"].every((name) => header.includes(name)))
    throw new Error("the first row names the columns: from,to,status");
  return rows.map((row) => ({ from: row.from ?? "", to: row.to ?? "", status: row.status ? Number(row.status) : 301 }));
}

function rowsOf(key: string, value: Json): Row[] {
  if (!Array.isArray(value)) throw bad(key, "redirects.csv: rows from,to,status");
  return value as unknown as Row[];
}

async function csvNow(api: Api): Promise<string> {
  const { data: body } = await send<string>(
    api,
    api.site.GET("/seo/redirects", { headers: { Accept: "text/csv" }, parseAs: "text" } as never),
  );
  return String(body);
}

async function read(api: Api): Promise<RemoteObject[]> {
  const csv = await csvNow(api);
  const value = redirectRows(csv) as unknown as Json;
  if ((value as Json[]).length === 0) return [];
  return [{ key: REDIRECTS_KEY, kind: "redirects", hash: jsonHash(value), value, record: { csv } }];
}

async function write(ctx: WriteContext, change: Change): Promise<Outcome> {
  const { api } = ctx;
  const { collect, settle } = gathering(ctx.facts);
  const rows =
    change.item.action === "delete" ? [] : rowsOf(change.item.key, need(change.local, "redirects.csv").value ?? null);
  const kept = new Set<string>();
  for (let at = 0; at < rows.length; at += PER_CALL) {
    const answer = collect(
      await data(api, api.site.POST("/seo/redirects", { body: { redirects: rows.slice(at, at + PER_CALL) } as never })),
    );
    for (const redirect of (answer.redirects ?? []) as Rec[]) kept.add(String(redirect.from));
  }
  const list = await data(api, api.site.GET("/seo/redirects", {}));
  for (const redirect of (list.redirects ?? []) as Rec[]) {
    if (kept.has(String(redirect.from))) continue;
    collect(
      await data(
        api,
        api.site.DELETE("/seo/redirects/{id}", { params: { path: { id: Number(redirect.id) } } } as never),
      ),
    );
  }
  const now = redirectRows(await csvNow(api)) as unknown as Json;
  return settle({ server_sha256: rows.length ? jsonHash(now) : "" });
}

export const redirectsKind: KindModule = {
  read,
  write,
  check: (key, value) => void rowsOf(key, value),
  fileText: (object) => String(object.record.csv),
};
