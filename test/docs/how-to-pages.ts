// Reads the how-to pages (docs/guide/how-to/*.md) and replays their commands through a test app,
// so that a doc edit that breaks a call, or a product change that breaks a doc, fails a test.
//
// The regular form the pages keep (each page says so in "Before you start"):
//
// - A ```sh block holding `curl` (or `cat > file <<'TAG'` … `TAG`, or `jq … | curl …`) is run,
//   in page order, with bash itself: quoting, heredocs and jq are the shell's, as a reader's
//   shell would see them. `curl` is a shell function there that records its arguments (and its
//   standard input for `--data-binary @-`); each recorded call is then sent to the test app through
//   Fastify's inject. A block holding anything else (systemctl, sqlite3, an export) is not run
//   here; the tests run the few that matter on their own.
// - curl takes only `-s`, `-S`, `-i` (alone or together), `-X METHOD`, `-H 'Name: value'`,
//   `-d 'json'` and `--data-binary @-`, and one URL: `http://127.0.0.1:8080/api/…` for the API,
//   `http://localhost:8080/…` (or `127.0.0.1:8080`) for the public site (main site, `localhost`).
// - The fence right after a run block, when it is ```json, ```html or ```http, is what its last
//   call answers, as an excerpt:
//   - json: every key shown is in the answer with that value (objects may hold more keys; arrays
//     have exactly the elements shown, each an excerpt in turn); a string holding `…` stands for
//     a string made of the parts between the `…`, in order (a leading or trailing `…` frees the
//     start or end). `"success": false` means a refusal: the status must be the catalogue's for
//     its `error` (src/http/errors.ts); anything else is a 2xx.
//   - html: each non-blank line occurs in the page, in order; the status is 200.
//   - http (needs `curl -i`): `HTTP/1.1 <status> …`, then `Name: value` header lines, then after a
//     blank line body lines as for html.
//   Without an excerpt an API call must answer 2xx and a public page 200.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { statusOf } from "../../src/http/errors.ts";
import type { Answer, TestApp } from "../support/app.ts";

export interface Fence {
  lang: string;
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
}

export interface Step {
  block: Fence;
  expect: Fence | null;
}

export interface CurlCall {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
  include: boolean;
  /** The page and line of the block it came from. */
  where: string;
}

export interface Replayed {
  call: CurlCall;
  answer: Answer;
}

export function fences(markdown: string): Fence[] {
  const lines = markdown.split("\n");
  const out: Fence[] = [];
  // Fences may be indented (inside a list item); their lines lose that indentation.
  let open: { lang: string; line: number; body: string[]; ticks: string; indent: string } | null = null;
  lines.forEach((line, i) => {
    const fence = /^( *)(`{3,})\s*([\w-]*)\s*$/.exec(line);
    if (!open) {
      if (fence) open = { lang: fence[3], line: i + 1, body: [], ticks: fence[2], indent: fence[1] };
      return;
    }
    if (fence && fence[2] === open.ticks && fence[3] === "") {
      out.push({ lang: open.lang, text: open.body.join("\n"), line: open.line });
      open = null;
      return;
    }
    open.body.push(line.startsWith(open.indent) ? line.slice(open.indent.length) : line);
  });
  assert.equal(open, null, "a fence is never closed");
  return out;
}

/** Statements of a shell block: continuation lines and quoted line breaks joined, heredoc bodies left out. */
export function statements(block: string): string[] {
  const out: string[] = [];
  const lines = block.split("\n");
  let current = "";
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    current += (current ? "\n" : "") + line;
    for (let c = 0; c < line.length; c++) {
      const ch = line[c];
      if (quote === "'") {
        if (ch === "'") quote = null;
      } else if (quote === '"') {
        if (ch === "\\") c++;
        else if (ch === '"') quote = null;
      } else if (ch === "\\") c++;
      else if (ch === "'" || ch === '"') quote = ch;
      else if (ch === "#" && (c === 0 || /\s/.test(line[c - 1]))) break;
    }
    if (quote) continue;
    const heredoc = /<<-?\s*'?"?(\w+)'?"?\s*$/.exec(line);
    if (heredoc) {
      while (i + 1 < lines.length && lines[i + 1] !== heredoc[1]) i++;
      i++;
    }
    if (/(\\|\|)\s*$/.test(line) && !heredoc) continue;
    if (current.trim() && !current.trim().startsWith("#")) out.push(current.trim());
    current = "";
  }
  assert.equal(quote, null, `a quote is never closed in the shell block starting ${JSON.stringify(lines[0])}`);
  return out;
}

const RUN = /^(curl|jq|cat\s+>)\s/;

/** Whether a ```sh block is one these tests run (it holds curl or writes a file for one). */
export function isRunBlock(fence: Fence): boolean {
  return fence.lang === "sh" && statements(fence.text).some((s) => RUN.test(s));
}

export function steps(markdown: string): Step[] {
  const all = fences(markdown);
  const out: Step[] = [];
  all.forEach((fence, i) => {
    if (!isRunBlock(fence)) return;
    const next = all[i + 1];
    out.push({ block: fence, expect: next && ["json", "html", "http"].includes(next.lang) ? next : null });
  });
  return out;
}

/** A jq for machines without one: `jq -n --rawfile name file '<object>'`, the form the pages use. */
const JQ_SHIM = String.raw`#!/usr/bin/env node
const args = process.argv.slice(2);
const vars = {};
let expr = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "-n") continue;
  if (args[i] === "--rawfile") { vars[args[i + 1]] = require("fs").readFileSync(args[i + 2], "utf8"); i += 2; continue; }
  if (args[i] === "--arg") { vars[args[i + 1]] = args[i + 2]; i += 2; continue; }
  if (expr === null) { expr = args[i]; continue; }
  console.error("jq shim: unsupported argument " + args[i]); process.exit(2);
}
let at = 0;
const ws = () => { while (/\s/.test(expr[at] ?? "")) at++; };
function value() {
  ws();
  if (expr[at] === "{") {
    at++; const out = {};
    for (;;) {
      ws(); if (expr[at] === "}") { at++; return out; }
      let key;
      if (expr[at] === '"') key = string(); else { const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(expr.slice(at)); if (!m) throw new Error("key at " + at); key = m[0]; at += key.length; }
      ws(); if (expr[at++] !== ":") throw new Error("':' at " + at);
      out[key] = value(); ws();
      if (expr[at] === ",") at++;
    }
  }
  if (expr[at] === '"') return string();
  if (expr[at] === "$") { const m = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(expr.slice(at)); at += m[0].length; if (!(m[1] in vars)) throw new Error("$" + m[1] + " is not defined"); return vars[m[1]]; }
  const m = /^(-?\d+(\.\d+)?|true|false|null)/.exec(expr.slice(at));
  if (!m) throw new Error("value at " + at);
  at += m[0].length; return JSON.parse(m[0]);
}
function string() { const m = /^"(?:[^"\\]|\\.)*"/.exec(expr.slice(at)); at += m[0].length; return JSON.parse(m[0]); }
try { const out = value(); ws(); if (at !== expr.length) throw new Error("trailing text at " + at); process.stdout.write(JSON.stringify(out, null, 2) + "\n"); }
catch (error) { console.error("jq shim: " + error.message); process.exit(3); }
`;

const CURL_RECORDER = String.raw`
curl() {
  local n
  n=$(( $(cat "$__REC/count") + 1 ))
  echo "$n" > "$__REC/count"
  local f
  f="$__REC/$(printf %04d "$n")"
  : > "$f.args"
  local a stdin=0
  for a in "$@"; do
    printf '%s\0' "$a" >> "$f.args"
    if [ "$a" = "@-" ]; then stdin=1; fi
  done
  if [ "$stdin" = 1 ]; then cat > "$f.stdin"; fi
}
`;

function hasCommand(name: string): boolean {
  return spawnSync("bash", ["-c", `command -v ${name}`], { stdio: "ignore" }).status === 0;
}

/** A folder to run a page's blocks in (files written by `cat >` stay between blocks). */
export function workFolder(): { dir: string; env: Record<string, string>; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "svc-howto-"));
  const bin = join(dir, ".bin");
  mkdirSync(bin);
  let path = process.env.PATH ?? "/usr/bin:/bin";
  // HOWTO_JQ=shim runs the pages with the shim even where jq is installed (to check the shim).
  if (!hasCommand("jq") || process.env.HOWTO_JQ === "shim") {
    writeFileSync(join(bin, "jq"), JQ_SHIM);
    chmodSync(join(bin, "jq"), 0o755);
    path = `${bin}:${path}`;
  }
  return {
    dir,
    env: { PATH: path, HOME: dir, LANG: "C.UTF-8" },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs one ```sh block with bash, curl recorded; answers the calls it made, in order. */
export function runBlock(
  fence: Fence,
  where: string,
  folder: { dir: string; env: Record<string, string> },
  token: string,
): CurlCall[] {
  for (const statement of statements(fence.text)) {
    assert.match(
      statement,
      RUN,
      `${where}: a run block holds only curl, jq | curl and cat > file; found: ${statement.split("\n")[0]}`,
    );
  }
  const rec = mkdtempSync(join(folder.dir, ".rec-"));
  writeFileSync(join(rec, "count"), "0\n");
  const script = `${CURL_RECORDER}\nset -euo pipefail\n${fence.text}\n`;
  const run = spawnSync("bash", ["-c", script], {
    cwd: folder.dir,
    env: { ...folder.env, SVC_TOKEN: token, __REC: rec },
    encoding: "utf8",
  });
  assert.equal(run.status, 0, `${where}: bash failed (${run.status}): ${run.stderr}`);
  const calls: CurlCall[] = [];
  for (const name of readdirSync(rec)
    .filter((f) => f.endsWith(".args"))
    .sort()) {
    const args = readFileSync(join(rec, name), "utf8").split("\0").slice(0, -1);
    let stdin: string | undefined;
    try {
      stdin = readFileSync(join(rec, name.replace(/\.args$/, ".stdin")), "utf8");
    } catch {
      stdin = undefined;
    }
    calls.push(parseCurl(args, stdin, where));
  }
  rmSync(rec, { recursive: true, force: true });
  assert.ok(calls.length > 0 || !/(^|\n)\s*(curl|jq)\s/.test(fence.text), `${where}: the block made no call`);
  return calls;
}

export function parseCurl(args: string[], stdin: string | undefined, where: string): CurlCall {
  let method: string | null = null;
  let url: URL | null = null;
  const headers: Record<string, string> = {};
  let body: string | undefined;
  let include = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (/^-[sSi]+$/.test(a)) {
      if (a.includes("i")) include = true;
    } else if (a === "-X") {
      method = args[++i];
    } else if (a === "-H") {
      const header = args[++i];
      const colon = header.indexOf(":");
      assert.ok(colon > 0, `${where}: header without a colon: ${header}`);
      headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (a === "-d" || a === "--data-binary") {
      const data = args[++i];
      if (data === "@-") {
        assert.ok(a === "--data-binary", `${where}: -d @- strips newlines; the pages use --data-binary @-`);
        assert.ok(stdin !== undefined, `${where}: --data-binary @- without standard input`);
        body = stdin;
      } else {
        assert.ok(!data.startsWith("@"), `${where}: a body from a file other than standard input (${data})`);
        body = data;
      }
    } else if (a.startsWith("-")) {
      assert.fail(`${where}: curl option ${a} is not in the pages' regular form`);
    } else {
      assert.equal(url, null, `${where}: two URLs in one curl`);
      url = new URL(a);
    }
  }
  assert.ok(url, `${where}: curl without a URL`);
  assert.ok(
    ["127.0.0.1:8080", "localhost:8080"].includes(url.host),
    `${where}: ${url.host} is not the service the pages talk to`,
  );
  // curl sends a form content type with -d unless told otherwise; the API wants JSON.
  if (body !== undefined && !headers["content-type"]) headers["content-type"] = "application/x-www-form-urlencoded";
  return { method: method ?? (body !== undefined ? "POST" : "GET"), url, headers, body, include, where };
}

export async function send(t: TestApp, call: CurlCall): Promise<Answer> {
  return t.call(call.method, call.url.pathname + call.url.search, {
    token: null,
    headers: { ...call.headers, host: call.url.host },
    ...(call.body !== undefined ? { payload: call.body } : {}),
  });
}

function isApi(call: CurlCall): boolean {
  return call.url.pathname.startsWith("/api/");
}

/** `actual` holds `expected` as the excerpt rules above say; throws naming the first difference. */
export function holds(actual: unknown, expected: unknown, path = "answer"): void {
  if (typeof expected === "string" && expected.includes("…")) {
    assert.equal(typeof actual, "string", `${path}: a string expected`);
    const parts = expected.split("…");
    let at = 0;
    parts.forEach((part, i) => {
      if (i === 0) {
        assert.ok(
          (actual as string).startsWith(part),
          `${path}: should start with ${JSON.stringify(part)}, is ${JSON.stringify(actual)}`,
        );
        at = part.length;
        return;
      }
      const found =
        i === parts.length - 1 && part !== ""
          ? (actual as string).lastIndexOf(part)
          : (actual as string).indexOf(part, at);
      assert.ok(found >= at, `${path}: ${JSON.stringify(part)} not found (in order) in ${JSON.stringify(actual)}`);
      if (i === parts.length - 1 && part !== "")
        assert.equal(
          found + part.length,
          (actual as string).length,
          `${path}: should end with ${JSON.stringify(part)}`,
        );
      at = found + part.length;
    });
    return;
  }
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${path}: an array expected, got ${JSON.stringify(actual)}`);
    assert.equal(
      actual.length,
      expected.length,
      `${path}: ${expected.length} elements expected, got ${JSON.stringify(actual)}`,
    );
    for (const [i, e] of expected.entries()) holds(actual[i], e, `${path}[${i}]`);
    return;
  }
  if (expected && typeof expected === "object") {
    assert.ok(
      actual && typeof actual === "object" && !Array.isArray(actual),
      `${path}: an object expected, got ${JSON.stringify(actual)}`,
    );
    for (const [key, value] of Object.entries(expected)) {
      assert.ok(
        key in (actual as object),
        `${path}.${key} is missing (have ${Object.keys(actual as object).join(", ")})`,
      );
      holds((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
    }
    return;
  }
  assert.deepEqual(actual, expected, `${path}`);
}

function linesInOrder(body: string, lines: string[], where: string): void {
  let at = 0;
  for (const line of lines) {
    const found = body.indexOf(line, at);
    assert.ok(found >= 0, `${where}: the page does not hold, after what came before:\n${line}\n--- page:\n${body}`);
    at = found + line.length;
  }
}

export function catalogueStatus(code: string): number | null {
  try {
    return statusOf(code as Parameters<typeof statusOf>[0]);
  } catch {
    return null;
  }
}

export function check(call: CurlCall, answer: Answer, expect: Fence | null, where: string): void {
  const shown = `${call.method} ${call.url.pathname}${call.url.search} answered ${answer.status} ${answer.text.slice(0, 600)}`;
  if (!expect) {
    if (isApi(call)) assert.ok(answer.status >= 200 && answer.status < 300, `${where}: ${shown}`);
    else assert.equal(answer.status, 200, `${where}: ${shown}`);
    return;
  }
  const at = `${where} (excerpt at line ${expect.line})`;
  if (expect.lang === "json") {
    let want: unknown;
    try {
      want = JSON.parse(expect.text);
    } catch (error) {
      assert.fail(`${at}: the excerpt is not JSON: ${(error as Error).message}`);
    }
    assert.notEqual(answer.body, undefined, `${at}: the answer is not JSON: ${shown}`);
    const refusal = (want as { success?: unknown }).success === false;
    if (refusal) {
      const code = (want as { error?: string }).error;
      assert.ok(code, `${at}: a refusal excerpt names its error`);
      const status = catalogueStatus(code);
      assert.notEqual(status, null, `${at}: ${code} is not in the catalogue (src/http/errors.ts)`);
      assert.equal(answer.status, status, `${at}: ${shown}`);
    } else {
      assert.ok(answer.status >= 200 && answer.status < 300, `${at}: ${shown}`);
    }
    try {
      holds(answer.body, want);
    } catch (error) {
      assert.fail(`${at}: ${(error as Error).message}\n--- ${shown}`);
    }
    return;
  }
  if (expect.lang === "html") {
    assert.equal(answer.status, 200, `${at}: ${shown}`);
    linesInOrder(
      answer.text,
      expect.text.split("\n").filter((l) => l.trim() !== ""),
      at,
    );
    return;
  }
  assert.equal(expect.lang, "http");
  assert.ok(call.include, `${at}: an http excerpt shows headers: the call needs curl -i`);
  const [head, ...rest] = expect.text.split("\n\n");
  const [statusLine, ...headerLines] = head.split("\n");
  const status = /^HTTP\/1\.1 (\d{3})\b/.exec(statusLine);
  assert.ok(status, `${at}: the excerpt starts with HTTP/1.1 <status>`);
  assert.equal(answer.status, Number(status[1]), `${at}: ${shown}`);
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    assert.equal(String(answer.headers[name]), line.slice(colon + 1).trim(), `${at}: header ${name}`);
  }
  linesInOrder(
    answer.text,
    rest
      .join("\n\n")
      .split("\n")
      .filter((l) => l.trim() !== ""),
    at,
  );
}

/**
 * Replays a page: every run block in order, each call sent and checked. `onAnswer` sees every
 * call as it is answered (for checks a page can only describe, such as opening a preview link).
 */
export async function replayPage(
  t: TestApp,
  file: string,
  onAnswer: (done: Replayed) => Promise<void> | void = () => {},
): Promise<Replayed[]> {
  const markdown = readFileSync(file, "utf8");
  const folder = workFolder();
  const out: Replayed[] = [];
  try {
    let all: Step[];
    try {
      all = steps(markdown);
    } catch (error) {
      assert.fail(`${file}: ${(error as Error).message}`);
    }
    for (const step of all) {
      const where = `${file}:${step.block.line}`;
      const calls = runBlock(step.block, where, folder, t.adminToken);
      for (const [i, call] of calls.entries()) {
        const answer = await send(t, call);
        check(call, answer, i === calls.length - 1 ? step.expect : null, where);
        const done = { call, answer };
        out.push(done);
        await onAnswer(done);
      }
      if (calls.length === 0) assert.equal(step.expect, null, `${where}: an excerpt follows a block that made no call`);
    }
  } finally {
    folder.remove();
  }
  return out;
}

/** Every "NNN `code`" a page names: each must be the catalogue's status for that code. */
export function statusCodePairs(markdown: string): { status: number; code: string }[] {
  return [...markdown.matchAll(/\b([1-5]\d\d) `([a-z][a-z0-9_]*)`/g)].map((m) => ({
    status: Number(m[1]),
    code: m[2],
  }));
}
