// A redirect as written to POST /seo/redirects (docs/seo.md, "Redirects"), checked and made
// canonical: one posted alone and each of a list go through the same checks.
import { fail } from "../errors.ts";
import { resolvePublicPage } from "../pages/at-address.ts";
import { hasQuery, redirectAddress } from "../redirects/addresses.ts";
import { REDIRECT_STATUSES, type RedirectStatus } from "../redirects/redirects.ts";
import type { Db } from "../store/database.ts";

const MAX_TARGET = 2000;

/** A redirect ready to be written: `from` canonical, `to` as it is sent in Location. */
export interface RedirectInput {
  from: string;
  to: string;
  status: RedirectStatus;
}

/**
 * `from`: a site path, written as the public site's canonical address (`/Old-Page` → `/old-page/`),
 * with the query string it answers for when it has one (`/?page_id=12`).
 */
function fromOf(value: unknown): string {
  const expected = "a site path starting with /, with a query string or none";
  const text = typeof value === "string" ? value.trim() : "";
  if (!text.startsWith("/") || text.startsWith("//") || /[\s#]/.test(text) || text.length > MAX_TARGET)
    throw fail("invalid_field", { field: "from", expected }, `from must be ${expected}.`);
  const address = redirectAddress(text);
  if (address === null)
    throw fail(
      "invalid_field",
      { field: "from", expected: "a site path with well-formed percent-encoding" },
      "from has malformed percent-encoding.",
    );
  return address;
}

/**
 * `to`: a site path or an absolute http(s) URL, sent as it is in Location: what a URL cannot hold
 * as it is (non-ASCII, a lone `%`) percent-encoded, escapes already written kept as they are.
 */
function toOf(value: unknown): string {
  const expected = "a site path starting with / or an absolute http(s) URL";
  const text = typeof value === "string" ? value.trim() : "";
  if (text === "" || text.length > MAX_TARGET || /[\s<>"\\\x00-\x1f\x7f]/.test(text))
    throw fail("invalid_field", { field: "to", expected }, `to must be ${expected}.`);
  const to = encodedTarget(text);
  if (to === null) throw fail("invalid_field", { field: "to", expected }, `to must be ${expected}.`);
  if (to.startsWith("/") && !to.startsWith("//")) return to;
  try {
    const url = new URL(to);
    if ((url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "") return to;
  } catch {
    // not a URL
  }
  throw fail("invalid_field", { field: "to", expected }, `to must be ${expected}.`);
}

/** The text percent-encoded as a URL's, its escapes kept (`%2C` stays `%2C`); null when it holds a lone surrogate. */
function encodedTarget(text: string): string | null {
  try {
    return text.replace(/%[0-9A-Fa-f]{2}|[^%]+|%/g, (part) =>
      /^%[0-9A-Fa-f]{2}$/.test(part) ? part : encodeURI(part),
    );
  } catch {
    return null;
  }
}

function statusOf(value: unknown): RedirectStatus {
  if (value === undefined || value === null) return 301;
  if (!(REDIRECT_STATUSES as readonly unknown[]).includes(value))
    throw fail("invalid_redirect_status", { field: "status", status: value, allowed: REDIRECT_STATUSES });
  return value as RedirectStatus;
}

/**
 * `{from, to, status?}` checked: 400 invalid_field (`from`, `to`, a redirect to its own address),
 * 400 invalid_redirect_status. Reads nothing.
 */
export function redirectInput(body: { from?: unknown; to?: unknown; status?: unknown }): RedirectInput {
  const from = fromOf(body.from);
  const to = toOf(body.to);
  const status = statusOf(body.status);
  // A redirect of every query of an address cannot send to that address with a query either: it
  // would answer that request again.
  const target = to.startsWith("/") ? redirectAddress(to) : null;
  if (target !== null && (target === from || (!hasQuery(from) && target.split("?")[0] === from)))
    throw fail("invalid_field", { field: "to", from }, "A redirect cannot point at its own address.");
  return { from, to, status };
}

/**
 * 409 redirect_shadows_page when a live page answers at `from`. A redirect of one query string
 * shadows nothing: the page still answers its address without that query.
 */
export async function requireNoPageAt(db: Db, siteId: number, from: string): Promise<void> {
  if (hasQuery(from)) return;
  const live = await resolvePublicPage(db, siteId, from);
  if ("page" in live) throw fail("redirect_shadows_page", { from, page: live.page.id });
}
