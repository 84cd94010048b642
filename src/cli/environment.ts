// svc.json (docs/cli.md, "Environments"): the folder's environments and what a push to each
// changes besides the folder's files. Per environment, beside its `url` and `site` (target.ts):
//   "settings": {...}           settings laid over settings.json when pushing there (a tagline)
//   "domain": "www.example.org" the site's primary domain there
//   "domains": ["example.org"]  its aliases there (added, never removed)
//   "confirm": true             a push from a folder last synced with another target asks --yes
//                               (`production` asks unless "confirm": false)
//   "strict": true              any markup warning fails the push (also top level, every environment)
// A token is never read from the project folder: a svc.json holding one is refused.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Json } from "./canonical.ts";
import { CliError, usage } from "./errors.ts";
import { SETTINGS_FIELDS } from "./files.ts";

export const SVC_JSON = "svc.json";

/** What svc.json says of one environment beyond its url and site. */
export interface Environment {
  name: string;
  confirm: boolean;
  strict: boolean;
  settings: Record<string, Json>;
  domain: string | null;
  domains: string[];
}

type Rec = Record<string, unknown>;

function isRecord(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasTokenField(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasTokenField);
  if (!isRecord(value)) return false;
  return Object.entries(value).some(([key, inner]) => /token|secret|password/i.test(key) || hasTokenField(inner));
}

/** The folder's svc.json, parsed, or null when it has none. */
export function readSvcJson(dir: string): Rec | null {
  const path = join(dir, SVC_JSON);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw usage(`${path} is not JSON: ${(error as Error).message}`);
  }
  if (hasTokenField(parsed)) {
    throw new CliError(
      2,
      `usage: ${path} holds a token or password; tokens never go in the project folder: use SVC_TOKEN or svc login`,
    );
  }
  if (!isRecord(parsed)) throw usage(`${path} is a JSON object ({"environments": {…}})`);
  return parsed;
}

/** The raw entry of environment `name` (url, site and the rest). */
export function environmentEntry(dir: string, name: string): Rec {
  const json = readSvcJson(dir);
  if (json === null)
    throw usage(
      `--env ${name}: there is no ${SVC_JSON} in ${dir} ({"environments": {"${name}": {"url": …, "site": …}}})`,
    );
  const environments = json.environments;
  if (!isRecord(environments))
    throw usage(
      `${join(dir, SVC_JSON)} has no "environments" object ({"environments": {"staging": {"url": …, "site": …}}})`,
    );
  const entry = environments[name];
  if (!isRecord(entry)) {
    const names = Object.keys(environments);
    throw usage(
      `--env ${name}: ${SVC_JSON} has no environment "${name}"${names.length ? ` (it has ${names.join(", ")})` : ""}`,
    );
  }
  return entry;
}

function flagOf(value: unknown, where: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") throw usage(`${where}: true or false, not ${JSON.stringify(value)}`);
  return value;
}

function domainOf(value: unknown, where: string): string {
  if (typeof value !== "string" || !/^[^\s/:?#\\]+$/.test(value.trim()))
    throw usage(`${where}: a host name such as www.example.org, not ${JSON.stringify(value)}`);
  return value.trim().toLowerCase();
}

function settingsOf(value: unknown, where: string): Record<string, Json> {
  if (value === undefined) return {};
  if (!isRecord(value)) throw usage(`${where}: an object of settings ({"tagline": "…"})`);
  const unknown = Object.keys(value).filter((key) => !(SETTINGS_FIELDS as readonly string[]).includes(key));
  if (unknown.length)
    throw usage(
      `${where}: ${unknown.join(", ")} ${unknown.length > 1 ? "are" : "is"} no setting of settings.json (${SETTINGS_FIELDS.join(", ")})`,
    );
  return value as Record<string, Json>;
}

/** What the folder's svc.json says of environment `name` beyond url and site. */
export function environmentOf(dir: string, name: string): Environment {
  const entry = environmentEntry(dir, name);
  const top = readSvcJson(dir) ?? {};
  const where = `${SVC_JSON} ${name}`;
  const domains = entry.domains === undefined ? [] : entry.domains;
  if (!Array.isArray(domains)) throw usage(`${where}: domains: a list of host names (the site's aliases there)`);
  return {
    name,
    confirm: flagOf(entry.confirm, `${where}: confirm`, name === "production"),
    strict: flagOf(entry.strict, `${where}: strict`, flagOf(top.strict, `${SVC_JSON}: strict`, false)),
    settings: settingsOf(entry.settings, `${where}: settings`),
    domain: entry.domain === undefined || entry.domain === null ? null : domainOf(entry.domain, `${where}: domain`),
    domains: domains.map((d, i) => domainOf(d, `${where}: domains[${i}]`)),
  };
}

/** `"strict": true` at the top of svc.json (without --env). */
export function folderStrict(dir: string): boolean {
  return flagOf(readSvcJson(dir)?.strict, `${SVC_JSON}: strict`, false);
}
