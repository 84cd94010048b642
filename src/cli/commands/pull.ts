// `svc pull [dir]`: writes the site into the folder (docs/cli.md, "The folder"): the server's
// changes come in, the folder's own changes stay (push sends them), and a file changed on both
// sides stops the pull before anything is written (--force takes the server's). .svc/state.json
// then holds every object as synced.
import { mkdirSync, readdirSync, rmdirSync, unlinkSync, writeFileSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { eachLimited } from "../api.ts";
import { jsonFileText, sha256, type Json } from "../canonical.ts";
import { fileTextOf } from "../file-forms.ts";
import { PAGE_KEYS, SETTINGS_FIELDS } from "../files.ts";
import { KIND_MODULES } from "../kinds/index.ts";
import { BYTE_KINDS, type Kind } from "../layout.ts";
import { readFolder } from "../local.ts";
import { overriddenFolder, settingsUnderOverrides } from "../overrides.ts";
import { pullLine } from "../output.ts";
import { baselineAfterPull, planPull, type PullItem } from "../plan.ts";
import { loadBytes, readServer, type RemoteObject } from "../remote.ts";
import { baseline, readState, withTarget, writeState } from "../state.ts";
import { conflictError } from "./push.ts";
import { refuseProblems, targetJson, type Session } from "./common.ts";

const FIELD_ORDER: Partial<Record<Kind, readonly string[]>> = {
  pages: PAGE_KEYS,
  menus: ["name", "locations", "items"],
  settings: SETTINGS_FIELDS,
  ...Object.fromEntries(Object.entries(KIND_MODULES).map(([kind, module]) => [kind, module.order ?? []])),
};

function fileBytes(object: RemoteObject): Uint8Array {
  const own = KIND_MODULES[object.kind]?.fileText;
  const value = (object.value ?? null) as Json;
  return new TextEncoder().encode(
    own ? own(object) : (fileTextOf(object.key, value) ?? jsonFileText(value, FIELD_ORDER[object.kind] ?? [])),
  );
}

function writeFile(dir: string, key: string, bytes: Uint8Array): void {
  const path = join(dir, key);
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.svc-${process.pid}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, path);
}

/** Removes a file and the folders it leaves empty, up to the kind's folder. */
function removeFile(dir: string, key: string): void {
  try {
    unlinkSync(join(dir, key));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  let parent = dirname(key);
  while (parent.includes("/")) {
    const path = join(dir, parent);
    try {
      if (readdirSync(path).length > 0) break;
      rmdirSync(path);
    } catch {
      break;
    }
    parent = dirname(parent);
  }
}

export async function pullCommand(session: Session, options: { kinds: Set<Kind>; force: boolean }): Promise<number> {
  const { dir, api, out, target } = session;
  mkdirSync(dir, { recursive: true });
  const own = readFolder(dir, options.kinds);
  refuseProblems(own, out, "nothing was written");
  // Compared as a push to this environment sends it; settings.json written back with its own values.
  const folder = overriddenFolder(own, session.environment);
  const state = readState(dir);
  const base = baseline(state, target.url, target.site);
  const snapshot = await readServer(api, options.kinds, { withMarkup: true });
  const plan = planPull({
    local: folder.objects,
    server: snapshot.objects,
    base,
    kinds: options.kinds,
    force: options.force,
  });
  const conflict = conflictError(plan, "svc pull --force takes the server's, svc push --force sends yours");
  if (conflict) throw conflict;
  const writes = plan.filter((item) => item.action === "create" || item.action === "update");
  // Fetch what the lists did not carry (stylesheets' CSS, media files), then write.
  let fetched = 0;
  const contents = await eachLimited(writes, 4, async (item) => {
    const object = snapshot.objects.get(item.key)!;
    const file =
      item.kind === "settings"
        ? {
            ...object,
            value: settingsUnderOverrides(object.value ?? null, own.objects.get(item.key)?.value, session.environment),
          }
        : object;
    const bytes = BYTE_KINDS.has(item.kind) ? await loadBytes(api, snapshot.facts, object) : fileBytes(file);
    out.progress(++fetched, writes.length, "pulling");
    return bytes;
  });
  const server = new Map(snapshot.objects);
  writes.forEach((item, index) => {
    writeFile(dir, item.key, contents[index]);
    // A file's hash is that of the bytes written (a byte kind changed between list and read is taken as read).
    if (BYTE_KINDS.has(item.kind)) server.set(item.key, { ...server.get(item.key)!, hash: sha256(contents[index]) });
  });
  for (const item of plan) if (item.action === "delete") removeFile(dir, item.key);
  const next = baselineAfterPull({ local: folder.objects, server, base }, plan);
  writeState(dir, withTarget(state, target.url, target.site, next, new Date(), session.environment?.name));
  print(session, plan);
  return 0;
}

function print(session: Session, plan: PullItem[]): void {
  const { out, target } = session;
  const count = (action: PullItem["action"]) => plan.filter((item) => item.action === action).length;
  for (const item of plan) if (item.action !== "unchanged") out.line(pullLine(item));
  out.line(
    `${count("create")} created, ${count("update")} updated, ${count("delete")} removed, ${count("unchanged")} unchanged, ${count("keep")} kept (changed here) from ${target.url} site ${target.site}`,
  );
  out.document({
    ok: true,
    command: "pull",
    target: targetJson(target),
    items: plan,
    counts: {
      create: count("create"),
      update: count("update"),
      delete: count("delete"),
      unchanged: count("unchanged"),
      keep: count("keep"),
    },
  });
}
