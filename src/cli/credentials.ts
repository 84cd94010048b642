// Saved tokens: `~/.config/svc/credentials.json` (`$XDG_CONFIG_HOME/svc/` when that is set), mode
// 0600 in a 0700 folder, written by `svc login`, one token per service URL. Never in a project
// folder: a folder is pushed, committed and shared, a token is not (docs/cli.md, "Tokens").
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve, isAbsolute } from "node:path";
import { CliError } from "./errors.ts";

export interface SavedToken {
  token: string;
  login?: string;
  saved_at: string;
}

export interface CredentialsFile {
  version: 1;
  tokens: Record<string, SavedToken>;
}

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME)
      ? env.XDG_CONFIG_HOME
      : join(env.HOME || homedir(), ".config");
  return join(base, "svc", "credentials.json");
}

/** A service URL as tokens are saved under it: scheme and host lower-cased, no trailing slash. */
export function urlKey(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, "")}`.toLowerCase();
  } catch {
    return url.replace(/\/+$/, "");
  }
}

export function readCredentials(path: string, warn: (line: string) => void = () => {}): CredentialsFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, tokens: {} };
    throw error;
  }
  const mode = statSync(path).mode & 0o777;
  if (mode & 0o077)
    warn(`warning: ${path} can be read by other users (mode ${mode.toString(8)}); run chmod 600 ${path}`);
  try {
    const parsed = JSON.parse(text) as CredentialsFile;
    if (parsed && typeof parsed.tokens === "object" && parsed.tokens !== null)
      return { version: 1, tokens: parsed.tokens };
  } catch {
    // fall through
  }
  throw new CliError(
    1,
    `credentials_unreadable: ${path} is not a credentials file of svc; remove it and run svc login again`,
  );
}

/** The saved token of a service URL, if any. */
export function savedToken(path: string, url: string, warn?: (line: string) => void): string | null {
  const saved = readCredentials(path, warn).tokens[urlKey(url)];
  return saved && typeof saved.token === "string" && saved.token.trim() ? saved.token.trim() : null;
}

/** True when `path` is inside `folder` (a token must never be written into a project folder). */
export function isInside(path: string, folder: string): boolean {
  const rel = relative(resolve(folder), resolve(path));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** Saves (or, with token null, forgets) the token of a URL; the file is replaced whole, mode 0600. */
export function saveToken(path: string, url: string, token: SavedToken | null, projectDir: string): void {
  if (isInside(path, projectDir)) {
    throw new CliError(
      1,
      `credentials_in_project: ${path} is inside the project folder ${resolve(projectDir)}; tokens are kept in ~/.config/svc (set HOME or XDG_CONFIG_HOME elsewhere)`,
    );
  }
  const file = readCredentials(path);
  if (token) file.tokens[urlKey(url)] = token;
  else delete file.tokens[urlKey(url)];
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ version: 1, tokens: file.tokens }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}
