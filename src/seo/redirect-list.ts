// POST /seo/redirects with a list (docs/seo.md, "Many redirects at once"): up to 1,000 redirects,
// as JSON `{redirects: [{from, to, status?}, …]}` or as CSV (redirects-csv.ts), written in one
// write, in list order, as if posted one by one: all or nothing. Every redirect is checked first
// as one posted alone is; any refused answers 400 bad_items naming each by its index (`at`) with
// its own code, and nothing is written.
import { gmt } from "../clock.ts";
import { fail, ServiceError } from "../errors.ts";
import type { Rebaked, Written } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { addRedirect, redirectsAt, RedirectWrites } from "../redirects/redirects.ts";
import type { SiteRow } from "../site/sites.ts";
import { redirectInput, requireNoPageAt, type RedirectInput } from "./redirect-input.ts";
import { redirectAnswer } from "./redirect-service.ts";

export const MAX_REDIRECTS_AT_ONCE = 1000;
/** Refused redirects listed in one answer; `total_errors` counts them all. */
const MAX_LISTED = 50;

/** Why one redirect of the list was refused: its index, its code and message, and the code's details. */
export interface RedirectItemError {
  at: number;
  code: string;
  message: string;
  [detail: string]: unknown;
}

function itemError(at: number, error: unknown): RedirectItemError {
  if (!(error instanceof ServiceError)) throw error;
  return { at, code: error.code, message: error.message, ...error.details };
}

/** The list checked: each redirect as one posted alone, and no `from` twice. */
async function checkedList(ctx: Pick<ServiceContext, "db">, site: SiteRow, list: unknown): Promise<RedirectInput[]> {
  if (!Array.isArray(list))
    throw fail(
      "invalid_field",
      { field: "redirects", expected: "a list of {from, to, status?}" },
      "redirects must be a list.",
    );
  if (list.length === 0)
    throw fail("invalid_field", { field: "redirects", min_items: 1 }, "redirects lists no redirect.");
  if (list.length > MAX_REDIRECTS_AT_ONCE)
    throw fail(
      "too_many_items",
      { field: "redirects", max_items: MAX_REDIRECTS_AT_ONCE, total: list.length },
      `At most ${MAX_REDIRECTS_AT_ONCE} redirects are written at once.`,
    );
  const errors: RedirectItemError[] = [];
  const inputs: RedirectInput[] = [];
  const firstAt = new Map<string, number>();
  for (const [at, item] of list.entries()) {
    try {
      if (item === null || typeof item !== "object" || Array.isArray(item))
        throw fail(
          "invalid_field",
          { field: "redirects", expected: "{from, to, status?}" },
          "A redirect is an object.",
        );
      const input = redirectInput(item);
      const first = firstAt.get(input.from);
      if (first !== undefined)
        throw fail(
          "invalid_field",
          { field: "from", from: input.from, first_at: first },
          "This from is given earlier in the list.",
        );
      firstAt.set(input.from, at);
      await requireNoPageAt(ctx.db, site.id, input.from);
      inputs.push(input);
    } catch (error) {
      errors.push(itemError(at, error));
    }
  }
  if (errors.length > 0)
    throw fail(
      "bad_items",
      { errors: errors.slice(0, MAX_LISTED), total_errors: errors.length },
      `${errors.length} of the ${list.length} redirects are refused (see errors, each by its index at); nothing was written.`,
    );
  return inputs;
}

/** POST /seo/redirects `{redirects: […]}`: answers the redirects as they stand after the write, in list order. */
export async function createRedirects(
  ctx: ServiceContext,
  site: SiteRow,
  list: unknown,
): Promise<{
  redirects: Array<ReturnType<typeof redirectAnswer>>;
  created: number;
  replaced: number;
  rebaked: Rebaked;
}> {
  const inputs = await checkedList(ctx, site, list);
  const now = gmt(ctx.clock());
  const done = await runWrite(ctx, {
    siteId: site.id,
    apply: async (trx) => {
      const writes = new RedirectWrites();
      const addresses = new Set<string>();
      let replaced = 0;
      for (const input of inputs) {
        const added = await addRedirect(trx, site.id, input, now, writes);
        if (added.replaced) replaced++;
        for (const address of added.addresses) addresses.add(address);
      }
      // Read back: a later redirect of the list may have pointed an earlier one further.
      const standing = new Map(
        (
          await redirectsAt(
            trx,
            site.id,
            inputs.map((input) => input.from),
          )
        ).map((record) => [record.from, record]),
      );
      const redirects = inputs.flatMap((input) => {
        const record = standing.get(input.from);
        return record ? [redirectAnswer(record)] : [];
      });
      const wrote = writes.list().map(({ address, action }): Written => ({ kind: "redirect", id: address, action }));
      return {
        value: { redirects, created: inputs.length - replaced, replaced },
        wrote,
        changes: [{ kind: "redirects", addresses: [...addresses] }],
      };
    },
  });
  return { ...done.value, rebaked: done.rebaked };
}
