// Where a webhook may be sent: no server-side request forgery. A webhook URL is http:// or https://
// to the public internet, never to the service's own machine, its private network or a cloud
// metadata address. An address is public when ipaddr.js places it in no special range (its
// "unicast"); names are resolved and every address they have must be public. The check at
// registration tells the user at once; guardedLookup repeats it at every connect, on the very
// address connected to, so a name that resolves elsewhere later (DNS rebinding) is still refused.
import type { LookupAddress, LookupOptions } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { fail } from "../errors.ts";

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** The `code` of the error guardedLookup answers for an address that is not public. */
export const ADDRESS_NOT_ALLOWED = "WEBHOOK_ADDRESS_NOT_ALLOWED";

/** Every address a host name has. */
export type ResolveHost = (host: string) => Promise<string[]>;

// ipaddr.js counts the deprecated IPv4-compatible addresses (::a.b.c.d) as unicast; no public host
// is reached through one, and ::7f00:1 is 127.0.0.1 in disguise, so the whole block is refused.
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

// Names that are never on the public internet whatever DNS says: localhost (always loopback),
// .local (multicast DNS on the local link), .internal (reserved for private use, as
// metadata.google.internal) and .home.arpa (home networks).
const PRIVATE_NAME_SUFFIXES = ["localhost", "local", "internal", "home.arpa"];

/** Whether an IP address (either family, bracketed or not) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const bare = withoutBrackets(address);
  // net.isIP knows only the standard notations; anything else (0x7f.1, 2130706433) is not an
  // address here, so no second reading of it can disagree with the one the socket would make.
  if (isIP(bare) === 0) return false;
  const parsed = ipaddr.process(bare); // an IPv4-mapped IPv6 address becomes its IPv4 address
  if (parsed instanceof ipaddr.IPv6 && parsed.match(IPV4_COMPATIBLE)) return false;
  return parsed.range() === "unicast";
}

/** Whether a host name is one that only a private network answers, by its name alone. */
export function isPrivateName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, "");
  return PRIVATE_NAME_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/** The URL's host as a socket takes it: an IPv6 literal without its brackets. */
export function hostOf(url: URL): string {
  return withoutBrackets(url.hostname);
}

/**
 * The webhook URL, parsed, if a webhook may be sent there; refuses it otherwise. With
 * `allowPrivate` only the URL's form is checked and no name is resolved.
 */
export async function checkWebhookUrl(
  raw: string,
  options: { allowPrivate: boolean; lookup?: ResolveHost },
): Promise<URL> {
  const url = parseWebhookUrl(raw);
  if (options.allowPrivate) return url;
  const host = hostOf(url);
  if (isIP(host) !== 0) {
    if (!isPublicAddress(host)) throw notAllowed(url, host, host);
    return url;
  }
  if (isPrivateName(host)) throw notAllowed(url, host, null);
  const addresses = await resolveForCheck(host, options.lookup ?? resolveHost);
  const refused = addresses.find((address) => !isPublicAddress(address));
  if (refused !== undefined) throw notAllowed(url, host, refused);
  return url;
}

/**
 * A `lookup` for node:http and node:https request options: it resolves the name and answers its
 * addresses only when every one is public (or `allowPrivate`), else an error whose `code` is
 * ADDRESS_NOT_ALLOWED. Node calls it with `all: true` when it tries several addresses in turn
 * (autoSelectFamily, the default), and without for a single address; both forms are answered.
 */
export function guardedLookup(allowPrivate: boolean, resolve: ResolveHost = resolveHost): LookupFunction {
  return (hostname, options, callback) => {
    addressesToConnect(hostname, options.family, allowPrivate, resolve).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, options.all ? [] : ""),
    );
  };
}

async function addressesToConnect(
  hostname: string,
  family: LookupAddressFamily,
  allowPrivate: boolean,
  resolve: ResolveHost,
): Promise<LookupAddress[]> {
  if (!allowPrivate && isPrivateName(hostname)) throw addressError(hostname, hostname);
  const addresses = await resolve(hostname);
  if (!allowPrivate) {
    const refused = addresses.find((address) => !isPublicAddress(address));
    if (refused !== undefined) throw addressError(hostname, refused);
  }
  const wanted = familyNumber(family);
  const usable = addresses
    .map((address) => ({ address, family: isIP(address) }))
    .filter((found) => found.family !== 0 && (wanted === 0 || found.family === wanted));
  if (usable.length === 0) throw notFound(hostname);
  return usable;
}

type LookupAddressFamily = LookupOptions["family"];

function familyNumber(family: LookupAddressFamily): number {
  if (family === "IPv4") return 4;
  if (family === "IPv6") return 6;
  return family ?? 0;
}

// As the system resolver answers a name without an address of the family asked for.
function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
    code: "ENOTFOUND",
    syscall: "getaddrinfo",
    hostname,
  });
}

function addressError(hostname: string, address: string): NodeJS.ErrnoException {
  const shown = address === hostname ? hostname : `${hostname} (${address})`;
  return Object.assign(new Error(`Webhooks are not sent to ${shown}: not a public address.`), {
    code: ADDRESS_NOT_ALLOWED,
  });
}

/** Every address of a name, by the system resolver (as a socket's connect would resolve it). */
async function resolveHost(host: string): Promise<string[]> {
  const found = await dnsLookup(host, { all: true, order: "verbatim" });
  return found.map((entry) => entry.address);
}

async function resolveForCheck(host: string, resolve: ResolveHost): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    addresses = [];
  }
  // A name that resolves to nothing now is most likely mistyped; the user learns it at once
  // rather than from failed deliveries later.
  if (addresses.length === 0) {
    throw fail(
      "invalid_field",
      { field: "url", reason: "unresolvable", host },
      `The webhook URL's host ${host} does not resolve to any address.`,
    );
  }
  return addresses;
}

function parseWebhookUrl(raw: string): URL {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) {
    throw invalidUrl("too_long", `A webhook URL is at most ${MAX_WEBHOOK_URL_LENGTH} characters.`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl("malformed", "The webhook URL is not a valid absolute URL.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw invalidUrl("scheme", "A webhook URL starts with https:// or http://.");
  }
  if (url.username !== "" || url.password !== "") {
    throw invalidUrl("credentials", "A webhook URL holds no user name or password (user:pass@).");
  }
  return url;
}

function invalidUrl(reason: string, message: string) {
  return fail("invalid_field", { field: "url", reason }, message);
}

function notAllowed(url: URL, host: string, address: string | null) {
  return fail("webhook_url_not_allowed", { field: "url", url: url.href, host, address });
}

function withoutBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
