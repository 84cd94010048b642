// Which page a public address shows, for `svc dev` (docs/cli.md, "svc dev"): the server's pages
// at the addresses the service answers them (`url` of GET /pages: the home page and its
// translations at `/` and `/<lang>/`), and the folder's page files at the address their language
// and path make (`/<lang>` before the path unless it is the default language, a trailing slash).
// A page file the server does not have yet is known, so the dev server can say so. Pure.
import { keyOf, type ObjectRef } from "../layout.ts";
import type { LocalObject } from "../local.ts";
import type { RemoteObject } from "../remote.ts";

/** A page the dev server can show: its key (`pages/en/about.json`), and its id when the server has it. */
export interface AddressedPage {
  key: string;
  id: number | null;
}

/** The address of a request written as page addresses are: lower case, a trailing slash, no query. */
export function pageAddressOf(pathname: string): string {
  let path = pathname.toLowerCase().replace(/\/{2,}/g, "/");
  if (!path.endsWith("/")) path += "/";
  return path;
}

/** Where a page file of the folder answers when the server does not say (a page only in the folder). */
export function folderAddress(ref: Extract<ObjectRef, { kind: "pages" }>, defaultLang: string | null): string {
  const prefix = ref.lang === null || ref.lang === defaultLang ? "" : `/${ref.lang}`;
  return `${prefix}${ref.path}/`;
}

/** Every address of a page, the server's first (its own addresses), then the folder's new pages. */
export function addressMap(
  server: Iterable<RemoteObject>,
  local: Iterable<LocalObject>,
  defaultLang: string | null,
): Map<string, AddressedPage> {
  const map = new Map<string, AddressedPage>();
  const known = new Set<string>();
  for (const object of server) {
    if (object.kind !== "pages") continue;
    known.add(object.key);
    let address: string;
    try {
      address = new URL(String(object.record.url)).pathname;
    } catch {
      continue;
    }
    map.set(pageAddressOf(address), { key: object.key, id: Number(object.id) });
  }
  for (const object of local) {
    if (object.ref.kind !== "pages" || known.has(object.key)) continue;
    const address = folderAddress(object.ref, defaultLang);
    if (!map.has(address)) map.set(address, { key: keyOf(object.ref), id: null });
  }
  return map;
}
