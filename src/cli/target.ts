// Which service, site and token a command talks to (docs/cli.md, "Where a command goes"). No hidden
// current site: each command reads, in order of precedence,
//   --url, --site                      the flags
//   svc.json in the command's folder   with --env <name>: {"environments": {"<name>": {"url", "site"}}}
//   SVC_URL, SVC_SITE                  the environment (without --env)
//   site 1                             the default site
// and the token from SVC_TOKEN, else the one `svc login` saved for that URL. A token is never read
// from or written to the project folder: svc.json holding one is refused.
import { credentialsPath, savedToken } from "./credentials.ts";
import { environmentEntry, SVC_JSON } from "./environment.ts";
import { CliError, usage } from "./errors.ts";

export interface TargetFlags {
  url?: string;
  site?: string;
  env?: string;
}

export interface Target {
  url: string;
  site: number;
  /** Where url and site came from, for messages: `--url`, `svc.json staging`, `SVC_URL`. */
  from: string;
}

export interface Authed extends Target {
  token: string;
  tokenFrom: "SVC_TOKEN" | "credentials";
}

export { SVC_JSON };

function siteOf(value: unknown, from: string): number {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > 2147483647)
    throw usage(`${from}: a site id is a whole number from 1, not ${JSON.stringify(value)}`);
  return Number(text);
}

function urlOf(value: unknown, from: string): string {
  const text = typeof value === "string" ? value.trim() : "";
  let parsed: URL | null = null;
  try {
    parsed = new URL(text);
  } catch {
    parsed = null;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.search || parsed.hash) {
    throw usage(
      `${from}: the service's address is an http:// or https:// URL such as http://127.0.0.1:8080, not ${JSON.stringify(value)}`,
    );
  }
  return text.replace(/\/+$/, "");
}

/** The url and site of environment `name` in the folder's svc.json (environment.ts reads the rest). */
export function readEnvironment(dir: string, name: string): { url?: unknown; site?: unknown } {
  return environmentEntry(dir, name) as { url?: unknown; site?: unknown };
}

/** The service and site of a command. */
export function resolveTarget(flags: TargetFlags, dir: string, env: NodeJS.ProcessEnv = process.env): Target {
  const fromFile = flags.env !== undefined ? readEnvironment(dir, flags.env) : null;
  const fileName = `${SVC_JSON} ${flags.env}`;
  let url: string;
  let from: string;
  if (flags.url !== undefined) [url, from] = [urlOf(flags.url, "--url"), "--url"];
  else if (fromFile) {
    if (fromFile.url === undefined) throw usage(`--env ${flags.env}: the environment in ${SVC_JSON} has no "url"`);
    [url, from] = [urlOf(fromFile.url, `${fileName}: url`), fileName];
  } else if (env.SVC_URL !== undefined && env.SVC_URL.trim() !== "")
    [url, from] = [urlOf(env.SVC_URL, "SVC_URL"), "SVC_URL"];
  else
    throw usage("which service? set SVC_URL (e.g. http://127.0.0.1:8080), pass --url, or --env <name> with svc.json");
  let site = 1;
  if (flags.site !== undefined) site = siteOf(flags.site, "--site");
  else if (fromFile) site = fromFile.site === undefined ? 1 : siteOf(fromFile.site, `${fileName}: site`);
  else if (env.SVC_SITE !== undefined && env.SVC_SITE.trim() !== "") site = siteOf(env.SVC_SITE, "SVC_SITE");
  return { url, site, from };
}

/** The target with its token: SVC_TOKEN, else the token `svc login` saved for the URL. */
export function resolveAuthed(
  flags: TargetFlags,
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
  warn?: (line: string) => void,
): Authed {
  const target = resolveTarget(flags, dir, env);
  const fromEnv = env.SVC_TOKEN?.trim();
  if (fromEnv) return { ...target, token: fromEnv, tokenFrom: "SVC_TOKEN" };
  const saved = savedToken(credentialsPath(env), target.url, warn);
  if (saved) return { ...target, token: saved, tokenFrom: "credentials" };
  throw new CliError(2, `usage: no token for ${target.url}: set SVC_TOKEN, or run svc login --url ${target.url}`);
}
