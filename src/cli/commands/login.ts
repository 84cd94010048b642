// `svc login` and `svc logout`: a token saved per service URL in ~/.config/svc/credentials.json
// (mode 0600; credentials.ts), never in the project folder. Login asks the service for a token with
// a login and password (POST /api/login; the password read without echo on a terminal, or from
// stdin with --password-stdin), or saves a token given on stdin (--token-stdin), after checking it
// (GET /api/profile).
import { createInterface } from "node:readline";
import { connect, data, type Rec } from "../api.ts";
import { credentialsPath, saveToken } from "../credentials.ts";
import { CliError, usage } from "../errors.ts";
import type { Output } from "../output.ts";
import { resolveTarget, type TargetFlags } from "../target.ts";

export interface LoginOptions extends TargetFlags {
  login?: string;
  passwordStdin?: boolean;
  tokenStdin?: boolean;
}

export interface Io {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  out: Output;
  env: NodeJS.ProcessEnv;
}

async function readAll(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stdin) text += chunk.toString();
  return text.replace(/\r?\n$/, "");
}

/** One line from a terminal, echoed as typed unless `secret`. */
function ask(io: Io, question: string, secret: boolean): Promise<string> {
  return new Promise((resolve) => {
    const stderr = process.stderr;
    const rl = createInterface({
      input: io.stdin,
      output: secret ? undefined : stderr,
      terminal: io.stdin.isTTY ?? false,
    });
    if (secret) stderr.write(question);
    rl.question(secret ? "" : question, (answer) => {
      if (secret) stderr.write("\n");
      rl.close();
      resolve(answer);
    });
  });
}

export async function loginCommand(dir: string, options: LoginOptions, io: Io): Promise<number> {
  const target = resolveTarget(options, dir, io.env);
  const { out } = io;
  let token: string;
  let login: string | undefined;
  if (options.tokenStdin) {
    token = (await readAll(io.stdin)).trim();
    if (!token) throw usage("--token-stdin: no token on stdin");
  } else {
    login = options.login ?? (io.stdin.isTTY ? await ask(io, "login: ", false) : undefined);
    if (!login)
      throw usage("svc login needs --login <name> (and the password on stdin with --password-stdin), or --token-stdin");
    const password =
      options.passwordStdin || !io.stdin.isTTY ? await readAll(io.stdin) : await ask(io, "password: ", true);
    const api = connect({ ...target, token: "none", tokenFrom: "SVC_TOKEN" }, out);
    const answer = await data(
      api,
      api.client.POST("/api/login", { body: { login, password }, headers: { Authorization: null } } as never),
    );
    token = String(answer.token);
  }
  const api = connect({ ...target, token, tokenFrom: "credentials" }, out);
  const profile = await data(api, api.client.GET("/api/profile", {}));
  const user = (profile.user ?? {}) as Rec;
  const path = credentialsPath(io.env);
  saveToken(
    path,
    target.url,
    { token, login: String(user.login ?? login ?? ""), saved_at: new Date().toISOString() },
    dir,
  );
  out.line(`logged in to ${target.url} as ${String(user.login)}; token saved in ${path}`);
  out.document({ ok: true, command: "login", url: target.url, login: user.login, credentials: path });
  return 0;
}

export async function logoutCommand(dir: string, options: TargetFlags, io: Io): Promise<number> {
  const target = resolveTarget(options, dir, io.env);
  const path = credentialsPath(io.env);
  try {
    saveToken(path, target.url, null, dir);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(1, `failed: ${(error as Error).message}`);
  }
  io.out.line(`forgot the token of ${target.url} (${path}); the token itself stays valid until revoked`);
  io.out.document({ ok: true, command: "logout", url: target.url, credentials: path });
  return 0;
}
