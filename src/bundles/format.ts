// What a site bundle is (docs/bundles.md): a .tar.gz whose first entry is manifest.json, then one
// entry per object in readable UTF-8 (markup and CSS as stored, JSON pretty-printed without \u
// escapes) and the media files as they are. Pure: names, limits, the manifest's shape and the
// migration of older formats.
import { fail } from "../errors.ts";

/** The format this service writes, and the newest it reads. */
export const FORMAT_VERSION = 1;

export const MANIFEST = "manifest.json";

/** What a manifest names as its source's service. */
export const SERVICE_NAME = "site-builder-service";
export const SERVICE_VERSION = packageVersion();

function packageVersion(): string {
  return typeof process.env.npm_package_version === "string" ? process.env.npm_package_version : "0.1.0";
}

/** The largest entry that is not a media file (markup, CSS, JSON): 16 MiB. */
export const MAX_TEXT_ENTRY = 16 * 1024 * 1024;

/** Entries a bundle may hold. */
export const MAX_ENTRIES = 100_000;

export interface BundleSource {
  service: string;
  version: string;
  domain: string;
  site_id: number;
  exported_at: string;
}

export interface Manifest {
  format_version: number;
  source: BundleSource;
  /** Objects per kind. */
  counts: Record<string, number>;
  /** The sha256 (hex) of every other entry, by its path. */
  entries: Record<string, string>;
}

/** A refusal of the bundle itself, before anything is written. */
export function invalidBundle(reason: string, details: Record<string, unknown> = {}, message?: string) {
  return fail("invalid_bundle", { reason, ...details }, message);
}

/**
 * Why an entry's name is refused, or null: names are relative paths of plain segments, so
 * nothing a bundle names can land outside what it describes.
 */
export function badEntryName(name: string): string | null {
  if (name === "" || name.length > 1000) return "entry_name";
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name) || name.includes("\\")) return "absolute_entry_name";
  const segments = name.split("/");
  if (segments.some((segment) => segment === ".." || segment === ".")) return "dotdot_entry_name";
  if (segments.some((segment) => segment === "") || name.includes("\0")) return "entry_name";
  return null;
}

/** The largest size an entry at `name` may have: a media file's limit for media, else MAX_TEXT_ENTRY. */
export function entryLimit(name: string, mediaMaxBytes: number): number {
  return name.startsWith("media/") && !name.endsWith(".json") ? mediaMaxBytes : MAX_TEXT_ENTRY;
}

/** A manifest as read from an older format, made the current one's (keyed by the version it comes from). */
type Migration = (manifest: Record<string, unknown>, entries: Map<string, Buffer>) => Record<string, unknown>;

/**
 * Format 0 (the bundles of the prototype, kept for the migration path and its test) listed the
 * sha256 of its entries as `files` and named the site's facts `site`. Each step takes a manifest
 * one version up; a bundle is taken step by step to FORMAT_VERSION.
 */
export const MIGRATIONS: Readonly<Record<number, Migration>> = {
  0: (manifest) => {
    const { files, site, ...rest } = manifest;
    return { ...rest, format_version: 1, entries: files, source: site };
  },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The manifest of a bundle, migrated to FORMAT_VERSION; a newer one is refused. */
export function readManifest(bytes: Buffer, entries: Map<string, Buffer>): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw invalidBundle("bad_manifest", {}, "manifest.json is not JSON.");
  }
  if (!isRecord(value) || !Number.isInteger(value.format_version))
    throw invalidBundle("bad_manifest", {}, "manifest.json has no whole-number format_version.");
  let manifest = value;
  let version = manifest.format_version as number;
  if (version > FORMAT_VERSION)
    throw fail("bundle_version_unsupported", { format_version: version, supported: FORMAT_VERSION });
  while (version < FORMAT_VERSION) {
    const migrate = MIGRATIONS[version];
    if (!migrate) throw fail("bundle_version_unsupported", { format_version: version, supported: FORMAT_VERSION });
    manifest = migrate(manifest, entries);
    version = manifest.format_version as number;
  }
  const listed = manifest.entries;
  if (!isRecord(listed) || !Object.values(listed).every((sha) => typeof sha === "string" && /^[0-9a-f]{64}$/.test(sha)))
    throw invalidBundle("bad_manifest", {}, "manifest.json's entries are not {path: sha256}.");
  return {
    format_version: FORMAT_VERSION,
    source: (isRecord(manifest.source) ? manifest.source : {}) as unknown as BundleSource,
    counts: isRecord(manifest.counts) ? (manifest.counts as Record<string, number>) : {},
    entries: listed as Record<string, string>,
  };
}

export function jsonOf(bytes: Buffer): unknown {
  return JSON.parse(bytes.toString("utf8"));
}

/** JSON as a bundle writes it: two-space indentation, characters as they are (no \u escapes), a final newline. */
export function jsonEntry(value: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(value, null, 2)}\n`, "utf8");
}
