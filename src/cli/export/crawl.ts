// The fetching half of `svc export-static` (docs/cli.md): addresses asked of the service, 4 at a
// time, each answer turned into a file of the export (document.ts), and every address of the site
// it links to asked in turn, until nothing new is named. What answers a redirect or an error has
// no file; a linked address that answers neither is reported.
import { eachLimited } from "../api.ts";
import { createHash } from "node:crypto";
import { exportedOf, fileOf } from "./document.ts";
import { isServiceEndpoint, type LinkForm, type Linking } from "./links.ts";
import { standsAsRecorded, type ManifestFile } from "./manifest.ts";
import { getPublic, type PublicSite } from "./public-get.ts";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const AT_ONCE = 4;

/** A file of the export: as the manifest records it, with its bytes when fetched in this run. */
export interface Entry extends ManifestFile {
  content?: Buffer;
}

export interface Missing {
  address: string;
  status: number;
  /** A page that links to it. */
  from: string | null;
}

export interface Answered {
  from: string;
  to: string;
  status: number;
}

export class Crawl {
  /** What the export holds, by address; with --since it starts as the last export's. */
  readonly entries: Map<string, Entry>;
  readonly missing: Missing[] = [];
  /** Addresses asked that answered a redirect (a home page's own path, another spelling of one). */
  readonly redirects: Answered[] = [];
  private readonly queue = new Map<string, string | null>();
  private readonly asked = new Set<string>();
  private done = 0;

  private readonly site: PublicSite;
  private readonly linking: Linking;
  private readonly out: string;
  private readonly previous: Record<string, ManifestFile>;
  private readonly onProgress: (done: number, total: number) => void;

  constructor(
    site: PublicSite,
    linking: Linking,
    out: string,
    previous: Record<string, ManifestFile>,
    kept: Map<string, Entry>,
    onProgress: (done: number, total: number) => void = () => {},
  ) {
    this.site = site;
    this.linking = linking;
    this.out = out;
    this.previous = previous;
    this.entries = kept;
    this.onProgress = onProgress;
  }

  /** Whether this crawl asked for `address`. */
  wasAsked(address: string): boolean {
    return this.asked.has(address);
  }

  /** Asks for `address` (again, even when the export has it). */
  ask(address: string, from: string | null = null): void {
    if (isServiceEndpoint(address) || this.asked.has(address) || this.queue.has(address)) return;
    this.queue.set(address, from);
  }

  /** Asks for an address unless the export already holds it (`from`: the file linking to it, null for a listed one). */
  follow(address: string, from: string | null): void {
    if (!this.entries.has(address)) this.ask(address, from);
  }

  /** Fetches until no address is left to ask. */
  async run(): Promise<void> {
    while (this.queue.size > 0) {
      const batch = [...this.queue];
      this.queue.clear();
      for (const [address] of batch) this.asked.add(address);
      await eachLimited(batch, AT_ONCE, async ([address, from]) => {
        await this.fetch(address, from);
        this.onProgress(++this.done, this.done + this.queue.size);
      });
    }
  }

  /** A document the export makes itself from an answer (the 404 pages), written as `file`. */
  async special(key: string, address: string, file: string, form: LinkForm): Promise<Buffer | null> {
    const answer = await getPublic(this.site, address);
    if (!answer.type.toLowerCase().startsWith("text/html")) return null;
    const exported = exportedOf(address, file, answer, this.linking, form);
    this.entries.set(key, this.entry(exported));
    for (const link of exported.links) this.follow(link, file);
    return exported.bytes;
  }

  private async fetch(address: string, from: string | null): Promise<void> {
    const before = this.previous[address];
    // A media file's address holds its sha256: the one on disk is still it.
    if (address.startsWith("/media/") && before && standsAsRecorded(this.out, before)) {
      this.entries.set(address, before);
      return;
    }
    const answer = await getPublic(this.site, address);
    if (answer.status === 200) {
      const file = fileOf(address, answer.type.toLowerCase().startsWith("text/html"));
      if (file === null) {
        this.entries.delete(address);
        this.missing.push({ address, status: answer.status, from });
        return;
      }
      const exported = exportedOf(address, file, answer, this.linking);
      this.entries.set(address, this.entry(exported));
      for (const link of exported.links) this.follow(link, address);
      return;
    }
    this.entries.delete(address);
    if (REDIRECTS.has(answer.status) && answer.location) {
      this.redirects.push({ from: address, to: answer.location, status: answer.status });
      const target = new URL(answer.location, `${this.linking.siteOrigin}${address}`);
      if (this.linking.hosts.has(target.host.toLowerCase())) this.follow(target.pathname, address);
    } else if (from !== null) this.missing.push({ address, status: answer.status, from });
  }

  private entry(exported: ReturnType<typeof exportedOf>): Entry {
    return {
      file: exported.file,
      sha256: createHash("sha256").update(exported.bytes).digest("hex"),
      bytes: exported.bytes.length,
      links: exported.links,
      endpoints: exported.endpoints,
      page: exported.page,
      content: exported.bytes,
    };
  }
}
