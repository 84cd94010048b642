// The command line of `svc` (docs/cli.md): commands and flags with commander, every refusal
// printed as one line with its exit code — 0 ok, 1 refused or conflict, 2 usage (an unknown
// command or flag, a bad value, no service or token given).
import { resolve as resolvePath } from "node:path";
import { Command, CommanderError, Option } from "commander";
import { failure } from "./api.ts";
import { CliError, usage, type ExitCode } from "./errors.ts";
import { KINDS } from "./layout.ts";
import { askOn } from "./ask.ts";
import { Output, type Streams } from "./output.ts";
import { folder, kindsOf, open, type CommonOptions } from "./commands/common.ts";
import { loginCommand, logoutCommand, type LoginOptions } from "./commands/login.ts";
import { pullCommand } from "./commands/pull.ts";
import { pushCommand } from "./commands/push.ts";
import { devCommand } from "./commands/dev.ts";
import { initCommand } from "./commands/init.ts";
import { statusCommand } from "./commands/status.ts";
import { watchCommand } from "./commands/watch.ts";
import { mcpCommand } from "./commands/mcp.ts";
import { exportCommand, importCommand, type ImportFlags } from "./commands/bundle.ts";
import { exportStaticCommand, type ExportStaticFlags } from "./commands/export-static.ts";
import { backupCommand, restoreCommand } from "./commands/backup.ts";
import { readEnvironment, resolveAuthed } from "./target.ts";

export interface Io extends Streams {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Resolves when `svc watch` or `svc dev` should stop (SIGINT or SIGTERM in main.ts). */
  stop: Promise<void>;
}

export const VERSION = "0.1.0";

const KIND_LIST = KINDS.join(",");

function targetOptions(command: Command): Command {
  return command
    .option("--url <url>", "the service's address (else svc.json with --env, else SVC_URL)")
    .option("--site <id>", "the site's id (else svc.json with --env, else SVC_SITE, else 1)")
    .option("--env <name>", "take url and site from this environment of svc.json in the folder")
    .option("--json", "print one JSON document on stdout (watch, dev: one per line), no progress bar");
}

interface PushFlags {
  dryRun?: boolean;
  delete?: boolean;
  force?: boolean;
  only?: string;
  strict?: boolean;
  yes?: boolean;
}

function debounceOf(value: string): number {
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0 || ms > 60_000) throw usage(`--debounce ${value}: milliseconds from 0 to 60000`);
  return ms;
}

function build(io: Io, setCode: (code: number) => void): Command {
  const program = new Command("svc");
  const out = (options: CommonOptions) => new Output(options.json === true, io);
  const session = (dir: string | undefined, options: CommonOptions, create = false) => {
    const path = folder(dir, io.cwd, create);
    return open(path, options, out(options), io.env);
  };
  program
    .description("Work on a site of the service from a folder: pull it, edit files, push them back (docs/cli.md).")
    .version(VERSION, "-V, --version")
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: () => {},
    });

  targetOptions(program.command("pull [dir]").description("write the site into the folder (default: the current one)"))
    .option("--no-media", "leave media files out")
    .option("--only <kinds>", `only these kinds, comma-separated (${KIND_LIST})`)
    .option("--force", "take the server's version of files changed on both sides")
    .action(
      async (dir: string | undefined, options: CommonOptions & { media: boolean; only?: string; force?: boolean }) => {
        const kinds = kindsOf(options.only, options.media ? [] : ["media"]);
        setCode(await pullCommand(session(dir, options, true), { kinds, force: options.force === true }));
      },
    );

  targetOptions(program.command("push [dir]").description("send what changed in the folder since the last sync"))
    .option("--dry-run", "print the plan and the analysis warnings; write nothing")
    .option("--delete", "delete objects that are only on the server (never without it)")
    .option("--force", "send the folder's version of objects changed on both sides")
    .option("--only <kinds>", `only these kinds, comma-separated (${KIND_LIST})`)
    .option("--strict", "fail (exit 2) on any markup warning, before anything is written")
    .option("--yes", "push to an environment that asks for confirmation (svc.json confirm, production)")
    .action(async (dir: string | undefined, options: CommonOptions & PushFlags) => {
      const kinds = kindsOf(options.only);
      setCode(
        await pushCommand(session(dir, options), {
          dryRun: options.dryRun === true,
          delete: options.delete === true,
          force: options.force === true,
          strict: options.strict === true,
          confirmation: { yes: options.yes === true, ask: options.json ? undefined : askOn(io) },
          kinds,
        }),
      );
    });

  targetOptions(
    program
      .command("status [dir]")
      .description("show what changed here and on the server since the last sync; exit 1 on a conflict"),
  )
    .option("--only <kinds>", `only these kinds, comma-separated (${KIND_LIST})`)
    .action(async (dir: string | undefined, options: CommonOptions & { only?: string }) => {
      setCode(await statusCommand(session(dir, options), kindsOf(options.only)));
    });

  targetOptions(
    program.command("watch [dir]").description("push each file when it is saved; keeps going after an error"),
  )
    .option("--only <kinds>", `only these kinds, comma-separated (${KIND_LIST})`)
    .addOption(new Option("--debounce <ms>", "wait this long after the last save before pushing").default("300"))
    .action(async (dir: string | undefined, options: CommonOptions & { only?: string; debounce: string }) => {
      const kinds = kindsOf(options.only);
      setCode(
        await watchCommand(session(dir, options), { kinds, debounceMs: debounceOf(options.debounce), stop: io.stop }),
      );
    });

  targetOptions(
    program.command("dev [dir]").description("serve the site with the folder's unsaved files; reload on save"),
  )
    .addOption(new Option("--port <n>", "the port to serve on (0: any free one)").default("4000"))
    .addOption(new Option("--host <address>", "the address to listen on").default("127.0.0.1"))
    .addOption(new Option("--debounce <ms>", "wait this long after the last save before reloading").default("100"))
    .action(
      async (dir: string | undefined, options: CommonOptions & { port: string; host: string; debounce: string }) => {
        const port = Number(options.port);
        if (!Number.isInteger(port) || port < 0 || port > 65_535)
          throw usage(`--port ${options.port}: a port from 0 to 65535`);
        const debounceMs = debounceOf(options.debounce);
        setCode(await devCommand(session(dir, options), { host: options.host, port, debounceMs, stop: io.stop }));
      },
    );

  program
    .command("init <dir>")
    .description("write a starter site (bilingual, with a theme, pages, news and menus) into a new or empty folder")
    .option("--force", "write into a folder that is not empty (files already there are kept)")
    .option("--name <name>", "the site's name in settings.json and seo.json", undefined)
    .option("--json", "print one JSON document on stdout")
    .action((dir: string, options: { force?: boolean; name?: string; json?: boolean }) => {
      setCode(initCommand(dir, io.cwd, { force: options.force === true, name: options.name }, out(options)));
    });

  targetOptions(
    program
      .command("login [dir]")
      .description("save a token for the service in ~/.config/svc/credentials.json (mode 0600)"),
  )
    .option("--login <name>", "the user to log in as (asked on a terminal)")
    .option("--password-stdin", "read the password from stdin")
    .option("--token-stdin", "save the token read from stdin instead of logging in")
    .action(async (dir: string | undefined, options: LoginOptions & CommonOptions) => {
      setCode(await loginCommand(folder(dir, io.cwd), options, { stdin: io.stdin, out: out(options), env: io.env }));
    });

  targetOptions(
    program.command("mcp [dir]").description("serve the service's MCP tools on stdio for an agent (docs/mcp.md)"),
  )
    .option("--tools <groups>", "only these groups of tools, comma-separated (frames,pages,menus,data,revisions,…)")
    .option("--read-only", "only the reading tools")
    .action(async (dir: string | undefined, options: CommonOptions & { tools?: string; readOnly?: boolean }) => {
      const path = folder(dir, io.cwd);
      const target = resolveAuthed(options, path, io.env, (line) => io.stderr.write(`${line}\n`));
      // The site goes with the connection only when named, so a token of one other site keeps working.
      const named = options.site ?? (options.env ? readEnvironment(path, options.env).site : io.env.SVC_SITE);
      const site = named === undefined || named === "" ? undefined : target.site;
      setCode(await mcpCommand(target, { tools: options.tools, readOnly: options.readOnly, site }, io));
    });

  targetOptions(
    program.command("export <file>").description("write the site's bundle, a .tar.gz (docs/bundles.md)"),
  ).action(async (file: string, options: CommonOptions) => {
    setCode(await exportCommand(session(undefined, options), resolvePath(io.cwd, file)));
  });

  targetOptions(
    program
      .command("import <file>")
      .description(
        "import a bundle into the site named by --site or SVC_SITE; with neither, into a new site at --domain",
      ),
  )
    .option("--dry-run", "answer what the import would do; write nothing")
    .option("--mode <mode>", "merge (default: never deletes) or replace (also deletes what the bundle lacks)")
    .option("--domain <domain>", "the new site's domain (no --site or SVC_SITE)")
    .action(async (file: string, options: CommonOptions & ImportFlags) => {
      const path = folder(undefined, io.cwd);
      // The default site 1 does not apply: an import lands only where it was sent.
      const named = options.site ?? (options.env ? readEnvironment(path, options.env).site : io.env.SVC_SITE);
      const given = named !== undefined && named !== "";
      setCode(await importCommand(session(undefined, options), resolvePath(io.cwd, file), given, options));
    });

  targetOptions(
    program
      .command("export-static")
      .description("write the site's public pages and files into a folder for any static host (docs/cli.md)"),
  )
    .requiredOption("--out <dir>", "the folder to write (new, empty, or an earlier export to bring up to date)")
    .option("--base-url <url>", "make the site's links absolute on this address (https://example.org)")
    .option("--relative", "make the site's links relative to each file (absolute ones use --base-url)")
    .option("--since <event id>", "fetch again only the addresses the site's events after this one name")
    .option("--verbose", "list every file written, deleted and unchanged")
    .action(async (options: CommonOptions & ExportStaticFlags) => {
      setCode(await exportStaticCommand(session(undefined, options), io.cwd, options));
    });

  program
    .command("backup <file>")
    .description("copy the data directory (SVC_DATA_DIR) into one file while the service runs (docs/backups.md)")
    .option("--force", "replace the file if it exists")
    .option("--json", "print one JSON document on stdout")
    .action(async (file: string, options: { force?: boolean; json?: boolean }) => {
      setCode(await backupCommand(file, options.force === true, io, out(options)));
    });

  program
    .command("restore <file>")
    .description("restore a backup into the empty data directory named by SVC_DATA_DIR (docs/backups.md)")
    .option("--json", "print one JSON document on stdout")
    .action(async (file: string, options: { json?: boolean }) => {
      setCode(await restoreCommand(file, io, out(options)));
    });

  targetOptions(program.command("logout [dir]").description("forget the saved token of the service")).action(
    async (dir: string | undefined, options: CommonOptions) => {
      setCode(await logoutCommand(folder(dir, io.cwd), options, { stdin: io.stdin, out: out(options), env: io.env }));
    },
  );
  return program;
}

/** Prints a refusal as the command's output: its lines and one `code: message` line, or one JSON document. */
export function report(error: CliError, json: boolean, io: Streams, command: string | null): void {
  const out = new Output(json, io);
  for (const line of error.lines) out.line(line);
  out.note(error.line);
  const [code, ...rest] = error.line.split(": ");
  out.document({
    ok: false,
    ...(command ? { command } : {}),
    exit: error.exitCode,
    error: { code, message: rest.join(": ") },
    ...error.details,
  });
}

/** Runs one command line (without `node` and the script); resolves with the exit code. */
export async function run(args: string[], io: Io): Promise<ExitCode> {
  const json = args.includes("--json");
  const command = args.find((arg) => !arg.startsWith("-")) ?? null;
  let code = 0;
  const program = build(io, (value) => (code = value));
  if (args.length === 0) {
    io.stderr.write(program.helpInformation());
    report(
      usage(
        "a command is needed: init, pull, push, status, watch, dev, export, import, export-static, backup, restore, login, logout or mcp",
      ),
      json,
      io,
      null,
    );
    return 2;
  }
  try {
    await program.parseAsync(args, { from: "user" });
    return code === 0 ? 0 : code === 1 ? 1 : 2;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === "commander.helpDisplayed" ||
        error.code === "commander.version" ||
        error.code === "commander.help"
      )
        return 0;
      report(usage(error.message.replace(/^error: /, "")), json, io, command);
      return 2;
    }
    const refusal = error instanceof CliError ? error : failure(error, "the service");
    report(refusal, json, io, command);
    return refusal.exitCode;
  }
}
