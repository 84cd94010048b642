// What a request says of itself through a reverse proxy (docs/deploy.md, "TLS in front"):
// X-Forwarded-For, X-Forwarded-Proto and X-Forwarded-Host are believed only from the peers
// SVC_TRUST_PROXY lists. One trust function serves Fastify (its `trustProxy`, which makes
// `request.ip`, `request.protocol` and `request.host` of it) and the answers written before
// Fastify sees a request (public/routes.ts, public/secure-front.ts), which read the same headers
// the same way here: the client address is the first untrusted one walking X-Forwarded-For from
// the peer back (proxy-addr's rule), the scheme and host the last X-Forwarded-Proto and
// X-Forwarded-Host entry, when the peer is trusted.
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";
import type { Scheme, TrustedProxies } from "../config.ts";

/** Whether the hop at `address` is a trusted proxy (`hop` 0 is the socket's peer). */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** Proxy-addr's named ranges, which Fastify's `trustProxy` takes too. */
const NAMED: Record<string, readonly string[]> = {
  loopback: ["127.0.0.1/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/** The trust function of SVC_TRUST_PROXY (config.ts checked every entry); null: nobody is trusted. */
export function proxyTrust(trusted: TrustedProxies): ProxyTrust | null {
  if (trusted === false) return null;
  if (trusted === true) return () => true;
  const list = new BlockList();
  for (const entry of trusted.flatMap((name) => NAMED[name] ?? [name])) {
    const [address, bits] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  // BlockList matches an IPv4-mapped IPv6 peer (`::ffff:127.0.0.1`) against IPv4 entries too.
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? "ipv6" : "ipv4");
  };
}

/** The entries of a forwarding header, last one first, trimmed and non-empty. */
function entriesFromLast(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const joined = Array.isArray(value) ? value.join(",") : value;
  return joined
    .split(",")
    .map((entry) => entry.replace(/^[ \t]+|[ \t]+$/g, ""))
    .filter((entry) => entry !== "")
    .reverse();
}

function peerOf(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? "";
}

/** The client's address, as Fastify's `request.ip` gives it under the same trust. */
export function clientAddress(req: IncomingMessage, trust: ProxyTrust | null): string {
  let address = peerOf(req);
  if (trust === null) return address;
  let hop = 0;
  for (const forwarded of entriesFromLast(req.headers["x-forwarded-for"])) {
    if (!trust(address, hop)) break;
    address = forwarded;
    hop++;
  }
  return address;
}

/** The last value of a header the trusted peer set; undefined when the peer is not trusted or sent none. */
function fromTrustedPeer(req: IncomingMessage, trust: ProxyTrust | null, name: string): string | undefined {
  if (trust === null || !trust(peerOf(req), 0)) return undefined;
  return entriesFromLast(req.headers[name])[0];
}

/**
 * The scheme the client used: `https` only when a trusted proxy says so (X-Forwarded-Proto), since
 * the service itself speaks plain HTTP; as Fastify's `request.protocol`.
 */
export function requestScheme(req: IncomingMessage, trust: ProxyTrust | null): Scheme {
  return fromTrustedPeer(req, trust, "x-forwarded-proto")?.toLowerCase() === "https" ? "https" : "http";
}

/** The host the client asked for: a trusted proxy's X-Forwarded-Host, else Host (as Fastify's `request.host`). */
export function requestHost(req: IncomingMessage, trust: ProxyTrust | null): string | undefined {
  return fromTrustedPeer(req, trust, "x-forwarded-host") ?? req.headers.host;
}
