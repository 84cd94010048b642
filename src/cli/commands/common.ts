// What every command that talks to a site starts from: its folder, its target and token, the
// kinds it works on, and the client.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { connect, type Api } from "../api.ts";
import { CliError, usage } from "../errors.ts";
import { isKind, KINDS, type Kind } from "../layout.ts";
import type { LocalFolder } from "../local.ts";
import type { Output } from "../output.ts";
import { environmentOf, type Environment } from "../environment.ts";
import { resolveAuthed, type Authed, type TargetFlags } from "../target.ts";

export interface CommonOptions extends TargetFlags {
  json?: boolean;
}

export interface Session {
  dir: string;
  target: Authed;
  api: Api;
  out: Output;
  env: NodeJS.ProcessEnv;
  /** What svc.json says of the --env environment (settings, domains, confirm, strict); null without --env. */
  environment: Environment | null;
}

/** The folder of a command (default: the current one); it must exist unless `create`. */
export function folder(dir: string | undefined, cwd: string, create = false): string {
  const path = resolve(cwd, dir ?? ".");
  if (!create && !existsSync(path)) throw usage(`${dir}: no such folder`);
  if (existsSync(path) && !statSync(path).isDirectory()) throw usage(`${dir}: not a folder`);
  return path;
}

export function open(dir: string, options: CommonOptions, out: Output, env: NodeJS.ProcessEnv): Session {
  const target = resolveAuthed(options, dir, env, (line) => out.note(line));
  const environment = options.env !== undefined ? environmentOf(dir, options.env) : null;
  return { dir, target, api: connect(target, out), out, env, environment };
}

/** `--only frames,styles` as a set of kinds (all of them without it). */
export function kindsOf(only: string | undefined, without: Kind[] = []): Set<Kind> {
  const kinds = new Set<Kind>(KINDS);
  if (only !== undefined) {
    kinds.clear();
    for (const word of only
      .split(",")
      .map((w) => w.trim())
      .filter(Boolean)) {
      const kind = word === "settings.json" ? "settings" : word;
      if (!isKind(kind)) throw usage(`--only ${only}: "${word}" is not a kind (${KINDS.join(", ")})`);
      kinds.add(kind);
    }
    if (kinds.size === 0) throw usage(`--only: name at least one kind (${KINDS.join(", ")})`);
  }
  for (const kind of without) kinds.delete(kind);
  return kinds;
}

/** Files of the folder that name no object stop a command that would act on them. */
export function refuseProblems(folder: LocalFolder, out: Output, what: string): void {
  if (folder.problems.length === 0) return;
  for (const problem of folder.problems) out.note(`invalid_file: ${problem.key}: ${problem.message}`);
  throw new CliError(
    1,
    `invalid_file: ${folder.problems.length} file${folder.problems.length > 1 ? "s" : ""} of the folder name no object (listed above); ${what}`,
    [],
    {
      code: "invalid_file",
      files: folder.problems,
    },
  );
}

export function targetJson(target: Authed): { url: string; site: number } {
  return { url: target.url, site: target.site };
}
