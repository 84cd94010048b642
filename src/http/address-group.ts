// The client a limit counts, from its address (docs/security.md, "Limits at a glance"). One IPv6
// subscriber is handed a whole /64 (RFC 6177; home routers give every device addresses of their
// own, and privacy addresses change by the hour), so an attacker on IPv6 holds 2^64 addresses:
// counted one by one, a lockout or a rate limit never met it twice. IPv6 addresses are therefore
// counted by their /64, as nginx's limit_req users and Cloudflare do, and an IPv4 address written
// as IPv4-mapped IPv6 (`::ffff:192.0.2.7`, what a dual-stack socket reports) is the IPv4 address it
// names, so it cannot be counted twice under two spellings. Anything else (no address at all) is
// kept as is.
import { isIPv4, isIPv6 } from "node:net";

/** Eight 16-bit groups of an IPv6 address, or null when it is not one. */
function hextets(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  // A dotted IPv4 tail (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`) is two groups.
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (isIPv4(tail)) {
    const [a, b, c, d] = tail.split(".").map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = rest === undefined || rest === "" ? [] : rest.split(":");
  const missing = 8 - left.length - right.length;
  const groups = rest === undefined ? left : [...left, ...Array<string>(missing).fill("0"), ...right];
  return groups.length === 8 ? groups.map((group) => Number.parseInt(group, 16)) : null;
}

/**
 * The key a limit counts an address under: an IPv4 address as it is, an IPv4-mapped IPv6 address
 * as its IPv4 address, any other IPv6 address as its /64 in one spelling (`2001:db8:0:1::/64`),
 * whatever its case, zeros or zone. Pure; an IPv4 address costs one scan for `:`.
 */
export function addressGroup(address: string): string {
  if (!address.includes(":")) return address;
  const groups = hextets(address);
  if (groups === null) return address;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}
