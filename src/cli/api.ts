// The CLI's use of the typed client (src/client/, docs/client.md): one client per command, its
// pacing telling every wait on stderr (`waiting 23 s: rate limit`), a refusal turned into the one
// line the CLI prints (`frame_cycle: …`, exit 1), and a count of the writes sent.
import {
  ApiError,
  createSiteClient,
  type CallResult,
  type SiteClient,
  type SiteScopedClient,
} from "../client/index.ts";
import { CliError } from "./errors.ts";
import type { Output } from "./output.ts";
import type { Authed } from "./target.ts";

export type Rec = Record<string, unknown>;

export interface Api {
  readonly client: SiteClient;
  readonly site: SiteScopedClient;
  readonly target: Authed;
  /** Calls and writes (POST, PUT, PATCH, DELETE) sent, dry runs included. */
  readonly counts: { calls: number; writes: number };
}

export const USER_AGENT = "svc-cli/0.1";

export function connect(target: Authed, out: Output): Api {
  const counts = { calls: 0, writes: 0 };
  const client = createSiteClient({
    url: target.url,
    site: target.site,
    token: target.token,
    headers: { "User-Agent": USER_AGENT },
    pacing: { onWait: (wait) => out.note(`waiting ${wait.seconds} s: ${wait.reason}`) },
    fetch: (request) => {
      counts.calls++;
      if (request.method !== "GET" && request.method !== "HEAD") counts.writes++;
      return fetch(request);
    },
  });
  return { client, site: client.site, target, counts };
}

/** A call's refusal or failure as the CLI's error (exit 1, one line). */
export function failure(error: unknown, url: string): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof ApiError)
    return new CliError(1, error.line, [], { code: error.code, status: error.status, details: error.details });
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return new CliError(1, `unreachable: cannot reach ${url} (${cause?.code ?? cause?.message ?? error.message})`, [], {
      code: "unreachable",
    });
  }
  return new CliError(1, `failed: ${(error as Error)?.message ?? String(error)}`, [], { code: "failed" });
}

/** Awaits a call: its data and answer, or throws the CLI's error for a refusal. */
export async function send<T = Rec>(
  api: Api,
  call: Promise<CallResult<unknown>>,
): Promise<{ data: T; response: Response }> {
  let result: CallResult<unknown>;
  try {
    result = await call;
  } catch (error) {
    throw failure(error, api.target.url);
  }
  if (!result.response.ok) throw failure(ApiError.from(result.error, result.response), api.target.url);
  return { data: result.data as T, response: result.response };
}

/** The data of a call (see send). */
export async function data<T = Rec>(api: Api, call: Promise<CallResult<unknown>>): Promise<T> {
  return (await send<T>(api, call)).data;
}

/** Every item of a paged list (`per_page` 500 at a time) under `field`. */
export async function listAll(
  api: Api,
  page: (n: number) => Promise<CallResult<unknown>>,
  field: string,
): Promise<Rec[]> {
  const all: Rec[] = [];
  for (let n = 1; n < 10_000; n++) {
    const answer = await data(api, page(n));
    const items = Array.isArray(answer[field]) ? (answer[field] as Rec[]) : [];
    all.push(...items);
    const total = typeof answer.total === "number" ? answer.total : all.length;
    if (items.length === 0 || all.length >= total) break;
  }
  return all;
}

/** Runs `work` over `items` with at most `limit` at once (the client's pacing still caps what is on the wire). */
export async function eachLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
