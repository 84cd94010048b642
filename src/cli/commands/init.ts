// `svc init <folder>`: writes the starter site (src/cli/starter.ts) into a new or empty folder, as
// `hugo new site` and `shopify theme init` do (docs/cli.md, "svc init"). It talks to no service. A
// folder holding anything but a `.git` is refused (exit 2) before a file is written, unless
// --force; even then a file already there is never overwritten (it is listed as `exists`).
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { CliError, usage } from "../errors.ts";
import type { Output } from "../output.ts";
import { starterFiles, type StarterFile } from "../starter.ts";

export interface InitOptions {
  /** Write into a folder that is not empty (files already there are kept). */
  force: boolean;
  /** The site's name in settings.json and seo.json's title template. */
  name?: string;
}

/** What a folder holds besides a repository's `.git` (a fresh `git init` is an empty folder still). */
function contentsOf(path: string): string[] {
  return readdirSync(path).filter((name) => name !== ".git");
}

/** The starter's JSON files that carry the site's name, given another name. */
function named(file: StarterFile, name: string): string | null {
  const rewrite = (change: (value: Record<string, unknown>) => void) => {
    const value = JSON.parse(readFileSync(file.source, "utf8")) as Record<string, unknown>;
    change(value);
    return `${JSON.stringify(value, null, 2)}\n`;
  };
  if (file.key === "settings.json") return rewrite((value) => (value.name = name));
  if (file.key === "seo.json")
    return rewrite((value) => {
      // The template is the default language's, read back under `languages` too.
      const template = `%s — ${name}`;
      value.title_template = template;
      for (const entry of Object.values((value.languages ?? {}) as Record<string, Record<string, unknown>>))
        if (typeof entry.title_template === "string") entry.title_template = template;
    });
  return null;
}

export function initCommand(dir: string, cwd: string, options: InitOptions, out: Output): number {
  const path = resolve(cwd, dir);
  if (existsSync(path) && !statSync(path).isDirectory()) throw usage(`${dir}: not a folder`);
  const name = options.name?.trim();
  if (options.name !== undefined && !name) throw usage("--name: the site's name cannot be blank");
  const held = existsSync(path) ? contentsOf(path) : [];
  if (held.length > 0 && !options.force)
    throw new CliError(
      2,
      `not_empty: ${dir} holds ${held.length} file${held.length > 1 ? "s" : ""} or folder${held.length > 1 ? "s" : ""} (${held.slice(0, 3).join(", ")}${held.length > 3 ? ", …" : ""}); nothing was written. Name a new folder, or add --force to write the starter beside them (a file already there is kept)`,
      [],
      { code: "not_empty", dir: path },
    );
  const written: string[] = [];
  const kept: string[] = [];
  for (const file of starterFiles()) {
    const target = join(path, file.key);
    if (existsSync(target)) {
      kept.push(file.key);
      out.line(`${"exists".padEnd(12)} ${file.key}  (kept as it is)`);
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    const text = name ? named(file, name) : null;
    if (text === null) copyFileSync(file.source, target);
    else writeFileSync(target, text);
    written.push(file.key);
    out.line(`${"create".padEnd(12)} ${file.key}`);
  }
  out.line(`${written.length} files written to ${path}${kept.length > 0 ? `, ${kept.length} kept` : ""}`);
  out.note(
    `next: svc push ${dir} --url <service> --site <id>, or name them in ${dir}/svc.json and run svc push ${dir} --env staging (docs/cli.md, "svc init")`,
  );
  out.document({ ok: true, command: "init", dir: path, written, kept });
  return 0;
}
