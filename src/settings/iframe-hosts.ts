// The setting `iframe_hosts` (docs/roles.md, "What an editor writes"): the host names an
// `<iframe src>` in what an editor writes may name; every other iframe an editor writes is removed.
// Written by administrators through PATCH /settings; each name normalised as a domain is
// (docs/domains.md), so it compares with a URL's host name as browsers read it.
import { fail } from "../errors.ts";
import { normaliseDomain } from "../network/domain-name.ts";

export const MAX_IFRAME_HOSTS = 100;

function refused(field: string, reason: string, message: string): never {
  throw fail("invalid_field", { field, reason }, message);
}

/** The list PATCH /settings stores: null is none; duplicates are dropped, the first kept. */
export function iframeHostsFrom(value: unknown): string[] {
  if (value === null) return [];
  if (!Array.isArray(value)) refused("iframe_hosts", "not_a_list", "iframe_hosts must be a list of host names.");
  if (value.length > MAX_IFRAME_HOSTS)
    refused("iframe_hosts", "too_many", `iframe_hosts holds at most ${MAX_IFRAME_HOSTS} host names.`);
  const hosts: string[] = [];
  value.forEach((entry, index) => {
    const field = `iframe_hosts.${index}`;
    if (typeof entry !== "string") refused(field, "not_a_string", `${field} must be a host name.`);
    const normalised = normaliseDomain(entry);
    if ("refused" in normalised)
      refused(field, normalised.refused, `${field} is not a host name (www.youtube-nocookie.com, player.vimeo.com).`);
    if (!hosts.includes(normalised.domain)) hosts.push(normalised.domain);
  });
  return hosts;
}
